/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.CapabilityNotSupportedException;
import dev.engram.Engram;
import dev.engram.Grants;
import dev.engram.ImportMode;
import dev.engram.ImportOptions;
import dev.engram.InvalidInputException;
import dev.engram.MemoryEntry;
import dev.engram.ScopeViolationException;
import dev.engram.SearchMode;
import dev.engram.SearchRequest;
import dev.engram.SourceRecord;
import dev.engram.StoreException;
import dev.engram.TransferReport;
import dev.engram.WriteOptions;
import dev.engram.WriteResult;
import dev.engram.reasoner.DeterministicReasoner;
import dev.engram.spi.StoreCapability;
import dev.engram.tck.FaultInjectingStore.Step;
import java.io.StringReader;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

/**
 * Restore ({@link ImportMode#REPLACE}): an export replaces what a store holds for its scopes, one
 * transaction per scope ({@link StoreCapability#REPLACE_SCOPE}). The scope becomes exactly what was
 * exported (versions, history, revisions, topics, sources); a refused or failed restore leaves the old
 * memory as it was; scopes the export does not carry are untouched.
 */
public abstract class RestoreContract extends ContractSupport {
  private static final String S1 = Fixtures.S1;
  private static final String S2 = Fixtures.S2;
  private static final Grants U1 = Grants.of(S1);
  private static final Grants U2 = Grants.of(S2);

  /** Memory of U1 worth restoring: a path tree, a correction, a retirement, a captured source. */
  private static void populate(Engram engram) {
    engram.write(U1, "The checkout API takes card payments.", WriteOptions.builder().path("project://checkout_api")
        .topicsHint("payments").build());
    engram.write(U1, "Refund webhooks are idempotent by event.id.",
        WriteOptions.builder().path("project://checkout_api/webhooks").topicsHint("payments").build());
    MemoryEntry units = engram.write(U1, "Prefers metric units.", WriteOptions.builder().topicsHint("preferences")
        .build()).entry();
    MemoryEntry corrected = engram.correct(U1, units.entryId(), "Prefers metric units, with Celsius.");
    MemoryEntry gone = engram.write(U1, "Runs on Tuesdays.", WriteOptions.builder().topicsHint("schedule").build())
        .entry();
    engram.retire(U1, gone.citation(), "moved to Thursdays");
    engram.capture(U1, SourceRecord.of("s1", "user", "I switched my runs to Thursdays.").id("turn-1"));
    assertThat(corrected.version()).isEqualTo(2);
  }

  private static String export(Engram engram, Grants grants) {
    StringWriter out = new StringWriter();
    engram.operator().export(grants, out);
    return out.toString();
  }

  /** Changes made after the export: what a restore must take back. */
  private static void laterChanges(Engram engram) {
    MemoryEntry hooks = engram.list(U1).stream().filter(e -> "project://checkout_api/webhooks".equals(e.path()))
        .findFirst().orElseThrow();
    engram.correct(U1, hooks.entryId(), "Refund webhooks are retried by the platform (wrong).");
    engram.write(U1, "The zanzibarium was added after the backup.", WriteOptions.builder().topicsHint("late").build());
    engram.write(U1, "Payouts run on Fridays.", WriteOptions.builder().path("project://checkout_api/payouts").build());
  }

