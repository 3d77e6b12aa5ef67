/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.tck;

import static dev.engram.tck.Fixtures.S1;
import static dev.engram.tck.Fixtures.S2;
import static dev.engram.tck.Fixtures.clocked;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.engram.Change;
import dev.engram.ChangeKind;
import dev.engram.ChangeOptions;
import dev.engram.Citation;
import dev.engram.Engram;
import dev.engram.EngramBuilder;
import dev.engram.EntryStateException;
import dev.engram.EntryStatus;
import dev.engram.EntryType;
import dev.engram.ErrorCode;
import dev.engram.EventKind;
import dev.engram.Grants;
import dev.engram.InvalidInputException;
import dev.engram.MemoryEntry;
import dev.engram.MemoryEvent;
import dev.engram.NotFoundException;
import dev.engram.PriorityCapExceededException;
import dev.engram.Revision;
import dev.engram.RevisionConflictException;
import dev.engram.StoreException;
import dev.engram.WriteOptions;
import dev.engram.WriteResult;
import dev.engram.WriteResult.Outcome;
import dev.engram.reasoner.DeterministicReasoner;
import dev.engram.spi.MemoryStore;
import dev.engram.tck.FaultInjectingStore.Step;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * Layer 2: corrections make new versions, retire / reactivate by exact citation, history with
 * snapshots, rollback, the revision log and its change sets, optimistic concurrency, immutable
 * versions (invariant 4) and atomic mutations (invariant 3). One layer, the version chain: its cases are
 * many because every operation that moves a chain is checked for what it leaves behind.
 */
public abstract class VersionsContract extends ContractSupport {
  private static final Grants U1 = Grants.of(S1);
  private static final Grants U2 = Grants.of(S2);

  private Engram engram() {
    return newEngram(new DeterministicReasoner(), clocked());
  }

  private Engram engram(UnaryOperator<EngramBuilder> settings) {
    return newEngram(new DeterministicReasoner(), clocked(settings));
  }

  private static MemoryEntry richEntry(Engram e) {
    return e.write(U1, "Deploys happen on Tuesdays", WriteOptions.builder()
        .topicsHint("ops", "release")
        .type(EntryType.CONSTRAINT)
        .priority(3)
        .disclosure("When planning a release")
        .glossary("deploy day")
        .path("ops/deploy-day")
        .source("agent:ops")
        .evidence("src:chat/1")
        .build()).entry();
  }

  private static MemoryEvent event(Engram e, MemoryEntry m, EventKind kind) {
    return e.history(U1, m.entryId()).stream().filter(ev -> ev.kind() == kind).reduce((a, b) -> b).orElseThrow();
  }

  // ---- correct

  @Test
  void correctionMakesANewVersionThatInheritsTheEntry() {
    Engram e = engram();
    MemoryEntry v1 = richEntry(e);
    MemoryEntry v2 = e.correct(U1, v1.entryId(), "Deploys happen on Wednesdays",
        ChangeOptions.builder().reason("team moved the slot").source("agent:fixer").build());

    assertThat(v2.entryId()).isEqualTo(v1.entryId());
    assertThat(v2.versionId()).isNotEqualTo(v1.versionId());
    assertThat(v2.version()).isEqualTo(2);
    assertThat(v2.previousVersionId()).isEqualTo(v1.versionId());
    assertThat(v2.content()).isEqualTo("Deploys happen on Wednesdays");
    assertThat(v2.status()).isEqualTo(EntryStatus.ACTIVE);
    assertThat(v2.scope()).isEqualTo(v1.scope());
    assertThat(v2.topics()).isEqualTo(v1.topics());
    assertThat(v2.type()).isEqualTo(v1.type());
    assertThat(v2.priority()).isEqualTo(v1.priority());
    assertThat(v2.disclosure()).isEqualTo(v1.disclosure());
    assertThat(v2.glossary()).isEqualTo(v1.glossary());
    assertThat(v2.path()).isEqualTo(v1.path());
    assertThat(v2.evidence()).isEqualTo(v1.evidence());
    assertThat(v2.source()).isEqualTo("agent:fixer");
    assertThat(v2.createdAt()).isEqualTo(v1.createdAt());
    assertThat(v2.updatedAt()).isAfter(v1.updatedAt());
    assertThat(v2.createdInRevision()).isEqualTo(2);

    MemoryEntry old = e.get(U1, v1.citation());
    assertThat(old.status()).isEqualTo(EntryStatus.SUPERSEDED);
    assertThat(old.supersededBy()).isEqualTo(v2.versionId());
    assertThat(e.get(U1, v1.entryId())).isEqualTo(v2);
    assertThat(e.list(U1)).containsExactly(v2);
  }

