/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.reasoner;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.CapturedSource;
import dev.engram.EntryType;
import dev.engram.spi.ExtractRequest;
import dev.engram.spi.ExtractedMemory;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TurnExtractionTest {
  private static final Instant DAY = Instant.parse("2023-05-08T13:56:00Z");

  private static CapturedSource turn(long position, String session, String speaker, String text) {
    return new CapturedSource("t" + position, "app/u", position, session, speaker, text, DAY.plusSeconds(position),
        Map.of(), DAY);
  }

  @Test
  void oneEventPerTurnCitingItWithTheDayAndTheExchangeOfItsOwnSession() {
    String longTurn = "I finally finished the marathon in Porto last weekend. The first twenty kilometres went well"
        + " and I kept a steady pace the whole time. After that my knee started hurting badly and I had to walk"
        + " a little. My sister waited for me at the finish line with a sign she had painted herself.";
    List<CapturedSource> window = List.of(
        turn(1, "s1", "Ana", "How was your weekend?"),
        turn(2, "s1", "Ben", longTurn),
        turn(3, "s2", "Ana", "A new session starts here."));
    List<ExtractedMemory> out = new DeterministicReasoner().extract(new ExtractRequest("app/u", window, List.of()));

    assertThat(out).hasSize(3);
    ExtractedMemory ben = out.get(1);
    assertThat(ben.content()).isEqualTo("Ben: " + longTurn);
    assertThat(ben.evidence()).containsExactly("t2");
    assertThat(ben.type()).isEqualTo(EntryType.EVENT);
    assertThat(ben.occurredAt()).isEqualTo(DAY.plusSeconds(2));
    assertThat(ben.disclosure()).isEqualTo("8 May 2023 2023-05-08");
    assertThat(ben.views().gist()).isEqualTo("Ben: I finally finished the marathon in Porto last weekend.");
    assertThat(ben.views().questions()).hasSizeBetween(2, 3);
    assertThat(ben.views().questions().get(0))
        .as("the exchange: the previous turn of the session, not the next session's first")
        .startsWith("Ana: How was your weekend? Ben: I finally").doesNotContain("new session").hasSizeLessThanOrEqualTo(300);
    assertThat(ben.views().questions().subList(1, ben.views().questions().size()))
        .as("sentence chunks of the rest of the long turn").allSatisfy(q -> assertThat(q).startsWith("Ben: "))
        .anySatisfy(q -> assertThat(q).contains("knee"));
    assertThat(out.get(2).views().questions()).as("alone in its session: no exchange view").isEmpty();
    assertThat(out.get(0).views().questions().get(0)).endsWith("…").contains("Ana: How was your weekend?");
  }
}
