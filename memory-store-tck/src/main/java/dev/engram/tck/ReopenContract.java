/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.tck;

import dev.engram.test.HashingEmbedder;
import static dev.engram.tck.Fixtures.S1;
import static dev.engram.tck.Fixtures.S2;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.engram.CapturedSource;
import dev.engram.Engram;
import dev.engram.Grants;
import dev.engram.MemoryEntry;
import dev.engram.SourceRecord;
import dev.engram.reasoner.DeterministicReasoner;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.SourceFilter;
import dev.engram.spi.StoreCapability;
import dev.engram.spi.StoredVector;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * Migrations: a second opening of a store's storage (its migrations run again, over a schema already at
 * the newest version, with data in it) holds exactly what the first wrote — versions, events, revisions,
 * topic rows, vectors, retrieval keys and captured sources — and goes on from there: its next revision
 * follows the last, and the first opening sees it. Runs for stores whose TCK class can open their storage
 * a second time ({@link MemoryStoreTck#openAgain}); an in-memory store cannot.
 */
public abstract class ReopenContract extends ContractSupport {
  private static final Grants U1 = Grants.of(S1);
  private static final Instant T0 = Instant.parse("2024-05-08T10:00:00Z");

  /**
   * A second store over the storage of {@code store}, or null when there is no such thing.
   *
   * @param store an open store made by {@link #createStore()}
   * @return a second store over its storage, or null (the layer is then skipped)
   */
  protected abstract @Nullable MemoryStore openAgain(MemoryStore store);

  @Test
  void aSecondOpeningHoldsWhatTheFirstWroteAndGoesOnFromIt() {
    MemoryStore first = createStore();
    HashingEmbedder embedder = new HashingEmbedder();
    Engram e = newEngram(first, new DeterministicReasoner(), Fixtures.clocked(b -> b.embedder(embedder)));
    MemoryEntry kept = write(e, U1, "Prefers metric units for every workout log.", "preferences").entry();
    MemoryEntry corrected = e.correct(U1, kept.entryId(), "Prefers imperial units for every workout log.");
    MemoryEntry retired = write(e, U1, "Runs on Tuesdays.", "schedule").entry();
    e.retire(U1, retired.citation(), "moved to Thursdays");
    write(e, Grants.of(S2), "Likes green tea.", "food");
    boolean sources = first.capabilities().contains(StoreCapability.SOURCES);
    if (sources) {
      e.captureAll(U1, List.of(
          SourceRecord.of("s1", "Ana", "What is your favourite food these days?").at(T0).id("t1"),
          SourceRecord.of("s1", "Ben", "Sushi, always.").at(T0.plusSeconds(60)).id("t2")));
      e.flush(U1);
    }

    MemoryStore second = openAgain(first);
    assumeTrue(second != null, "the store's storage cannot be opened a second time");
    Engram again = newEngram(second, new DeterministicReasoner(), Fixtures.clocked(b -> b.embedder(embedder)));

    List<String> scopes = List.of(S1, S2);
    assertThat(StoreSnapshot.of(second, scopes)).isEqualTo(StoreSnapshot.of(first, scopes));
    List<String> versionIds = first.versionsIn(scopes, java.util.EnumSet.allOf(dev.engram.EntryStatus.class)).stream()
        .map(MemoryEntry::versionId).toList();
    assertThat(second.keysOf(versionIds)).isEqualTo(first.keysOf(versionIds));
    String profile = embedder.profile().id();
    for (String scope : scopes) {
      assertThat(vectors(second, scope, profile)).as("vectors of %s", scope).isEqualTo(vectors(first, scope, profile))
          .isNotEmpty();
      if (sources) {
        assertThat(captured(second, scope)).as("sources of %s", scope).isEqualTo(captured(first, scope));
        assertThat(second.sourceState(scope)).isEqualTo(first.sourceState(scope));
      }
    }
    if (sources) {
      assertThat(second.keysOf(versionIds)).as("the captured reply's key").isNotEmpty();
    }
    assertThat(again.get(U1, corrected.citation()).content()).isEqualTo("Prefers imperial units for every workout log.");

    long head = first.headRevision(S1);
    MemoryEntry later = write(again, U1, "Cycles to work in summer.", "schedule").entry();
    assertThat(later.createdInRevision()).isEqualTo(head + 1);
    assertThat(first.headRevision(S1)).isEqualTo(head + 1);
    assertThat(first.version(later.versionId())).contains(later);
  }

  /** The vectors of the active versions of {@code scope}, as text, by version and view. */
  private static Map<String, String> vectors(MemoryStore store, String scope, String profile) {
    Map<String, String> out = new TreeMap<>();
    for (StoredVector v : store.activeVectors(scope, profile)) {
      out.put(v.versionId() + " " + v.view(), Arrays.toString(v.vector()));
    }
    return out;
  }

  private static List<CapturedSource> captured(MemoryStore store, String scope) {
    return new ArrayList<>(store.sources(scope, SourceFilter.after(0, 1000)));
  }
}
