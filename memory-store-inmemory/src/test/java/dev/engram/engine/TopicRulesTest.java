/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.engine;

import static dev.engram.tck.Fixtures.S1;
import static dev.engram.tck.Fixtures.clocked;
import static dev.engram.tck.Fixtures.topics;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import dev.engram.Engram;
import dev.engram.Grants;
import dev.engram.InvalidInputException;
import dev.engram.MemoryEntry;
import dev.engram.TopicSummary;
import dev.engram.WriteOptions;
import dev.engram.reasoner.DeterministicReasoner;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Topic rules: hints trimmed, lowercased and deduplicated, {@code general} when none is given, malformed
 * topics rejected with nothing stored. Engine rules, run once against the reference store.
 */
class TopicRulesTest extends EngineRules {

  private static final Grants U1 = Grants.of(S1);

  // ---- topic normalization

  @Test
  void topicHintsAreTrimmedLowercasedAndDeduplicated() {
    Engram e = newEngram(new DeterministicReasoner(), clocked());
    MemoryEntry m = write(e, U1, "Focus time is before noon", " Work ", "WORK", "Deep   Focus", "work", "\u00dcBER").entry();

    assertThat(m.topics()).containsExactly("work", "deep focus", "\u00fcber");
    assertThat(e.read(U1, "Deep Focus")).containsExactly(m);
    assertThat(e.scan(U1)).extracting(TopicSummary::topic).containsExactly("deep focus", "work", "\u00fcber");
  }

  @Test
  void entriesWithoutTopicsGoToGeneral() {
    Engram e = newEngram(new DeterministicReasoner(), clocked());
    MemoryEntry m = e.write(U1, "No topic given").entry();

    assertThat(m.topics()).containsExactly("general");
    assertThat(e.read(U1, "general")).containsExactly(m);
    assertThat(e.scan(U1)).singleElement().satisfies(t -> {
      assertThat(t.topic()).isEqualTo("general");
      assertThat(t.count()).isEqualTo(1);
    });
  }

  @Test
  void malformedTopicsAreRejectedAndNothingIsStored() {
    Engram e = newEngram(new DeterministicReasoner(), clocked());
    MemoryEntry kept = write(e, U1, "Kept entry", "fine").entry();

    assertThatThrownBy(() -> write(e, U1, "Bad topic", "a/b"))
        .isInstanceOfSatisfying(InvalidInputException.class, x -> assertThat(x.field()).isEqualTo("topicsHint[0]"));
    assertThatThrownBy(() -> write(e, U1, "Bad topic", "ok", "wild*card"))
        .isInstanceOfSatisfying(InvalidInputException.class, x -> assertThat(x.field()).isEqualTo("topicsHint[1]"));
    assertThatThrownBy(() -> write(e, U1, "Bad topic", "   ")).isInstanceOf(InvalidInputException.class);
    assertThatThrownBy(() -> write(e, U1, "Bad topic", "x".repeat(65))).isInstanceOf(InvalidInputException.class);
    List<String> seventeen = new ArrayList<>();
    for (int i = 0; i < 17; i++) {
      seventeen.add("t" + i);
    }
    assertThatThrownBy(() -> e.write(U1, "Too many topics", WriteOptions.builder().topicsHint(seventeen).build()))
        .isInstanceOf(InvalidInputException.class);

    assertThat(everything(e, U1)).containsExactly(kept);
    assertThat(e.revision(U1, S1)).isEqualTo(1);
    assertThat(e.scan(U1)).extracting(TopicSummary::topic).containsExactly("fine");
  }
}