  @Test
  void correctionWithCanonicallyEqualContentIsANoOp() {
    Engram e = engram();
    MemoryEntry v1 = richEntry(e);
    MemoryEntry same = e.correct(U1, v1.entryId(), "  Deploys   happen\non Tuesdays ");

    assertThat(same).isEqualTo(v1);
    assertThat(e.revision(U1, S1)).isEqualTo(1);
    assertThat(e.history(U1, v1.entryId())).hasSize(1);
    assertThat(everything(e, U1)).containsExactly(v1);
  }

  @Test
  void onlyActiveEntriesCanBeCorrected() {
    Engram e = engram();
    MemoryEntry v1 = richEntry(e);
    e.retire(U1, v1.citation(), "obsolete");

    assertThatThrownBy(() -> e.correct(U1, v1.entryId(), "Deploys happen on Fridays"))
        .isInstanceOf(EntryStateException.class)
        .hasMessageContaining(v1.entryId());
    assertThatThrownBy(() -> e.correct(U1, "unknown-entry", "Anything")).isInstanceOf(NotFoundException.class);
    assertThat(e.revision(U1, S1)).isEqualTo(2);
  }

  // ---- retire / reactivate

  @Test
  void retireDeactivatesTheCitedVersionAndRecordsTheReason() {
    Engram e = engram();
    MemoryEntry v1 = richEntry(e);
    MemoryEntry retired = e.retire(U1, v1.citation(), ChangeOptions.builder().reason("process changed").source("agent:ops").build());

    assertThat(retired.status()).isEqualTo(EntryStatus.RETIRED);
    assertThat(retired.versionId()).isEqualTo(v1.versionId());
    assertThat(retired.version()).isEqualTo(1);
    assertThat(retired.content()).isEqualTo(v1.content());
    assertThat(retired.supersededBy()).isNull();
    assertThat(e.read(U1, "ops")).isEmpty();
    assertThat(e.list(U1)).isEmpty();
    assertThat(e.get(U1, v1.citation())).isEqualTo(retired);

    MemoryEvent ev = event(e, v1, EventKind.RETIRE);
    assertThat(ev.reason()).isEqualTo("process changed");
    assertThat(ev.actor()).isEqualTo("agent:ops");
    assertThat(ev.revision()).isEqualTo(2);
    assertThat(ev.before()).isEqualTo(v1);
    assertThat(ev.after()).isEqualTo(retired);
  }

  @Test
  void retireWithAStaleCitationConflicts() {
    Engram e = engram();
    MemoryEntry v1 = richEntry(e);
    MemoryEntry v2 = e.correct(U1, v1.entryId(), "Deploys happen on Thursdays");

    assertThatThrownBy(() -> e.retire(U1, v1.citation(), "stale"))
        .isInstanceOfSatisfying(RevisionConflictException.class, x -> {
          assertThat(x.code()).isEqualTo(ErrorCode.REVISION_CONFLICT);
          assertThat(x.scope()).isEqualTo(S1);
          assertThat(x.expectedRevision()).isNull();
          assertThat(x.actualRevision()).isEqualTo(2);
        });
    assertThat(e.get(U1, v1.entryId())).isEqualTo(v2);
    assertThat(e.revision(U1, S1)).isEqualTo(2);
  }

  @Test
  void retireAndReactivateRequireTheRightState() {
    Engram e = engram();
    MemoryEntry v1 = richEntry(e);
    assertThatThrownBy(() -> e.reactivate(U1, v1.citation(), "is active"))
        .isInstanceOf(EntryStateException.class);

    MemoryEntry retired = e.retire(U1, v1.citation(), "first");
    assertThatThrownBy(() -> e.retire(U1, v1.citation(), "second"))
        .isInstanceOf(EntryStateException.class)
        .extracting(t -> ((EntryStateException) t).code()).isEqualTo(ErrorCode.ENTRY_STATE);
    assertThat(e.get(U1, v1.entryId())).isEqualTo(retired);
    assertThat(e.revision(U1, S1)).isEqualTo(2);
    assertThat(e.history(U1, v1.entryId())).hasSize(2);

    Citation wrongScope = new Citation(S2, v1.entryId(), v1.versionId(), v1.createdInRevision());
    assertThatThrownBy(() -> e.retire(Grants.of(S1, S2), wrongScope, "elsewhere")).isInstanceOf(NotFoundException.class);
  }

