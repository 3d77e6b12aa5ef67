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

    // both runs' conversations are in the file as captured sources, each user's under their own grants
    try (dev.engram.Engram engram = dev.engram.Engram.builder()
        .store(new dev.engram.store.sqlite.SqliteMemoryStore(dir.resolve("memory.db")))
        .reasoner(new dev.engram.reasoner.DeterministicReasoner()).build()) {
      assertThat(engram.sources(dev.engram.Grants.of("app/user/alice"), dev.engram.SourceQuery.session("alice")))
          .extracting(dev.engram.CapturedSource::text)
          .contains("Remember: I keep my bike in the blue shed.", "From memory: I keep my bike in the blue shed.");
      assertThat(engram.sources(dev.engram.Grants.of("app/user/bob"), dev.engram.SourceQuery.defaults()))
          .extracting(dev.engram.CapturedSource::text).doesNotContain("Remember: I keep my bike in the blue shed.");
    }
  }
}
