/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.Change;
import dev.engram.ChangeKind;
import dev.engram.ChangeOptions;
import dev.engram.Engram;
import dev.engram.EntryPatch;
import dev.engram.EntryStateException;
import dev.engram.EventKind;
import dev.engram.Grants;
import dev.engram.InvalidInputException;
import dev.engram.MemoryEntry;
import dev.engram.MemoryEvent;
import dev.engram.NotFoundException;
import dev.engram.PriorityCapExceededException;
import dev.engram.ReadOptions;
import dev.engram.RevisionConflictException;
import dev.engram.WriteOptions;
import dev.engram.WriteResult;
import dev.engram.reasoner.DeterministicReasoner;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Edits without rewriting content: glossary add/remove and metadata patches, each a new version with
 * an UPDATE event holding the exact before and after; path writes that leave a field out keep it.
 */
public abstract class MetadataContract extends ContractSupport {
  private static final String S1 = Fixtures.S1;
  private static final Grants U1 = Grants.of(S1);

  private static MemoryEntry seed(Engram engram) {
    return engram.write(U1, "Refund webhooks are idempotent by event.id.", WriteOptions.builder()
        .path("project://checkout_webhooks").topicsHint("payments").priority(2)
        .disclosure("When changing refund webhooks in checkout-api").glossary("refund webhook", "stripe").build())
        .entry();
  }

  private static MemoryEvent last(Engram engram, MemoryEntry e) {
    List<MemoryEvent> h = engram.history(U1, e.entryId());
    return h.get(h.size() - 1);
  }

  @Test
  void glossaryAddAndRemoveMakeVersionsWithExactSnapshots() {
    Engram engram = newEngram(new DeterministicReasoner(), Fixtures.clocked());
    MemoryEntry v1 = seed(engram);
    MemoryEntry v2 = engram.glossaryAdd(U1, v1.entryId(), List.of("Idempotency key", "STRIPE"));
    assertThat(v2.glossary()).containsExactly("refund webhook", "stripe", "Idempotency key");
    assertThat(v2.version()).isEqualTo(2);
    assertThat(v2.content()).isEqualTo(v1.content());
    assertThat(v2.contentHash()).isEqualTo(v1.contentHash());
    MemoryEvent added = last(engram, v2);
    assertThat(added.kind()).isEqualTo(EventKind.UPDATE);
    assertThat(added.before()).isEqualTo(v1);
    assertThat(added.after()).isEqualTo(v2);
    assertThat(engram.changes(U1, S1, v1.createdInRevision()).get(0).changes()).containsExactly(
        new Change(ChangeKind.METADATA, v1.entryId(), v2.versionId()),
        new Change(ChangeKind.SUPERSEDE, v1.entryId(), v1.versionId()));

    long head = engram.revision(U1, S1);
    assertThat(engram.glossaryAdd(U1, v1.entryId(), List.of("stripe"))).isEqualTo(v2);
    assertThat(engram.glossaryRemove(U1, v1.entryId(), List.of("not there"))).isEqualTo(v2);
    assertThat(engram.revision(U1, S1)).isEqualTo(head);

    MemoryEntry v3 = engram.glossaryRemove(U1, v1.entryId(), List.of("REFUND WEBHOOK"));
    assertThat(v3.glossary()).containsExactly("stripe", "Idempotency key");
    assertThat(last(engram, v3).before()).isEqualTo(v2);
    assertThat(last(engram, v3).after()).isEqualTo(v3);

    MemoryEntry restored = engram.rollback(U1, engram.history(U1, v1.entryId()).get(0).eventId());
    assertThat(restored.glossary()).containsExactly("refund webhook", "stripe");
  }