  @Test
  void aRestoreReplacesTheScopeWithExactlyWhatWasExported() {
    Engram engram = newEngram(new DeterministicReasoner(), Fixtures.clocked());
    populate(engram);
    String backup = export(engram, U1);
    VisibleState atBackup = VisibleState.of(engram, U1);
    long backupHead = engram.revision(U1, S1);
    laterChanges(engram);
    assertThat(engram.revision(U1, S1)).isGreaterThan(backupHead);
    int activeBefore = engram.list(U1).size();

    TransferReport report = engram.operator().importFrom(U1, new StringReader(backup), ImportOptions.replace());

    assertThat(report.dryRun()).isFalse();
    assertThat(report.scopes()).containsExactly(S1);
    assertThat(report.replaced()).isEqualTo(activeBefore);
    assertThat(VisibleState.of(engram, U1)).isEqualTo(atBackup);
    assertThat(engram.revision(U1, S1)).isEqualTo(backupHead);
    assertThat(engram.sources(U1, dev.engram.SourceQuery.defaults())).extracting(s -> s.id()).containsExactly("turn-1");
    if (createStore().capabilities().contains(StoreCapability.FULL_TEXT_SEARCH)) {
      assertThat(engram.search(U1, SearchRequest.builder("zanzibarium").mode(SearchMode.FTS).build()).hits())
          .as("what was written after the backup is gone from the index too").isEmpty();
      assertThat(engram.search(U1, SearchRequest.builder("idempotent").mode(SearchMode.FTS).build()).hits())
          .extracting(h -> h.entry().content()).containsExactly("Refund webhooks are idempotent by event.id.");
    }

    // the restored memory keeps working, from the restored revision on
    WriteResult next = engram.write(U1, "Invoices are sent monthly.", WriteOptions.builder().topicsHint("billing")
        .build());
    assertThat(next.revision()).isEqualTo(backupHead + 1);
    assertThat(engram.operator().importFrom(U1, new StringReader(backup), ImportOptions.replace()).replaced())
        .as("a second restore replaces what is active now").isEqualTo((int) atBackup.versions().stream()
            .filter(MemoryEntry::isActive).count() + 1);
    assertThat(VisibleState.of(engram, U1)).isEqualTo(atBackup);
  }

  @Test
  void aRestoreGoesIntoAnotherStoreAndAnEmptyScopeToo() {
    Engram source = newEngram(new DeterministicReasoner(), Fixtures.clocked());
    populate(source);
    String backup = export(source, U1);
    Engram target = newEngram(new DeterministicReasoner(), Fixtures.clocked());
    target.write(U1, "A fact the target held before.", WriteOptions.builder().topicsHint("old").build());

    TransferReport report = target.operator().importFrom(U1, new StringReader(backup), ImportOptions.replace());

    assertThat(report.replaced()).isEqualTo(1);
    assertThat(VisibleState.of(target, U1)).isEqualTo(VisibleState.of(source, U1));
    Engram empty = newEngram(new DeterministicReasoner(), Fixtures.clocked());
    assertThat(empty.operator().importFrom(U1, new StringReader(backup), ImportOptions.replace()).replaced()).isZero();
    assertThat(VisibleState.of(empty, U1)).isEqualTo(VisibleState.of(source, U1));
  }

  @Test
  void aCorruptExportInReplaceModeLeavesTheOldMemoryUntouched() {
    Engram engram = newEngram(new DeterministicReasoner(), Fixtures.clocked());
    populate(engram);
    String backup = export(engram, U1);
    laterChanges(engram);
    VisibleState now = VisibleState.of(engram, U1);

    String tampered = backup.replace("idempotent by event.id", "idempotent by request id");
    assertThatThrownBy(() -> engram.operator().importFrom(U1, new StringReader(tampered), ImportOptions.replace()))
        .isInstanceOf(InvalidInputException.class);
    String truncated = backup.substring(0, backup.length() / 2);
    assertThatThrownBy(() -> engram.operator().importFrom(U1, new StringReader(truncated), ImportOptions.replace()))
        .isInstanceOf(InvalidInputException.class);
    assertThat(VisibleState.of(engram, U1)).isEqualTo(now);

    TransferReport dry = engram.operator().importFrom(U1, new StringReader(backup),
        ImportOptions.builder().mode(ImportMode.REPLACE).dryRun(true).build());
    assertThat(dry.dryRun()).isTrue();
    assertThat(dry.replaced()).isEqualTo(engram.list(U1).size());
    assertThat(VisibleState.of(engram, U1)).as("a dry run writes nothing").isEqualTo(now);

    assertThatThrownBy(() -> engram.operator().importFrom(U1, new StringReader(backup), ImportOptions.defaults()))
        .as("the default import still goes into empty scopes only")
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("already exists in the target store");
    assertThat(VisibleState.of(engram, U1)).isEqualTo(now);
  }

