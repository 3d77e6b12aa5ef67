/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.engram.ContextRequest;
import dev.engram.Engram;
import dev.engram.EntryStatus;
import dev.engram.FlushOptions;
import dev.engram.Grants;
import dev.engram.ImportOptions;
import dev.engram.MemoryEntry;
import dev.engram.SearchChannel;
import dev.engram.SearchHit;
import dev.engram.SearchMode;
import dev.engram.SearchRequest;
import dev.engram.SourceRecord;
import dev.engram.reasoner.DeterministicReasoner;
import dev.engram.spi.FullTextQuery;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.ScoredEntry;
import dev.engram.spi.StoreCapability;
import dev.engram.spi.TextAnalysis;
import dev.engram.test.HashingEmbedder;
import java.io.StringReader;
import java.io.StringWriter;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Retrieval keys ({@link StoreCapability#RETRIEVAL_KEYS}): extra texts of a version that search finds it
 * by, as arms of their own. Driven through the store SPI (stored with the version, their own full-text
 * index, never part of the content's, only active versions found, erased with the version, undone with a
 * failed transaction) and through the facade, with the captured-turn extraction of the deterministic
 * reasoner, whose turns carry a context key (the previous turn of the session plus the turn): a hit on a
 * key returns the entry once, the entry is erased completely (keys and their vectors included), reindex
 * rebuilds the keys' vectors, export and import carry the keys, and an entry found by more arms never
 * ranks below one found by fewer at equal ranks.
 */
public abstract class RetrievalKeysContract extends ContractSupport {
  private static final Grants U1 = Grants.of("app/user/u1");
  private static final String SCOPE = "app/user/u1";
  private static final Instant T0 = Instant.parse("2024-05-08T10:00:00Z");
  private static final String KEY_PROFILE = new HashingEmbedder().profile().id() + "#keys";

  private MemoryStore probe;

  @BeforeEach
  void requireKeys() {
    probe = createStore();
    boolean keeps = probe.capabilities().contains(StoreCapability.RETRIEVAL_KEYS);
    if (!keeps) {
      probe.close();
    }
    assumeTrue(keeps, "the store does not declare RETRIEVAL_KEYS");
  }

  private static FullTextQuery query(String text) {
    return new FullTextQuery(TextAnalysis.queryTerms(text, FullTextQuery.MAX_TERMS), Set.of(), Set.of(), null, null);
  }

  /** The food exchange: turn 2 ("Sushi, always.") is found by its key only, which holds turn 1's question. */
  private static List<SourceRecord> exchange() {
    return List.of(
        SourceRecord.of("s1", "Ana", "What is your favourite food these days?").at(T0).id("t1"),
        SourceRecord.of("s1", "Ben", "Sushi, always.").at(T0.plusSeconds(60)).id("t2"),
        SourceRecord.of("s2", "Ana", "The garden needs water on Tuesdays.").at(T0.plusSeconds(86_400)).id("t3"));
  }

  private static MemoryEntry byEvidence(Engram engram, String id) {
    return engram.list(U1).stream().filter(e -> e.evidence().contains(id)).findFirst().orElseThrow();
  }

  private Engram flushed(MemoryStore store, HashingEmbedder embedder) {
    Engram engram = newEngram(store, new DeterministicReasoner(), b -> embedder == null ? b : b.embedder(embedder));
    engram.captureAll(U1, exchange());
    engram.flush(U1);
    return engram;
  }

  // ---- the store SPI

  @Test
  void keysAreStoredWithTheVersionAndSearchedByTheirOwnIndexOnly() {
    Engram engram = flushed(probe, null);
    MemoryEntry reply = byEvidence(engram, "t2");
    MemoryEntry question = byEvidence(engram, "t1");
    Map<String, List<String>> keys = probe.keysOf(List.of(reply.versionId(), question.versionId(), "no-such-version"));
    // the first turn of a session has no previous turn, so no key
    assertThat(keys).containsOnlyKeys(reply.versionId());
    assertThat(keys.get(reply.versionId())).singleElement().asString()
        .contains("What is your favourite food these days?").endsWith("Ben: Sushi, always.");

    // the key's words find the reply through the key index only
    List<ScoredEntry> byKey = probe.searchKeys(List.of(SCOPE), query("favourite food"), 10);
    assertThat(byKey).extracting(s -> s.entry().versionId()).containsExactly(reply.versionId());
    assertThat(byKey.get(0).score()).isPositive();
    List<ScoredEntry> byContent = probe.searchFullText(List.of(SCOPE), query("favourite food"), 10);
    assertThat(byContent).extracting(s -> s.entry().versionId()).containsExactly(question.versionId());
    // words of no key find nothing in the key index, and scopes filter it
    assertThat(probe.searchKeys(List.of(SCOPE), query("garden water"), 10)).isEmpty();
    assertThat(probe.searchKeys(List.of("app/user/u2"), query("favourite food"), 10)).isEmpty();
  }

  @Test
  void theFirstTurnOfAWindowGetsTheTurnBeforeTheWindowInItsKey() {
    Engram engram = newEngram(probe, new DeterministicReasoner(), b -> b);
    engram.captureAll(U1, exchange());
    // one record per window: every turn is the first of its window
    engram.flush(U1, FlushOptions.builder().windowRecords(1).build());
    MemoryEntry reply = byEvidence(engram, "t2");
    assertThat(probe.keysOf(List.of(reply.versionId())).get(reply.versionId())).singleElement().asString()
        .startsWith("Ana: What is your favourite food these days?");
    // a turn of another session gets no key from the record before it
    MemoryEntry garden = byEvidence(engram, "t3");
    assertThat(probe.keysOf(List.of(garden.versionId()))).isEmpty();
  }

  @Test
  void aVersionKeepsItsKeysOnceAndATransactionThatFailsLeavesNone() {
    Engram engram = flushed(probe, null);
    MemoryEntry reply = byEvidence(engram, "t2");
    MemoryEntry garden = byEvidence(engram, "t3");
    assertThatThrownBy(() -> probe.inTransaction(SCOPE, tx -> {
      tx.putKeys(reply.versionId(), List.of("another key"));
      return null;
    })).isInstanceOf(IllegalStateException.class).hasMessageContaining(reply.versionId());
    assertThatThrownBy(() -> probe.inTransaction(SCOPE, tx -> {
      tx.putKeys(garden.versionId(), List.of("sprinkler schedule"));
      throw new IllegalStateException("the work fails after storing keys");
    })).hasMessageContaining("the work fails");
    assertThat(probe.keysOf(List.of(garden.versionId()))).isEmpty();
    assertThat(probe.searchKeys(List.of(SCOPE), query("sprinkler"), 10)).isEmpty();
    assertThatThrownBy(() -> probe.inTransaction("app/user/u2", tx -> {
      tx.putKeys(garden.versionId(), List.of("other scope"));
      return null;
    })).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void onlyActiveVersionsAreFoundByTheirKeys() {
    Engram engram = flushed(probe, null);
    MemoryEntry reply = byEvidence(engram, "t2");
    engram.retire(U1, reply.citation(), "no longer true");
    assertThat(probe.searchKeys(List.of(SCOPE), query("favourite food"), 10)).isEmpty();
    assertThat(probe.keysOf(List.of(reply.versionId()))).containsOnlyKeys(reply.versionId());
    engram.reactivate(U1, engram.get(U1, reply.entryId()).citation(), "true again");
    assertThat(probe.searchKeys(List.of(SCOPE), query("favourite food"), 10))
        .extracting(s -> s.entry().versionId()).containsExactly(reply.versionId());
  }

  // ---- the facade

  @Test
  void aHitOnAKeyReturnsTheEntryOnceInEveryMode() {
    HashingEmbedder embedder = new HashingEmbedder();
    Engram engram = flushed(probe, embedder);
    MemoryEntry reply = byEvidence(engram, "t2");
    for (SearchMode mode : SearchMode.values()) {
      List<SearchHit> hits = engram.search(U1, SearchRequest.builder("favourite food sushi").mode(mode).build()).hits();
      assertThat(hits).as(mode.name()).extracting(h -> h.entry().entryId()).doesNotHaveDuplicates();
      SearchHit hit = hits.stream().filter(h -> h.entry().entryId().equals(reply.entryId())).findFirst().orElseThrow();
      if (mode != SearchMode.VECTOR) {
        assertThat(hit.matchedBy()).as(mode.name()).contains(SearchChannel.FTS, SearchChannel.KEY_FTS);
      }
      if (mode != SearchMode.FTS) {
        assertThat(hit.matchedBy()).as(mode.name()).contains(SearchChannel.KEY_VECTOR);
      }
    }
    // found by its key alone: the reply says nothing of food
    SearchHit byKey = engram.search(U1, SearchRequest.builder("favourite food").mode(SearchMode.FTS).build()).hits()
        .stream().filter(h -> h.entry().entryId().equals(reply.entryId())).findFirst().orElseThrow();
    assertThat(byKey.matchedBy()).containsExactly(SearchChannel.KEY_FTS);
  }

  @Test
  void anEntryFoundByMoreArmsNeverRanksBelowOneFoundByFewerAtEqualRanks() {
    Engram engram = newEngram(probe, new DeterministicReasoner(), b -> b);
    // two turns equal for the content arm (same words, same length, same day); the older one, which loses
    // the content arm's tie, is also found by its key, the newer one has none (first of its session)
    engram.captureAll(U1, List.of(
        SourceRecord.of("s2", "Ana", "Nice weather today.").at(T0).id("b1"),
        SourceRecord.of("s2", "Ben", "Planning meeting at noon bravo.").at(T0.plusSeconds(60)).id("b2"),
        SourceRecord.of("s1", "Ben", "Planning meeting at noon alpha.").at(T0.plusSeconds(120)).id("a2")));
    engram.flush(U1);
    MemoryEntry withKeyMatch = byEvidence(engram, "b2");
    MemoryEntry contentOnly = byEvidence(engram, "a2");
    List<SearchHit> content = engram.search(U1, SearchRequest.builder("planning meeting").mode(SearchMode.FTS).build())
        .hits();
    assertThat(content).extracting(h -> h.entry().entryId()).containsExactlyInAnyOrder(withKeyMatch.entryId(),
        contentOnly.entryId());
    assertThat(content.get(0).entry().entryId()).isEqualTo(withKeyMatch.entryId());
    assertThat(content.get(0).matchedBy()).containsExactly(SearchChannel.FTS, SearchChannel.KEY_FTS);
    assertThat(content.get(1).matchedBy()).containsExactly(SearchChannel.FTS);
  }

  @Test
  void contextRendersAReplyFoundByItsKeyWithTheLineBeforeItWhenItFits() {
    Engram engram = flushed(probe, null);
    String roomy = engram.prepareContext(U1, ContextRequest.of("favourite food")).content();
    assertThat(roomy).contains("| (before) Ana: What is your favourite food these days?\n| Ben: Sushi, always.");
    // an item cap that holds the reply but not the line before it: the reply alone
    String tight = engram.prepareContext(U1, ContextRequest.builder("favourite food").candidates(20).maxItemBytes(64).build()).content();
    assertThat(tight).contains("| Ben: Sushi, always.").doesNotContain("(before)");
  }

  @Test
  void anErasedEntryLeavesNoKeyAndNoKeyVector() {
    HashingEmbedder embedder = new HashingEmbedder();
    Engram engram = flushed(probe, embedder);
    MemoryEntry reply = byEvidence(engram, "t2");
    assertThat(probe.activeVectors(SCOPE, KEY_PROFILE)).extracting(v -> v.versionId()).contains(reply.versionId());

    engram.deleteEntry(U1, reply.entryId());
    assertThat(probe.keysOf(List.of(reply.versionId()))).isEmpty();
    assertThat(probe.searchKeys(List.of(SCOPE), query("favourite food"), 10)).isEmpty();
    assertThat(probe.activeVectors(SCOPE, KEY_PROFILE)).noneMatch(v -> v.versionId().equals(reply.versionId()));
    assertThat(probe.vectorsOf(SCOPE, KEY_PROFILE, List.of(reply.versionId()))).isEmpty();
    assertThat(engram.search(U1, SearchRequest.builder("favourite food sushi").build()).hits())
        .noneMatch(h -> h.entry().entryId().equals(reply.entryId()));

    MemoryEntry question = byEvidence(engram, "t1");
    engram.deleteScope(U1, SCOPE);
    assertThat(probe.keysOf(List.of(question.versionId(), reply.versionId()))).isEmpty();
    assertThat(probe.searchKeys(List.of(SCOPE), query("favourite food sushi garden"), 10)).isEmpty();
    assertThat(probe.activeVectors(SCOPE, KEY_PROFILE)).isEmpty();
  }

  @Test
  void reindexRebuildsTheVectorsOfKeys() {
    HashingEmbedder embedder = new HashingEmbedder();
    embedder.failing(true);
    Engram engram = flushed(probe, embedder);
    embedder.failing(false);
    MemoryEntry reply = byEvidence(engram, "t2");
    // the write-time embedding failed: the keys are stored, their vectors are not
    assertThat(probe.keysOf(List.of(reply.versionId()))).containsOnlyKeys(reply.versionId());
    assertThat(probe.activeVectors(SCOPE, KEY_PROFILE)).isEmpty();

    assertThat(engram.operator().reindex(U1)).isGreaterThanOrEqualTo(4);
    assertThat(probe.activeVectors(SCOPE, KEY_PROFILE)).extracting(v -> v.versionId()).containsExactly(reply.versionId());
    SearchHit hit = engram.search(U1, SearchRequest.builder("favourite food").mode(SearchMode.VECTOR).build()).hits()
        .stream().filter(h -> h.entry().entryId().equals(reply.entryId())).findFirst().orElseThrow();
    assertThat(hit.matchedBy()).contains(SearchChannel.KEY_VECTOR);
  }

  @Test
  void exportAndImportCarryTheKeys() {
    Engram source = flushed(probe, null);
    MemoryEntry reply = byEvidence(source, "t2");
    StringWriter out = new StringWriter();
    source.operator().export(U1, out);
    assertThat(out.toString()).contains("\"record\":\"keys\"");

    MemoryStore target = createStore();
    Engram copy = newEngram(target, new DeterministicReasoner(), b -> b);
    copy.operator().importFrom(U1, new StringReader(out.toString()), ImportOptions.defaults());
    assertThat(target.keysOf(List.of(reply.versionId()))).isEqualTo(probe.keysOf(List.of(reply.versionId())));
    assertThat(target.searchKeys(List.of(SCOPE), query("favourite food"), 10))
        .extracting(s -> s.entry().versionId()).containsExactly(reply.versionId());
    assertThat(copy.get(U1, reply.entryId()).status()).isEqualTo(EntryStatus.ACTIVE);
  }
}
