/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.agent;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.InvalidInputException;
import org.junit.jupiter.api.Test;

class AgentRuntimeTest {
  @Test
  void runtimesAreOpenIdsWithTheirOwnBootNode() {
    assertThat(AgentRuntime.of("my-agent-2").bootPath()).isEqualTo("core://agent/my-agent-2");
    assertThat(AgentRuntime.CLAUDE_CODE.bootPath()).isEqualTo("core://agent/claudecode");
    assertThat(AgentRuntime.of("codex")).isEqualTo(AgentRuntime.CODEX);
    for (String bad : new String[] {"", "Codex", "9", "a b", "a/b", "../x", "x".repeat(33)}) {
      assertThatThrownBy(() -> AgentRuntime.of(bad)).as(bad).isInstanceOf(InvalidInputException.class)
          .hasMessageContaining("runtime");
    }
  }

  @Test
  void aDisplayNameNamesAKnownRuntimeByItsJoinedNameOrFirstWord() {
    assertThat(AgentRuntime.known("claude-code")).isEqualTo(AgentRuntime.CLAUDE_CODE);
    assertThat(AgentRuntime.known("Claude Code")).isEqualTo(AgentRuntime.CLAUDE_CODE);
    assertThat(AgentRuntime.known("codex-mcp-client")).isEqualTo(AgentRuntime.CODEX);
    assertThat(AgentRuntime.known("some editor")).isNull();
    assertThat(AgentRuntime.known(null)).isNull();
  }
}
