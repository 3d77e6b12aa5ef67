/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.reasoner;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.EntryType;
import dev.engram.spi.TagProposal;
import dev.engram.spi.TagRequest;
import java.util.List;
import org.junit.jupiter.api.Test;

class DeterministicReasonerTest {
  private final DeterministicReasoner reasoner = new DeterministicReasoner();

  @Test
  void filesUnderFirstGrantWithHintedTopicsAndType() {
    TagProposal p = reasoner.tag(new TagRequest(List.of("app/user/u1", "app/team"), List.of("goals"),
        "  Prefers metric units.  ", List.of("preferences"), EntryType.PREFERENCE, List.of()));
    assertThat(p.namespace()).isEqualTo("app/user/u1");
    assertThat(p.topics()).containsExactly("preferences");
    assertThat(p.type()).isEqualTo(EntryType.PREFERENCE);
    assertThat(p.content()).isEqualTo("Prefers metric units.");
    assertThat(p.duplicateOf()).isNull();
  }

  @Test
  void defaultsToGeneralFactWithoutCurateStep() {
    TagProposal p = reasoner.tag(new TagRequest(List.of("app"), List.of(), "x", List.of(), null, List.of()));
    assertThat(p.topics()).containsExactly("general");
    assertThat(p.type()).isEqualTo(EntryType.FACT);
    assertThat(reasoner.curates()).isFalse();
    assertThat(reasoner.usesContext()).isFalse();
  }
}