  @Test
  void reactivateMakesTheRetiredVersionActiveAgain() {
    Engram e = engram();
    MemoryEntry v1 = richEntry(e);
    e.retire(U1, v1.citation(), "paused");
    MemoryEntry back = e.reactivate(U1, v1.citation(), ChangeOptions.reason("resumed"));

    assertThat(back.status()).isEqualTo(EntryStatus.ACTIVE);
    assertThat(back.versionId()).isEqualTo(v1.versionId());
    assertThat(back.content()).isEqualTo(v1.content());
    assertThat(e.read(U1, "ops")).containsExactly(back);
    MemoryEvent ev = event(e, v1, EventKind.REACTIVATE);
    assertThat(ev.reason()).isEqualTo("resumed");
    assertThat(ev.before().status()).isEqualTo(EntryStatus.RETIRED);
    assertThat(ev.after()).isEqualTo(back);
    assertThat(e.revision(U1, S1)).isEqualTo(3);
  }

  @Test
  void reactivateFailsWhenAnotherEntryNowHoldsThePath() {
    Engram e = engram();
    WriteOptions at = WriteOptions.builder().path("profile/city").build();
    MemoryEntry old = e.write(U1, "Lives in Oslo", at).entry();
    e.retire(U1, old.citation(), "moved");
    MemoryEntry current = e.write(U1, "Lives in Bergen", at).entry();
    assertThat(current.entryId()).isNotEqualTo(old.entryId());

    long head = e.revision(U1, S1);
    assertThatThrownBy(() -> e.reactivate(U1, old.citation(), "moved back"))
        .isInstanceOf(EntryStateException.class)
        .hasMessageContaining("profile/city");
    assertThat(e.get(U1, old.entryId()).status()).isEqualTo(EntryStatus.RETIRED);
    assertThat(e.list(U1)).containsExactly(current);
    assertThat(e.revision(U1, S1)).isEqualTo(head);
  }

  // ---- history

  @Test
  void historyRecordsEveryChangeInOrderWithSnapshotsActorsAndReasons() {
    Engram e = engram();
    MemoryEntry v1 = e.write(U1, "Uses Postgres 14", WriteOptions.builder().source("agent:a").build()).entry();
    MemoryEntry v2 = e.correct(U1, v1.entryId(), "Uses Postgres 16",
        ChangeOptions.builder().reason("upgraded").source("agent:b").build());
    MemoryEntry retired = e.retire(U1, v2.citation(), ChangeOptions.builder().reason("moved to sqlite").source("agent:c").build());
    MemoryEntry back = e.reactivate(U1, v2.citation(), ChangeOptions.builder().reason("moved back").source("agent:d").build());

    List<MemoryEvent> history = e.history(U1, v1.entryId());
    assertThat(history).extracting(MemoryEvent::kind)
        .containsExactly(EventKind.CREATE, EventKind.UPDATE, EventKind.RETIRE, EventKind.REACTIVATE);
    assertThat(history).extracting(MemoryEvent::revision).containsExactly(1L, 2L, 3L, 4L);
    assertThat(history).extracting(MemoryEvent::actor).containsExactly("agent:a", "agent:b", "agent:c", "agent:d");
    assertThat(history).extracting(MemoryEvent::reason).containsExactly(null, "upgraded", "moved to sqlite", "moved back");
    assertThat(history).extracting(MemoryEvent::eventId).doesNotHaveDuplicates();
    assertThat(history).allSatisfy(ev -> {
      assertThat(ev.scope()).isEqualTo(S1);
      assertThat(ev.entryId()).isEqualTo(v1.entryId());
    });

    assertThat(history.get(0).before()).isNull();
    assertThat(history.get(0).after()).isEqualTo(v1);
    assertThat(history.get(0).at()).isEqualTo(v1.createdAt());
    assertThat(history.get(1).before()).isEqualTo(v1);
    assertThat(history.get(1).after()).isEqualTo(v2);
    assertThat(history.get(2).before()).isEqualTo(v2);
    assertThat(history.get(2).after()).isEqualTo(retired);
    assertThat(history.get(3).before()).isEqualTo(retired);
    assertThat(history.get(3).after()).isEqualTo(back);
  }

  @Test
  void historyIsReadableForEveryStatusAndUnknownEntriesAreNotFound() {
    Engram e = engram();
    MemoryEntry v1 = write(e, U1, "Temporary fact").entry();
    e.retire(U1, v1.citation(), "done");
    assertThat(e.history(U1, v1.entryId())).extracting(MemoryEvent::kind)
        .containsExactly(EventKind.CREATE, EventKind.RETIRE);
    assertThatThrownBy(() -> e.history(U1, "missing-entry")).isInstanceOf(NotFoundException.class);
  }

  // ---- rollback

