/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.engram.CurateReport;
import dev.engram.CurationRunConflictException;
import dev.engram.Engram;
import dev.engram.EntryStatus;
import dev.engram.EventKind;
import dev.engram.Grants;
import dev.engram.InvalidInputException;
import dev.engram.ListOptions;
import dev.engram.MemoryEntry;
import dev.engram.MemoryEvent;
import dev.engram.NotFoundException;
import dev.engram.RevisionConflictException;
import dev.engram.spi.CurateOp;
import dev.engram.test.ScriptedReasoner;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * Undo of the most recent curation run: every op reverted as new versions, refused for an older run,
 * after a change to something the run touched, or twice.
 */
public abstract class UndoCurationContract extends ContractSupport {
  private static final String S1 = Fixtures.S1;
  private static final Grants U1 = Grants.of(S1);

  /** entryId → content hash of every active entry. */
  private static Map<String, String> active(Engram engram) {
    Map<String, String> out = new TreeMap<>();
    for (MemoryEntry e : engram.list(U1, ListOptions.builder().scope(S1).build())) {
      out.put(e.entryId(), e.contentHash());
    }
    return out;
  }

  @Test
  void undoRevertsEveryOpOfTheRunAsNewVersions() {
    ScriptedReasoner reasoner = new ScriptedReasoner();
    Engram engram = newEngram(reasoner, Fixtures.clocked());
    MemoryEntry a = write(engram, U1, "Alpha: the build uses Maven.", "build").entry();
    MemoryEntry b = write(engram, U1, "Beta: an obsolete build note.", "build").entry();
    MemoryEntry c = write(engram, U1, "Gamma: tests run with JUnit 5.", "build").entry();
    MemoryEntry d = write(engram, U1, "Gamma again: JUnit 5 runs the tests.", "build").entry();
    MemoryEntry e = write(engram, U1, "Epsilon: CI runs on two cores.", "build").entry();
    MemoryEntry f = write(engram, U1, "Phi: CI has ten minutes.", "build").entry();
    Map<String, String> beforeRun = active(engram);
    reasoner.onCurate("build",
        new CurateOp.Rewrite(a.entryId(), "Alpha: the build uses Maven 3.9.", "sharper"),
        new CurateOp.Retire(b.entryId(), "obsolete"),
        new CurateOp.Merge(c.entryId(), List.of(d.entryId()), "Gamma again: JUnit 5 runs the tests."),
        new CurateOp.Compact(List.of(e.entryId(), f.entryId()), "CI: two cores, ten minutes."));
    CurateReport report = engram.curate(U1);
    assertThat(report.applied()).hasSize(4);
    assertThat(report.rejected()).isEmpty();
    assertThat(report.runId()).isNotNull();
    assertThat(report.topicsRemainDirty()).isFalse();
    assertThat(active(engram)).isNotEqualTo(beforeRun);
    long afterRun = engram.revision(U1, S1);

    List<MemoryEntry> undone = engram.undoCuration(U1, report.runId());
    assertThat(undone).isNotEmpty();
    assertThat(engram.revision(U1, S1)).isEqualTo(afterRun + 1);
    Map<String, String> afterUndo = active(engram);
    assertThat(afterUndo).isEqualTo(beforeRun);

    MemoryEntry a3 = engram.get(U1, a.entryId());
    assertThat(a3.version()).isEqualTo(3);
    assertThat(a3.content()).isEqualTo(a.content());
    assertThat(engram.history(U1, a.entryId())).extracting(MemoryEvent::kind)
        .containsExactly(EventKind.CREATE, EventKind.UPDATE, EventKind.ROLLBACK);
    assertThat(engram.history(U1, d.entryId())).extracting(MemoryEvent::kind)
        .containsExactly(EventKind.CREATE, EventKind.MERGE, EventKind.ROLLBACK);
    assertThat(engram.get(U1, b.entryId()).status()).isEqualTo(EntryStatus.ACTIVE);
    assertThat(engram.list(U1, ListOptions.builder().scope(S1).includeRetired(true).build()))
        .filteredOn(x -> x.status() == EntryStatus.RETIRED).singleElement()
        .satisfies(x -> assertThat(x.content()).isEqualTo("CI: two cores, ten minutes."));

    RevisionConflictException twice = catchThrowableOfType(
        CurationRunConflictException.class, () -> engram.undoCuration(U1, report.runId()));
    assertThat(twice).hasMessageContaining("changed at revision");
    assertThat(active(engram)).isEqualTo(afterUndo);
  }

