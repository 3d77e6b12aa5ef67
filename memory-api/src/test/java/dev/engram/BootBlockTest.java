/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class BootBlockTest {
  @Test
  void bootPathsAreTheFixedNodesAndOneNodePerValidRuntimeId() {
    assertThat(BootBlock.isBootPath("core://agent")).isTrue();
    assertThat(BootBlock.isBootPath("core://soul")).isTrue();
    assertThat(BootBlock.isBootPath("preferences://user")).isTrue();
    assertThat(BootBlock.isBootPath("core://agent/codex")).isTrue();
    assertThat(BootBlock.isBootPath("core://agent/a-new-runtime")).isTrue();
    assertThat(BootBlock.isBootPath(BootBlock.bootPath("vim"))).isTrue();
    for (String not : new String[] {"core://agent/codex/notes", "core://agent/Codex", "core://agent/", "core://agents",
        "project://core/agent", "core://agent/" + "x".repeat(33)}) {
      assertThat(BootBlock.isBootPath(not)).as(not).isFalse();
    }
    assertThat(BootBlock.isBootPath(null)).isFalse();
    assertThatThrownBy(() -> BootBlock.bootPath("a/b")).isInstanceOf(InvalidInputException.class);
  }
}