  @Test
  void rollbackRestoresContentPriorityDisclosureAndGlossaryAsANewVersion() {
    Engram e = engram();
    MemoryEntry v1 = richEntry(e);
    MemoryEntry v2 = e.write(U1, "Deploys happen daily", WriteOptions.builder()
        .topicsHint("ops", "release")
        .type(EntryType.CONSTRAINT)
        .priority(4)
        .disclosure("When anyone says ship")
        .glossary("ship it")
        .path("ops/deploy-day")
        .build()).entry();
    assertThat(v2.version()).isEqualTo(2);

    MemoryEvent create = event(e, v1, EventKind.CREATE);
    MemoryEntry v3 = e.rollback(U1, create.eventId(), ChangeOptions.builder().reason("daily was a mistake").source("agent:r").build());

    assertThat(v3.entryId()).isEqualTo(v1.entryId());
    assertThat(v3.version()).isEqualTo(3);
    assertThat(v3.versionId()).isNotIn(v1.versionId(), v2.versionId());
    assertThat(v3.previousVersionId()).isEqualTo(v2.versionId());
    assertThat(v3.content()).isEqualTo(v1.content());
    assertThat(v3.contentHash()).isEqualTo(v1.contentHash());
    assertThat(v3.priority()).isEqualTo(3);
    assertThat(v3.disclosure()).isEqualTo("When planning a release");
    assertThat(v3.glossary()).containsExactly("deploy day");
    assertThat(v3.status()).isEqualTo(EntryStatus.ACTIVE);
    assertThat(v3.createdInRevision()).isEqualTo(3);

    assertThat(e.get(U1, v2.citation()).status()).isEqualTo(EntryStatus.SUPERSEDED);
    assertThat(e.get(U1, v2.citation()).supersededBy()).isEqualTo(v3.versionId());
    assertThat(e.get(U1, v1.citation()).content()).isEqualTo(v1.content());

    MemoryEvent rb = event(e, v1, EventKind.ROLLBACK);
    assertThat(rb.before()).isEqualTo(v2);
    assertThat(rb.after()).isEqualTo(v3);
    assertThat(rb.actor()).isEqualTo("agent:r");
    assertThat(rb.reason()).isEqualTo("daily was a mistake");
    assertThat(e.history(U1, v1.entryId())).hasSize(3);
  }

  @Test
  void rollbackToTheCurrentStateIsANoOpAndRollbackEventsAreRestorable() {
    Engram e = engram();
    MemoryEntry v1 = write(e, U1, "Plan A").entry();
    MemoryEntry v2 = e.correct(U1, v1.entryId(), "Plan B");

    MemoryEntry same = e.rollback(U1, event(e, v1, EventKind.UPDATE).eventId());
    assertThat(same).isEqualTo(v2);
    assertThat(e.revision(U1, S1)).isEqualTo(2);

    MemoryEntry v3 = e.rollback(U1, event(e, v1, EventKind.CREATE).eventId());
    assertThat(v3.content()).isEqualTo("Plan A");
    MemoryEntry v4 = e.correct(U1, v1.entryId(), "Plan C");
    MemoryEntry v5 = e.rollback(U1, event(e, v1, EventKind.ROLLBACK).eventId());
    assertThat(v5.content()).isEqualTo("Plan A");
    assertThat(v5.version()).isEqualTo(5);
    assertThat(v5.previousVersionId()).isEqualTo(v4.versionId());
    assertThat(e.history(U1, v1.entryId())).extracting(MemoryEvent::kind).containsExactly(
        EventKind.CREATE, EventKind.UPDATE, EventKind.ROLLBACK, EventKind.UPDATE, EventKind.ROLLBACK);
  }

  @Test
  void retireAndReactivateEventsCannotBeRolledBackTo() {
    Engram e = engram();
    MemoryEntry v1 = write(e, U1, "Rollback target").entry();
    e.retire(U1, v1.citation(), "retired");
    e.reactivate(U1, v1.citation(), "back");
    long head = e.revision(U1, S1);
    List<MemoryEntry> versions = everything(e, U1);

    assertThatThrownBy(() -> e.rollback(U1, event(e, v1, EventKind.RETIRE).eventId()))
        .isInstanceOf(EntryStateException.class)
        .hasMessageContaining("RETIRE");
    assertThatThrownBy(() -> e.rollback(U1, event(e, v1, EventKind.REACTIVATE).eventId()))
        .isInstanceOf(EntryStateException.class);
    assertThatThrownBy(() -> e.rollback(U1, "no-such-event")).isInstanceOf(NotFoundException.class);
    assertThat(e.revision(U1, S1)).isEqualTo(head);
    assertThat(everything(e, U1)).isEqualTo(versions);
  }