  @Test
  void aStoreFailureInTheMiddleOfARestoreLeavesTheOldMemoryIntact() {
    FaultInjectingStore store = new FaultInjectingStore(createStore());
    Engram engram = newEngram(store, new DeterministicReasoner(), Fixtures.clocked());
    populate(engram);
    String backup = export(engram, U1);
    laterChanges(engram);
    VisibleState now = VisibleState.of(engram, U1);

    for (Step step : new Step[] {Step.ERASE_SCOPE, Step.INSERT_VERSION, Step.APPEND_REVISION}) {
      store.failAfter(step);
      assertThatThrownBy(() -> engram.operator().importFrom(U1, new StringReader(backup), ImportOptions.replace()))
          .as(step.name()).isInstanceOf(StoreException.class);
      assertThat(store.armed()).as(step.name()).isFalse();
      assertThat(VisibleState.of(engram, U1)).as("after a failure at " + step).isEqualTo(now);
    }
    engram.operator().importFrom(U1, new StringReader(backup), ImportOptions.replace());
    assertThat(engram.list(U1)).extracting(MemoryEntry::content)
        .doesNotContain("The zanzibarium was added after the backup.");
  }

  @Test
  void aRestoreTouchesNoOtherScope() {
    Engram engram = newEngram(new DeterministicReasoner(), Fixtures.clocked());
    populate(engram);
    engram.write(U2, "Another user's fact stays.", WriteOptions.builder().topicsHint("other").build());
    engram.write(Grants.of(S1 + "/notes"), "A note below u1 stays too.", WriteOptions.builder().topicsHint("notes")
        .build());
    String backup = export(engram, U1);
    laterChanges(engram);
    engram.write(U2, "Another user's later fact stays as well.", WriteOptions.builder().topicsHint("other").build());
    VisibleState other = VisibleState.of(engram, U2);
    Grants notes = Grants.of(S1 + "/notes");
    java.util.List<MemoryEntry> notesEntries = engram.list(notes).stream().filter(e -> e.scope().equals(S1 + "/notes"))
        .toList();
    java.util.List<dev.engram.Revision> notesLog = engram.changes(notes, S1 + "/notes", 0);

    assertThat(engram.operator().importFrom(U1, new StringReader(backup), ImportOptions.replace()).scopes())
        .containsExactly(S1);

    assertThat(VisibleState.of(engram, U2)).isEqualTo(other);
    assertThat(engram.list(notes).stream().filter(e -> e.scope().equals(S1 + "/notes")).toList())
        .as("a scope below is its own scope").isEqualTo(notesEntries).hasSize(1);
    assertThat(engram.changes(notes, S1 + "/notes", 0)).isEqualTo(notesLog);

    // replacing needs the grants to write the scope
    VisibleState u1 = VisibleState.of(engram, U1);
    assertThatThrownBy(() -> engram.operator().importFrom(U2, new StringReader(backup), ImportOptions.replace()))
        .isInstanceOf(ScopeViolationException.class);
    assertThat(VisibleState.of(engram, U1)).isEqualTo(u1);
  }

  @Test
  void aStoreWithoutReplaceScopeRefusesARestoreWithATypedError() {
    FaultInjectingStore store = new FaultInjectingStore(createStore());
    store.hideCapability(StoreCapability.REPLACE_SCOPE);
    Engram engram = newEngram(store, new DeterministicReasoner(), Fixtures.clocked());
    populate(engram);
    String backup = export(engram, U1);
    VisibleState now = VisibleState.of(engram, U1);
    assertThatThrownBy(() -> engram.operator().importFrom(U1, new StringReader(backup), ImportOptions.replace()))
        .isInstanceOf(CapabilityNotSupportedException.class).hasMessageContaining("REPLACE_SCOPE");
    assertThat(VisibleState.of(engram, U1)).isEqualTo(now);
  }
}
