/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.examples.langchain4j;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.Engram;
import dev.engram.Grants;
import dev.engram.MemoryEntry;
import dev.engram.reasoner.DeterministicReasoner;
import dev.engram.store.sqlite.SqliteMemoryStore;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LangChain4jAssistantTest {
  @Test
  void eachUserGetsTheirOwnMemory(@TempDir Path dir) {
    try (Engram engram = Engram.builder().store(new SqliteMemoryStore(dir.resolve("memory.db")))
        .reasoner(new DeterministicReasoner()).build()) {
      List<String> transcript = LangChain4jAssistant.run(engram, new RuleBasedChatModel());
      assertThat(transcript).containsExactly(
          "alice> Remember: my dentist appointment is on Friday at 9.",
          "assistant> Noted (remembered).",
          "bob> When is my dentist appointment?",
          "assistant> I have nothing remembered about that.",
          "alice> When is my dentist appointment?",
          "assistant> From memory: my dentist appointment is on Friday at 9.");
      assertThat(engram.list(Grants.of("app/user/alice"))).extracting(MemoryEntry::content)
          .containsExactly("my dentist appointment is on Friday at 9.");
      assertThat(engram.list(Grants.of("app/user/bob"))).isEmpty();
      // the conversations are captured sources, each under its user's grants
      assertThat(engram.sources(Grants.of("app/user/alice"), dev.engram.SourceQuery.session("alice")))
          .extracting(dev.engram.CapturedSource::text).contains("From memory: my dentist appointment is on Friday at 9.");
      assertThat(engram.sources(Grants.of("app/user/bob"), dev.engram.SourceQuery.session("bob")))
          .extracting(dev.engram.CapturedSource::text).contains("I have nothing remembered about that.")
          .noneMatch(t -> t.contains("Friday"));
    }
  }
}
