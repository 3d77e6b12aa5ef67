/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.examples.springai;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SpringAiChatAppTest {
  @Test
  void eachUserGetsTheirOwnMemoryAndItLastsInTheFile(@TempDir Path dir) {
    String store = "--engram.store=sqlite:" + dir.resolve("memory.db");
    List<String> first = SpringAiChatApp.run(store);
    assertThat(first).containsExactly(
        "alice> Remember: I keep my bike in the blue shed.",
        "assistant> Noted (remembered).",
        "bob> Where is my bike?",
        "assistant> I have nothing remembered about that.",
        "alice> Where is my bike?",
        "assistant> From memory: I keep my bike in the blue shed.");
    assertThat(dir.resolve("memory.db")).exists();

    // a second run on the same file: alice's write is a duplicate, her memory is still there
    List<String> second = SpringAiChatApp.run(store);
    assertThat(second.get(5)).isEqualTo("assistant> From memory: I keep my bike in the blue shed.");
    assertThat(second.get(3)).isEqualTo("assistant> I have nothing remembered about that.");
  }
}
