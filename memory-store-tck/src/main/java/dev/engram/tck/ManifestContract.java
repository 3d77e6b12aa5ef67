/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.Engram;
import dev.engram.EntryStatus;
import dev.engram.Grants;
import dev.engram.InvalidInputException;
import dev.engram.ListOptions;
import dev.engram.Manifest;
import dev.engram.ManifestItem;
import dev.engram.MemoryEntry;
import dev.engram.MemoryEvent;
import dev.engram.NotFoundException;
import dev.engram.WriteOptions;
import dev.engram.spi.CurateOp;
import dev.engram.test.ScriptedReasoner;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Manifests: replayed from the revision log, a scope's manifest at the head lists exactly what
 * {@code list} shows (each entry's current version, active or not), and at every earlier revision
 * exactly what {@code list} showed then.
 */
public abstract class ManifestContract extends ContractSupport {
  private static final String S1 = Fixtures.S1;
  private static final Grants U1 = Grants.of(S1);

  /** The manifest {@code list} implies right now: each entry's newest version and its state. */
  private static List<ManifestItem> fromList(Engram engram) {
    Map<String, MemoryEntry> newest = new TreeMap<>();
    for (MemoryEntry e : engram.list(U1, ListOptions.builder().scope(S1).includeSuperseded(true).build())) {
      newest.merge(e.entryId(), e, (a, b) -> a.version() >= b.version() ? a : b);
    }
    List<ManifestItem> out = new ArrayList<>();
    for (MemoryEntry e : newest.values()) {
      out.add(new ManifestItem(e.entryId(), e.versionId(), e.contentHash(), e.status() == EntryStatus.ACTIVE));
    }
    return out;
  }

  @Test
  void manifestMatchesListAtTheHeadAndAReplayAtEveryEarlierRevision() {
    ScriptedReasoner reasoner = new ScriptedReasoner();
    Engram engram = newEngram(reasoner, Fixtures.clocked());
    Map<Long, List<ManifestItem>> seen = new LinkedHashMap<>();
    Runnable snapshot = () -> seen.put(engram.revision(U1, S1), fromList(engram));
    snapshot.run();

    MemoryEntry a = write(engram, U1, "Alpha fact about the build.", "build").entry();
    snapshot.run();
    MemoryEntry b = write(engram, U1, "Beta fact about the build.", "build").entry();
    snapshot.run();
    MemoryEntry c = engram.write(U1, "Gamma fact at a path.",
        WriteOptions.builder().path("project://gamma").topicsHint("build").build()).entry();
    snapshot.run();
    MemoryEntry a2 = engram.correct(U1, a.entryId(), "Alpha fact about the build, corrected.");
    snapshot.run();
    engram.retire(U1, b.citation(), "obsolete");
    snapshot.run();
    engram.reactivate(U1, engram.get(U1, b.entryId()).citation(), "still true");
    snapshot.run();
    MemoryEvent created = engram.history(U1, a.entryId()).get(0);
    engram.rollback(U1, created.eventId());
    snapshot.run();
    engram.write(U1, "Gamma fact at a path, upserted.",
        WriteOptions.builder().path("project://gamma").topicsHint("build").build());
    snapshot.run();
    MemoryEntry d = write(engram, U1, "Delta fact that is merged away.", "build").entry();
    snapshot.run();
    reasoner.onCurate("build", new CurateOp.Merge(c.entryId(), List.of(d.entryId()), "Gamma and delta, merged."));
    engram.curate(U1);
    snapshot.run();
    MemoryEntry e = write(engram, U1, "Epsilon fact that is erased later.", "build").entry();
    snapshot.run();
    engram.deleteEntry(U1, e.entryId());
    snapshot.run();

    long head = engram.revision(U1, S1);
    assertThat(seen).containsKey(head);
    Manifest atHead = engram.manifest(U1, S1, head);
    assertThat(atHead.scope()).isEqualTo(S1);
    assertThat(atHead.revision()).isEqualTo(head);
    assertThat(atHead.items()).isEqualTo(fromList(engram)).isEqualTo(seen.get(head));
    assertThat(atHead.items()).filteredOn(i -> i.entryId().equals(d.entryId()))
        .singleElement().satisfies(i -> assertThat(i.active()).isFalse());
    assertThat(atHead.items()).extracting(ManifestItem::entryId).doesNotContain(e.entryId());
    assertThat(atHead.items()).filteredOn(i -> i.entryId().equals(a.entryId())).singleElement()
        .satisfies(i -> assertThat(i.versionId()).isNotEqualTo(a2.versionId()));

    for (Map.Entry<Long, List<ManifestItem>> at : seen.entrySet()) {
      List<ManifestItem> expected = at.getValue().stream().filter(i -> !i.entryId().equals(e.entryId()))
          .sorted(Comparator.comparing(ManifestItem::entryId)).toList();
      assertThat(engram.manifest(U1, S1, at.getKey()).items()).as("revision " + at.getKey()).isEqualTo(expected);
    }
    assertThat(engram.manifest(U1, S1, 0).items()).isEmpty();
  }

  @Test
  void manifestRefusesRevisionsBeyondTheHeadAndInvisibleScopes() {
    Engram engram = newEngram();
    write(engram, U1, "One fact.");
    assertThatThrownBy(() -> engram.manifest(U1, S1, 2)).isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("revision").hasMessageContaining("head 1");
    assertThatThrownBy(() -> engram.manifest(U1, S1, -1)).isInstanceOf(InvalidInputException.class);
    assertThatThrownBy(() -> engram.manifest(Grants.of(Fixtures.S2), S1, 1)).isInstanceOf(NotFoundException.class);
    assertThatThrownBy(() -> engram.manifest(U1, "bad scope", 1)).isInstanceOf(InvalidInputException.class);
  }
}
