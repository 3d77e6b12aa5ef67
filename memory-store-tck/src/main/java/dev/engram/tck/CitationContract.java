/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.engram.Citation;
import dev.engram.Engram;
import dev.engram.EntryPatch;
import dev.engram.EntryStateException;
import dev.engram.ErrorCode;
import dev.engram.Grants;
import dev.engram.MemoryEntry;
import dev.engram.NotFoundException;
import dev.engram.RevisionConflictException;
import dev.engram.ScopeViolationException;
import org.junit.jupiter.api.Test;

/**
 * Correct by citation: the correction applies only while the cited version is current; a stale
 * citation is a revision conflict and changes nothing.
 */
public abstract class CitationContract extends ContractSupport {
  private static final String S1 = Fixtures.S1;
  private static final Grants U1 = Grants.of(S1);

  @Test
  void aCurrentCitationCorrectsAndAStaleOneConflicts() {
    Engram engram = newEngram();
    MemoryEntry v1 = write(engram, U1, "The build needs Java 17.").entry();
    MemoryEntry v2 = engram.correct(U1, v1.citation(), "The build needs Java 21.");
    assertThat(v2.previousVersionId()).isEqualTo(v1.versionId());
    assertThat(v2.content()).isEqualTo("The build needs Java 21.");
    assertThat(engram.correct(U1, v2.citation(), "The build needs Java 21.")).isEqualTo(v2);

    long head = engram.revision(U1, S1);
    RevisionConflictException stale = catchThrowableOfType(
        RevisionConflictException.class, () -> engram.correct(U1, v1.citation(), "The build needs Java 11."));
    assertThat(stale.code()).isEqualTo(ErrorCode.REVISION_CONFLICT);
    assertThat(stale.expectedRevision()).isNull();
    assertThat(stale.actualRevision()).isEqualTo(head);
    assertThat(stale).hasMessageContaining(v1.versionId()).hasMessageContaining(v2.versionId());
    assertThat(engram.get(U1, v1.entryId())).isEqualTo(v2);
    assertThat(engram.revision(U1, S1)).isEqualTo(head);

    MemoryEntry v3 = engram.update(U1, v1.entryId(), EntryPatch.priority(3)).entry();
    assertThatThrownBy(() -> engram.correct(U1, v2.citation(), "Decided before the patch."))
        .as("a metadata change in between makes the citation stale too").isInstanceOf(RevisionConflictException.class);
    assertThat(engram.correct(U1, v3.citation(), "The build needs Java 21 or later.").version()).isEqualTo(4);
  }

  @Test
  void forgedInvisibleOrInactiveCitationsAreRefused() {
    Engram engram = newEngram();
    MemoryEntry v1 = write(engram, U1, "A fact to correct.").entry();
    Citation c = v1.citation();
    assertThatThrownBy(() -> engram.correct(U1, new Citation(S1, c.entryId(), c.versionId(), c.revision() + 1), "x"))
        .isInstanceOf(NotFoundException.class);
    assertThatThrownBy(() -> engram.correct(U1, new Citation(S1, "other", c.versionId(), c.revision()), "x"))
        .isInstanceOf(NotFoundException.class);
    assertThatThrownBy(() -> engram.correct(Grants.of(Fixtures.S2), c, "x")).isInstanceOf(NotFoundException.class);
    assertThatThrownBy(() -> engram.correct(Grants.of(S1 + "/sub"), c, "x"))
        .isInstanceOf(ScopeViolationException.class);
    assertThatThrownBy(() -> engram.correct(U1, (Citation) null, "x")).isInstanceOf(NullPointerException.class);
    assertThat(engram.get(U1, v1.entryId())).isEqualTo(v1);

    MemoryEntry retired = engram.retire(U1, c, "gone");
    assertThatThrownBy(() -> engram.correct(U1, retired.citation(), "x")).isInstanceOf(EntryStateException.class)
        .hasMessageContaining("RETIRED");
  }
}