  @Test
  void rollbackThatWouldExceedAPriorityCapChangesNothing() {
    MemoryStore store = createStore();
    Engram e = newEngram(store, new DeterministicReasoner(), clocked(b -> b.priorityCaps(1, 15)));
    WriteOptions.Builder at = WriteOptions.builder().path("profile/role");
    MemoryEntry v1 = e.write(U1, "Role is staff engineer", at.priority(0).build()).entry();
    e.write(U1, "Role is principal engineer", at.priority(2).build());
    e.write(U1, "Another core fact", WriteOptions.builder().priority(0).build());
    StoreSnapshot before = StoreSnapshot.of(store, List.of(S1));

    assertThatThrownBy(() -> e.rollback(U1, event(e, v1, EventKind.CREATE).eventId()))
        .isInstanceOf(PriorityCapExceededException.class);
    assertThat(StoreSnapshot.of(store, List.of(S1))).isEqualTo(before);
  }

  // ---- revisions and change sets

  @Test
  void everyEffectiveChangeMakesExactlyOneGapFreeRevisionWithItsChangeSet() {
    Engram e = engram();
    WriteOptions at = WriteOptions.builder().path("notes/a").build();
    MemoryEntry a1 = e.write(U1, "A version one", at).entry();
    assertThat(e.write(U1, "A version one", at).outcome()).isEqualTo(Outcome.DEDUPED);
    MemoryEntry b1 = write(e, U1, "B version one").entry();
    assertThat(write(e, U1, "B  version one").outcome()).isEqualTo(Outcome.DEDUPED);
    MemoryEntry a2 = e.correct(U1, a1.entryId(), "A version two");
    assertThat(e.correct(U1, a1.entryId(), "A version two")).isEqualTo(a2);
    e.retire(U1, b1.citation(), "pause");
    e.reactivate(U1, b1.citation(), "resume");
    MemoryEntry a3 = e.write(U1, "A version three", at).entry();
    MemoryEntry a4 = e.rollback(U1, event(e, a1, EventKind.CREATE).eventId());
    assertThat(e.rollback(U1, event(e, a1, EventKind.CREATE).eventId())).isEqualTo(a4);

    List<Revision> log = e.changes(U1, S1, 0);
    assertThat(log).extracting(Revision::revision).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L);
    assertThat(log).allSatisfy(r -> assertThat(r.scope()).isEqualTo(S1));
    assertThat(e.revision(U1, S1)).isEqualTo(7);
    assertThat(log.get(0).changes()).containsExactly(new Change(ChangeKind.APPEND, a1.entryId(), a1.versionId()));
    assertThat(log.get(1).changes()).containsExactly(new Change(ChangeKind.APPEND, b1.entryId(), b1.versionId()));
    assertThat(log.get(2).changes()).containsExactlyInAnyOrder(
        new Change(ChangeKind.UPDATE, a1.entryId(), a2.versionId()),
        new Change(ChangeKind.SUPERSEDE, a1.entryId(), a1.versionId()));
    assertThat(log.get(3).changes()).containsExactly(new Change(ChangeKind.RETIRE, b1.entryId(), b1.versionId()));
    assertThat(log.get(4).changes()).containsExactly(new Change(ChangeKind.REACTIVATE, b1.entryId(), b1.versionId()));
    assertThat(log.get(5).changes()).containsExactlyInAnyOrder(
        new Change(ChangeKind.UPDATE, a1.entryId(), a3.versionId()),
        new Change(ChangeKind.SUPERSEDE, a1.entryId(), a2.versionId()));
    assertThat(log.get(6).changes()).containsExactlyInAnyOrder(
        new Change(ChangeKind.ROLLBACK, a1.entryId(), a4.versionId()),
        new Change(ChangeKind.SUPERSEDE, a1.entryId(), a3.versionId()));