  @Test
  void glossaryEditsWithOptionsRecordTheActorReasonAndOriginAndHonourTheExpectedRevision() {
    Engram engram = newEngram(new DeterministicReasoner(), Fixtures.clocked());
    MemoryEntry v1 = seed(engram);
    long head = engram.revision(U1, S1);
    MemoryEntry v2 = engram.glossaryAdd(U1, v1.entryId(), List.of("idempotency key"),
        ChangeOptions.builder().source("agent:codex").reason("search missed it").origin("mcp").expectedRevision(head)
            .build());
    MemoryEvent added = last(engram, v2);
    assertThat(added.actor()).isEqualTo("agent:codex");
    assertThat(added.reason()).isEqualTo("search missed it");
    assertThat(added.origin()).isEqualTo("mcp");
    assertThat(v2.source()).isEqualTo("agent:codex");

    assertThatThrownBy(() -> engram.glossaryRemove(U1, v1.entryId(), List.of("stripe"),
        ChangeOptions.builder().expectedRevision(head).build())).isInstanceOf(RevisionConflictException.class);
    assertThat(engram.get(U1, v1.entryId())).isEqualTo(v2);
    MemoryEntry v3 = engram.glossaryRemove(U1, v1.entryId(), List.of("STRIPE"),
        ChangeOptions.builder().source("agent:codex").origin("mcp").build());
    assertThat(v3.glossary()).containsExactly("refund webhook", "idempotency key");
    assertThat(last(engram, v3).origin()).isEqualTo("mcp");
    assertThat(last(engram, v3).actor()).isEqualTo("agent:codex");
  }

  @Test
  void updatePatchesOnlyTheFieldsItSets() {
    Engram engram = newEngram();
    MemoryEntry v1 = seed(engram);
    WriteResult r = engram.update(U1, v1.entryId(),
        EntryPatch.builder().priority(1).disclosure("When reviewing payment retries").build());
    assertThat(r.outcome()).isEqualTo(WriteResult.Outcome.UPDATED);
    MemoryEntry v2 = r.entry();
    assertThat(v2.priority()).isEqualTo(1);
    assertThat(v2.disclosure()).isEqualTo("When reviewing payment retries");
    assertThat(v2.glossary()).isEqualTo(v1.glossary());
    assertThat(v2.topics()).isEqualTo(v1.topics());
    assertThat(v2.path()).isEqualTo(v1.path());
    assertThat(v2.content()).isEqualTo(v1.content());
    assertThat(r.revision()).isEqualTo(engram.revision(U1, S1));
    assertThat(last(engram, v2).after()).isEqualTo(v2);

    MemoryEntry v3 = engram.update(U1, v1.entryId(), EntryPatch.topics(List.of("billing", "Payments"))).entry();
    assertThat(v3.topics()).containsExactly("billing", "payments");
    assertThat(engram.read(U1, "billing", ReadOptions.defaults())).extracting(MemoryEntry::versionId)
        .containsExactly(v3.versionId());
    assertThat(engram.update(U1, v1.entryId(), EntryPatch.glossary(List.of())).entry().glossary()).isEmpty();

    long head = engram.revision(U1, S1);
    WriteResult same = engram.update(U1, v1.entryId(), EntryPatch.priority(1));
    assertThat(same.outcome()).isEqualTo(WriteResult.Outcome.DEDUPED);
    assertThat(same.revision()).isEqualTo(head);
  }

