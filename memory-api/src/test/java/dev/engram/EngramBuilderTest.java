/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.spi.Reasoner;
import dev.engram.spi.TagProposal;
import org.junit.jupiter.api.Test;

class EngramBuilderTest {
  private final Reasoner reasoner = request -> new TagProposal(request.grants().get(0), request.topicsHint(), EntryType.FACT,
      request.content(), null);

  @Test
  void buildWithoutStoreOrReasonerNamesTheMissingSetting() {
    assertThatThrownBy(() -> Engram.builder().reasoner(reasoner).build())
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("store is required");
  }

  @Test
  void settingsCannotBeGivenTwiceOrOutOfRange() {
    assertThatThrownBy(() -> Engram.builder().reasoner(reasoner).reasoner(reasoner))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("reasoner was already set");
    assertThatThrownBy(() -> Engram.builder().maxContentBytes(10))
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("maxContentBytes");
    assertThatThrownBy(() -> Engram.builder().priorityCaps(-1, 3))
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("priority caps");
  }
}