    List<Long> eventRevisions = new ArrayList<>();
    e.history(U1, a1.entryId()).forEach(ev -> eventRevisions.add(ev.revision()));
    e.history(U1, b1.entryId()).forEach(ev -> eventRevisions.add(ev.revision()));
    assertThat(eventRevisions).containsExactlyInAnyOrder(1L, 2L, 3L, 4L, 5L, 6L, 7L);
  }

  @Test
  void changesSinceARevisionReturnOnlyLaterRevisions() {
    Engram e = engram();
    for (int i = 0; i < 5; i++) {
      write(e, U1, "Change " + i);
    }
    assertThat(e.changes(U1, S1, 2)).extracting(Revision::revision).containsExactly(3L, 4L, 5L);
    assertThat(e.changes(U1, S1, 5)).isEmpty();
    assertThat(e.changes(U1, S1, 50)).isEmpty();
    assertThat(e.changes(U1, S1, 0)).hasSize(5);
    assertThat(e.changes(U1, S1, 0)).allSatisfy(r -> assertThat(r.at()).isNotNull());
    assertThatThrownBy(() -> e.changes(U1, S1, -1)).isInstanceOf(InvalidInputException.class);
  }

  @Test
  void revisionsAreCountedPerScope() {
    Engram e = engram();
    write(e, U1, "u1 first");
    write(e, U1, "u1 second");
    MemoryEntry other = write(e, U2, "u2 first").entry();

    assertThat(other.createdInRevision()).isEqualTo(1);
    assertThat(e.revision(U1, S1)).isEqualTo(2);
    assertThat(e.revision(U2, S2)).isEqualTo(1);
    assertThat(e.revision(U1, "app/user")).isZero();
    assertThat(e.changes(U1, "app", 0)).isEmpty();
    assertThat(e.changes(U2, S2, 0)).singleElement()
        .satisfies(r -> assertThat(r.changes()).extracting(Change::entryId).containsExactly(other.entryId()));
  }

  // ---- optimistic concurrency

  @Test
  void writeWithAStaleExpectedRevisionConflictsAndStoresNothing() {
    Engram e = engram();
    assertThat(e.write(U1, "First", WriteOptions.builder().expectedRevision(0).build()).revision()).isEqualTo(1);

    assertThatThrownBy(() -> e.write(U1, "Second", WriteOptions.builder().expectedRevision(0).build()))
        .isInstanceOfSatisfying(RevisionConflictException.class, x -> {
          assertThat(x.scope()).isEqualTo(S1);
          assertThat(x.expectedRevision()).isEqualTo(0L);
          assertThat(x.actualRevision()).isEqualTo(1);
        });
    assertThat(e.list(U1)).extracting(MemoryEntry::content).containsExactly("First");
    assertThat(e.revision(U1, S1)).isEqualTo(1);

    WriteResult ok = e.write(U1, "Second", WriteOptions.builder().expectedRevision(1).build());
    assertThat(ok.outcome()).isEqualTo(Outcome.APPENDED);
    assertThat(ok.revision()).isEqualTo(2);
  }

  @Test
  void changesWithAStaleExpectedRevisionConflict() {
    Engram e = engram();
    MemoryEntry v1 = write(e, U1, "Original").entry();
    write(e, U1, "Unrelated");

    assertThatThrownBy(() -> e.correct(U1, v1.entryId(), "Corrected", ChangeOptions.expectedRevision(1)))
        .isInstanceOfSatisfying(RevisionConflictException.class, x -> {
          assertThat(x.expectedRevision()).isEqualTo(1L);
          assertThat(x.actualRevision()).isEqualTo(2);
        });
    assertThatThrownBy(() -> e.retire(U1, v1.citation(), ChangeOptions.expectedRevision(3)))
        .isInstanceOf(RevisionConflictException.class);
    assertThat(e.get(U1, v1.entryId())).isEqualTo(v1);
    assertThat(e.revision(U1, S1)).isEqualTo(2);

    MemoryEntry v2 = e.correct(U1, v1.entryId(), "Corrected", ChangeOptions.expectedRevision(2));
    assertThatThrownBy(() -> e.rollback(U1, event(e, v1, EventKind.CREATE).eventId(), ChangeOptions.expectedRevision(2)))
        .isInstanceOf(RevisionConflictException.class);
    assertThat(e.get(U1, v1.entryId())).isEqualTo(v2);
    MemoryEntry retired = e.retire(U1, v2.citation(), ChangeOptions.builder().expectedRevision(3).reason("done").build());
    assertThat(retired.status()).isEqualTo(EntryStatus.RETIRED);
  }

  // ---- invariant 4: versions are immutable

  @Test
  void oldVersionsNeverChangeAfterLaterOperations() {
    Engram e = engram();
    MemoryEntry v1 = richEntry(e);
    List<MemoryEvent> earlyHistory = e.history(U1, v1.entryId());

    MemoryEntry v2 = e.correct(U1, v1.entryId(), "Deploys happen on Mondays");
    e.write(U1, "Deploys happen on Fridays", WriteOptions.builder().path("ops/deploy-day").priority(5).build());
    e.rollback(U1, event(e, v1, EventKind.CREATE).eventId());
    MemoryEntry current = e.get(U1, v1.entryId());
    e.retire(U1, current.citation(), "gone");
    e.reactivate(U1, current.citation(), "back");

    MemoryEntry old = e.get(U1, v1.citation());
    assertThat(old.withStatus(v1.status(), v1.supersededBy(), v1.updatedAt())).isEqualTo(v1);
    assertThat(old.status()).isEqualTo(EntryStatus.SUPERSEDED);
    MemoryEntry oldV2 = e.get(U1, v2.citation());
    assertThat(oldV2.withStatus(v2.status(), v2.supersededBy(), v2.updatedAt())).isEqualTo(v2);

    List<MemoryEvent> lateHistory = e.history(U1, v1.entryId());
    assertThat(lateHistory).hasSize(6);
    assertThat(lateHistory.subList(0, earlyHistory.size())).isEqualTo(earlyHistory);
    assertThat(lateHistory.get(0).after()).isEqualTo(v1);
    assertThat(lateHistory.get(1).after()).isEqualTo(v2);
    assertThat(everything(e, U1)).extracting(MemoryEntry::version).containsExactly(1, 2, 3, 4);
  }

  // ---- invariant 3: atomic mutations

  private void assertAtomic(Step step, Consumer<Engram> setup, Consumer<Engram> operation) {
    FaultInjectingStore store = new FaultInjectingStore(createStore());
    Engram e = newEngram(store, new DeterministicReasoner(), clocked());
    setup.accept(e);
    StoreSnapshot before = StoreSnapshot.of(store, List.of(S1, S2));

    store.failAfter(step);
    Throwable thrown = catchThrowable(() -> operation.accept(e));

    assertThat(store.faultsInjected()).as("the fault after %s fired", step).isEqualTo(1);
    assertThat(thrown).isInstanceOf(StoreException.class).hasMessageContaining("injected fault");
    assertThat(StoreSnapshot.of(store, List.of(S1, S2))).isEqualTo(before);

    long head = store.headRevision(S1);
    operation.accept(e);
    assertThat(store.headRevision(S1)).isEqualTo(head + 1);
    assertThat(e.changes(U1, S1, 0)).extracting(Revision::revision)
        .containsExactlyElementsOf(LongStream.rangeClosed(1, head + 1).boxed().toList());
  }

  @Test
  void aWriteThatFailsMidTransactionLeavesNoTrace() {
    assertAtomic(Step.MARK_TOPICS_WRITTEN,
        e -> write(e, U1, "Existing fact", "facts"),
        e -> write(e, U1, "New fact in a new topic", "facts", "fresh"));
  }

  @Test
  void aCorrectionThatFailsMidTransactionLeavesNoTrace() {
    String[] id = new String[1];
    assertAtomic(Step.APPEND_EVENT,
        e -> id[0] = write(e, U1, "Version one", "facts").entry().entryId(),
        e -> e.correct(U1, id[0], "Version two"));
  }

  @Test
  void aPathUpsertThatFailsMidTransactionLeavesNoTrace() {
    WriteOptions at = WriteOptions.builder().path("a/b").topicsHint("facts").build();
    assertAtomic(Step.APPEND_REVISION,
        e -> e.write(U1, "At the path, first", at),
        e -> e.write(U1, "At the path, second", at));
  }

  @Test
  void aRetireThatFailsMidTransactionLeavesNoTrace() {
    Citation[] cited = new Citation[1];
    assertAtomic(Step.MARK_TOPICS_WRITTEN,
        e -> cited[0] = write(e, U1, "To be retired", "facts").citation(),
        e -> e.retire(U1, cited[0], "failing retire"));
  }

  @Test
  void aRollbackThatFailsMidTransactionLeavesNoTrace() {
    String[] eventId = new String[1];
    assertAtomic(Step.INSERT_VERSION,
        e -> {
          MemoryEntry v1 = write(e, U1, "Original text", "facts").entry();
          e.correct(U1, v1.entryId(), "Changed text");
          eventId[0] = event(e, v1, EventKind.CREATE).eventId();
        },
        e -> e.rollback(U1, eventId[0]));
  }

  @Test
  void aStoreTransactionCommitsNothingWhenItsWorkThrows() {
    MemoryStore store = createStore();
    Engram e = newEngram(store, new DeterministicReasoner(), clocked());
    MemoryEntry existing = write(e, U1, "Existing", "facts").entry();
    StoreSnapshot before = StoreSnapshot.of(store, List.of(S1));

    Instant now = Instant.parse("2031-01-01T00:00:00Z");
    String entryId = UUID.randomUUID().toString();
    String versionId = UUID.randomUUID().toString();
    String eventId = UUID.randomUUID().toString();
    MemoryEntry fresh = new MemoryEntry(entryId, versionId, 1, null, S1, "Injected", List.of("facts"),
        EntryType.FACT, 2, null, List.of(), null, null, List.of(), Fixtures.sha256("Injected"),
        EntryStatus.ACTIVE, null, null, now, now, 2);
    IllegalStateException boom = new IllegalStateException("work failed");
    Throwable thrown = catchThrowable(() -> store.inTransaction(S1, tx -> {
      tx.updateStatus(existing.versionId(), EntryStatus.RETIRED, null, now);
      tx.insertVersion(fresh);
      tx.appendRevision(new Revision(S1, 2, List.of(new Change(ChangeKind.APPEND, entryId, versionId)), now));
      tx.appendEvent(new MemoryEvent(eventId, S1, entryId, EventKind.CREATE, null, fresh, null, null, 2, now, null));
      tx.markTopicsWritten(S1, List.of("facts", "injected"), 2, now);
      tx.markTopicCurated(S1, "facts", 2, "blurb");
      assertThat(tx.headRevision(S1)).isEqualTo(2);
      assertThat(tx.version(versionId)).contains(fresh);
      throw boom;
    }));

    assertThat(thrown).isSameAs(boom);
    assertThat(StoreSnapshot.of(store, List.of(S1))).isEqualTo(before);
    assertThat(store.version(versionId)).isEmpty();
    assertThat(store.versions(entryId)).isEmpty();
    assertThat(store.event(eventId)).isEmpty();
    assertThat(e.get(U1, existing.entryId())).isEqualTo(existing);
    assertThat(write(e, U1, "After the failure").revision()).isEqualTo(2);
  }

  @Test
  void aStoreRefusesARevisionThatDoesNotFollowTheHead() {
    MemoryStore store = createStore();
    Engram e = newEngram(store, new DeterministicReasoner(), clocked());
    write(e, U1, "Revision one");
    StoreSnapshot before = StoreSnapshot.of(store, List.of(S1));
    Instant now = Instant.parse("2031-01-01T00:00:00Z");

    assertThatThrownBy(() -> store.inTransaction(S1, tx -> {
      tx.appendRevision(new Revision(S1, 3, List.of(), now));
      return null;
    })).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> store.inTransaction(S1, tx -> {
      tx.appendRevision(new Revision(S1, 1, List.of(), now));
      return null;
    })).isInstanceOf(IllegalStateException.class);
    assertThat(StoreSnapshot.of(store, List.of(S1))).isEqualTo(before);
  }

  @Test
  void historyPagesFollowTheirCursorToTheEndOfALongChain() {
    Engram engram = newEngram(new DeterministicReasoner(), clocked());
    Grants grants = Grants.of(S1);
    MemoryEntry cur = engram.write(grants, "Version one of a long chain.").entry();
    for (int i = 2; i <= 25; i++) {
      cur = engram.correct(grants, cur.entryId(), "Version " + i + " of a long chain.");
    }
    assertThat(engram.get(grants, cur.entryId())).isEqualTo(cur);
    List<MemoryEvent> whole = engram.history(grants, cur.entryId());
    assertThat(whole).hasSize(25);
    List<MemoryEvent> paged = new ArrayList<>();
    dev.engram.HistoryOptions options = dev.engram.HistoryOptions.of(7);
    int pages = 0;
    while (true) {
      dev.engram.HistoryPage page = engram.history(grants, cur.entryId(), options);
      pages++;
      paged.addAll(page.events());
      if (!page.hasMore()) {
        assertThat(page.events()).hasSizeLessThanOrEqualTo(7);
        break;
      }
      assertThat(page.events()).hasSize(7);
      options = options.after(page.nextCursor());
    }
    assertThat(pages).isEqualTo(4);
    assertThat(paged).isEqualTo(whole);
    assertThat(engram.history(grants, cur.entryId(), dev.engram.HistoryOptions.of(25)).hasMore()).isFalse();

    String entryId = cur.entryId();
    assertThatThrownBy(() -> engram.history(grants, entryId, dev.engram.HistoryOptions.of(5).after("not-a-cursor")))
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("after");
    assertThatThrownBy(() -> engram.history(grants, entryId, dev.engram.HistoryOptions.of(5).after("-3:x")))
        .isInstanceOf(InvalidInputException.class);
    assertThatThrownBy(() -> dev.engram.HistoryOptions.of(0)).isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("limit");
    assertThatThrownBy(() -> dev.engram.HistoryOptions.of(dev.engram.HistoryOptions.MAX_LIMIT + 1))
        .isInstanceOf(InvalidInputException.class);
    assertThatThrownBy(() -> engram.history(Grants.of(S2), entryId, dev.engram.HistoryOptions.defaults()))
        .isInstanceOf(NotFoundException.class);
  }
}
