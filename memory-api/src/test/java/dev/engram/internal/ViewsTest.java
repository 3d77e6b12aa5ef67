/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.spi.EntryViews;
import java.util.List;
import org.junit.jupiter.api.Test;

class ViewsTest {
  private static final String LONG = "We moved to Porto in the spring of last year. The flat is small but it has a balcony. "
      + "My sister visits every other weekend and brings her dog along with her. "
      + "The dog is afraid of the tram, so they walk along the river instead. "
      + "On Sundays we cook together, mostly soups, because the kitchen has only two burners. "
      + "Next year we want to find a place with a garden for the tomatoes we keep talking about. "
      + "The landlord said he might sell, which would settle it anyway. "
      + "We have looked at three houses in Gaia, but each needed a new roof and the commute was long. "
      + "A friend from work knows a builder who could help if we find something old with good walls. "
      + "Until then the balcony holds four pots of basil and one stubborn lemon tree.";

  @Test
  void longContentGetsSentenceChunksAfterTheGistWithinTheCap() {
    EntryViews v = Views.ruleBased(LONG, null, List.of(), null);
    assertThat(v.gist()).isEqualTo("We moved to Porto in the spring of last year.");
    assertThat(v.questions()).hasSize(Views.MAX_QUESTIONS);
    for (String chunk : v.questions()) {
      assertThat(chunk.length()).isLessThanOrEqualTo(Views.CHUNK_CHARS);
      assertThat(chunk).endsWith(".");
      assertThat(LONG).contains(chunk);
    }
    assertThat(v.questions().get(0)).startsWith("The flat is small");
    assertThat(String.join(" ", v.questions())).doesNotContain("lemon tree").as("beyond the cap");
  }

  @Test
  void shortContentHasNoChunksAndQuestionsComeFirst() {
    assertThat(Views.ruleBased("Prefers tea over coffee.", null, List.of(), null).questions()).isEmpty();
    EntryViews v = Views.ruleBased(LONG, "when planning a visit", List.of("Porto"), null);
    assertThat(v.questions()).hasSize(3);
    assertThat(v.questions().get(0)).isEqualTo("What should be remembered when planning a visit?");
    assertThat(v.questions().get(1)).isEqualTo("What is known about Porto?");
    assertThat(v.questions().get(2)).startsWith("The flat is small");
  }
}