  @Test
  void updateRefusesBadPatchesAndRespectsCapsAndState() {
    Engram engram = newEngram(new DeterministicReasoner(), b -> b.priorityCaps(1, 15));
    MemoryEntry e = seed(engram);
    MemoryEntry core = write(engram, U1, "The one core rule.").entry();
    engram.update(U1, core.entryId(), EntryPatch.priority(0));
    long head = engram.revision(U1, S1);
    assertThatThrownBy(() -> engram.update(U1, e.entryId(), EntryPatch.priority(0)))
        .isInstanceOf(PriorityCapExceededException.class);
    assertThatThrownBy(() -> engram.update(U1, e.entryId(), EntryPatch.builder().build()))
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("patch");
    assertThatThrownBy(() -> engram.update(U1, e.entryId(), EntryPatch.priority(-1)))
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("patch.priority");
    assertThatThrownBy(() -> engram.update(U1, e.entryId(), EntryPatch.topics(List.of())))
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("patch.topics");
    assertThatThrownBy(() -> engram.update(U1, e.entryId(), EntryPatch.disclosure("  ")))
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("patch.disclosure");
    assertThatThrownBy(() -> engram.update(U1, e.entryId(), EntryPatch.disclosure("bad \u0000 char")))
        .isInstanceOf(InvalidInputException.class);
    assertThatThrownBy(() -> engram.glossaryAdd(U1, e.entryId(), List.of()))
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("terms");
    assertThatThrownBy(() -> engram.glossaryAdd(U1, e.entryId(), List.of("x".repeat(10_000))))
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("terms[0]");
    assertThatThrownBy(() -> engram.update(Grants.of(Fixtures.S2), e.entryId(), EntryPatch.priority(3)))
        .isInstanceOf(NotFoundException.class);
    assertThatThrownBy(() -> engram.update(U1, e.entryId(), null)).isInstanceOf(NullPointerException.class);
    assertThat(engram.revision(U1, S1)).isEqualTo(head);

    engram.retire(U1, engram.get(U1, e.entryId()).citation(), "gone");
    assertThatThrownBy(() -> engram.update(U1, e.entryId(), EntryPatch.priority(3)))
        .isInstanceOf(EntryStateException.class).hasMessageContaining("RETIRED");
    assertThatThrownBy(() -> engram.glossaryAdd(U1, e.entryId(), List.of("x")))
        .isInstanceOf(EntryStateException.class);
  }

  @Test
  void aPathWriteThatLeavesAFieldOutKeepsItsCurrentValue() {
    Engram engram = newEngram();
    MemoryEntry v1 = seed(engram);
    WriteResult r = engram.write(U1, "Refund webhooks are idempotent by event.id; replay twice in tests.",
        WriteOptions.builder().path("project://checkout_webhooks").topicsHint("payments").build());
    assertThat(r.outcome()).isEqualTo(WriteResult.Outcome.UPDATED);
    assertThat(r.entry().priority()).isEqualTo(v1.priority());
    assertThat(r.entry().disclosure()).isEqualTo(v1.disclosure());
    assertThat(r.entry().glossary()).isEqualTo(v1.glossary());

    WriteResult again = engram.write(U1, "Refund webhooks are idempotent by event.id; replay twice in tests.",
        WriteOptions.builder().path("project://checkout_webhooks").topicsHint("payments").build());
    assertThat(again.outcome()).isEqualTo(WriteResult.Outcome.DEDUPED);

    WriteResult set = engram.write(U1, "Refund webhooks are idempotent by event.id; replay twice in tests.",
        WriteOptions.builder().path("project://checkout_webhooks").topicsHint("payments").priority(3)
            .glossary("idempotency").build());
    assertThat(set.outcome()).isEqualTo(WriteResult.Outcome.UPDATED);
    assertThat(set.entry().priority()).isEqualTo(3);
    assertThat(set.entry().glossary()).containsExactly("idempotency");
    assertThat(set.entry().disclosure()).isEqualTo(v1.disclosure());

    WriteResult cleared = engram.write(U1, "Refund webhooks are idempotent by event.id; replay twice in tests.",
        WriteOptions.builder().path("project://checkout_webhooks").topicsHint("payments").priority(3)
            .glossary(List.of()).build());
    assertThat(cleared.outcome()).as("an explicitly empty glossary clears it").isEqualTo(WriteResult.Outcome.UPDATED);
    assertThat(cleared.entry().glossary()).isEmpty();

    MemoryEntry fresh = engram.write(U1, "A new path entry.", WriteOptions.builder().path("project://new").build())
        .entry();
    assertThat(fresh.priority()).isEqualTo(2);
    assertThat(fresh.disclosure()).isNull();
    assertThat(fresh.glossary()).isEmpty();
  }
}