  @Test
  void onlyTheMostRecentRunCanBeUndone() {
    ScriptedReasoner reasoner = new ScriptedReasoner();
    Engram engram = newEngram(reasoner, b -> b);
    MemoryEntry a = write(engram, U1, "Alpha fact one.", "alpha").entry();
    reasoner.onCurate("alpha", new CurateOp.Rewrite(a.entryId(), "Alpha fact one, rewritten.", null));
    CurateReport first = engram.curate(U1);
    MemoryEntry b = write(engram, U1, "Beta fact one.", "beta").entry();
    reasoner.onCurate("beta", new CurateOp.Rewrite(b.entryId(), "Beta fact one, rewritten.", null));
    CurateReport second = engram.curate(U1);
    long head = engram.revision(U1, S1);

    CurationRunConflictException older = catchThrowableOfType(
        CurationRunConflictException.class, () -> engram.undoCuration(U1, first.runId()));
    assertThat(older.runId()).isEqualTo(first.runId());
    assertThat(older.scope()).isEqualTo(S1);
    assertThat(older).hasMessageContaining("most recent");
    assertThat(engram.revision(U1, S1)).isEqualTo(head);

    engram.undoCuration(U1, second.runId());
    assertThat(engram.get(U1, b.entryId()).content()).isEqualTo("Beta fact one.");
    assertThat(engram.get(U1, a.entryId()).content()).isEqualTo("Alpha fact one, rewritten.");
  }

  @Test
  void aChangeToATouchedEntryBlocksTheUndoAndOtherWritesDoNot() {
    ScriptedReasoner reasoner = new ScriptedReasoner();
    Engram engram = newEngram(reasoner, b -> b);
    MemoryEntry a = write(engram, U1, "Alpha fact.", "alpha").entry();
    MemoryEntry b = write(engram, U1, "Beta fact.", "alpha").entry();
    reasoner.onCurate("alpha", new CurateOp.Rewrite(a.entryId(), "Alpha fact, rewritten.", null),
        new CurateOp.Rewrite(b.entryId(), "Beta fact, rewritten.", null));
    CurateReport run = engram.curate(U1);
    reasoner.onCurate(r -> List.of());
    write(engram, U1, "An unrelated later fact.", "other");
    engram.correct(U1, b.entryId(), "Beta fact, corrected by hand.");
    long head = engram.revision(U1, S1);

    assertThat(catchThrowableOfType(CurationRunConflictException.class, () -> engram.undoCuration(U1, run.runId())))
        .hasMessageContaining(b.entryId()).hasMessageContaining("changed");
    assertThat(engram.revision(U1, S1)).isEqualTo(head);
    assertThat(engram.get(U1, a.entryId()).content()).isEqualTo("Alpha fact, rewritten.");
  }

  @Test
  void unrelatedWritesAfterTheRunDoNotBlockIt() {
    ScriptedReasoner reasoner = new ScriptedReasoner();
    Engram engram = newEngram(reasoner, b -> b);
    MemoryEntry a = write(engram, U1, "Alpha fact.", "alpha").entry();
    reasoner.onCurate("alpha", new CurateOp.Retire(a.entryId(), "stale"));
    CurateReport run = engram.curate(U1);
    reasoner.onCurate(r -> List.of());
    write(engram, U1, "An unrelated later fact.", "other");
    assertThat(engram.undoCuration(U1, run.runId())).singleElement()
        .satisfies(x -> assertThat(x.status()).isEqualTo(EntryStatus.ACTIVE));
  }

  @Test
  void badRunIdsAndGrantsAreRefused() {
    ScriptedReasoner reasoner = new ScriptedReasoner();
    Engram engram = newEngram(reasoner, b -> b);
    MemoryEntry a = write(engram, U1, "Alpha fact.", "alpha").entry();
    reasoner.onCurate("alpha", new CurateOp.Retire(a.entryId(), "stale"));
    CurateReport run = engram.curate(U1);
    for (String bad : new String[] {"", "run1.", "run1.!!!", "nope", "run1." + "A".repeat(10)}) {
      assertThatThrownBy(() -> engram.undoCuration(U1, bad)).as(bad).isInstanceOf(InvalidInputException.class)
          .hasMessageContaining("runId");
    }
    assertThatThrownBy(() -> engram.undoCuration(U1, null)).isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> engram.undoCuration(Grants.of(Fixtures.S2), run.runId()))
        .isInstanceOf(NotFoundException.class);
    assertThat(engram.get(U1, a.entryId()).status()).isEqualTo(EntryStatus.RETIRED);
    CurateReport nothing = engram.curate(U1);
    assertThat(nothing.runId()).as("a run that changed nothing has nothing to undo").isNull();
  }
}
