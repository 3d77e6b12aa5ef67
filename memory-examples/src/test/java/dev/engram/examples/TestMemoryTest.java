/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.Engram;
import dev.engram.ErrorCode;
import dev.engram.Grants;
import dev.engram.SearchMode;
import dev.engram.StoreException;
import dev.engram.WriteResult;
import dev.engram.store.sqlite.SqliteMemoryStore;
import dev.engram.test.EngramExtension;
import dev.engram.test.HashingEmbedder;
import dev.engram.test.ScriptedReasoner;
import dev.engram.test.SteppingClock;
import dev.engram.test.TestMemory;
import dev.engram.test.TestMemoryOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** memory-test: a fresh, deterministic memory per test, from the factory and from the JUnit 5 extension. */
class TestMemoryTest {
  private static final Grants U1 = Grants.of("app/user/u1");

  @Test
  void theFactoryGivesAnEmptyEngineWithTheSteppingClockScriptedReasonerAndHashingEmbedder() {
    Engram engram;
    try (TestMemory memory = TestMemory.create()) {
      engram = memory.engram();
      Instant next = memory.clock().peek();
      assertThat(next).isEqualTo(Instant.parse("2030-01-01T00:00:00Z"));
      WriteResult w = engram.write(U1, "Prefers metric units.");
      assertThat(w.entry().createdAt()).isAfterOrEqualTo(next).isBefore(next.plusSeconds(60));
      assertThat(memory.reasoner().tagRequests()).singleElement()
          .satisfies(r -> assertThat(r.content()).isEqualTo("Prefers metric units."));
      assertThat(engram.search(U1, "metric").used()).isEqualTo(SearchMode.HYBRID);
      assertThat(memory.embedder().calls()).isPositive();
    }
    assertThatThrownBy(() -> engram.list(U1)).as("closed with the memory")
        .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.STORE_CLOSED));
  }

  @Test
  void twoRunsSeeTheSameTimes() {
    Instant first;
    try (TestMemory a = TestMemory.create()) {
      first = a.engram().write(U1, "One fact.").entry().createdAt();
    }
    try (TestMemory b = TestMemory.create()) {
      assertThat(b.engram().write(U1, "One fact.").entry().createdAt()).isEqualTo(first);
    }
  }

  @Test
  void optionsNameTheStoreTheClockAndTheEmbedder(@TempDir Path dir) {
    Path file = dir.resolve("test.db");
    TestMemoryOptions options = TestMemoryOptions.builder().store("sqlite:" + file)
        .clock(Instant.parse("2031-05-01T08:00:00Z"), Duration.ofMinutes(1)).withoutEmbedder().build();
    try (TestMemory memory = TestMemory.create(options)) {
      assertThat(memory.clock().peek()).isEqualTo(Instant.parse("2031-05-01T08:00:00Z"));
      memory.engram().write(U1, "Kept in a file.");
      assertThat(memory.engram().search(U1, "file").used()).as("no embedder").isEqualTo(SearchMode.FTS);
    }
    try (SqliteMemoryStore store = new SqliteMemoryStore(file)) {
      assertThat(store.hasScope("app/user/u1")).isTrue();
    }
  }

  /** Each test of the class gets its own memory, whatever ran before. */
  @Nested
  @ExtendWith(EngramExtension.class)
  class WithTheExtension {
    private Engram fromBeforeEach;

    @BeforeEach
    void setUp(Engram engram) {
      fromBeforeEach = engram;
    }

    @RepeatedTest(2)
    void everyTestStartsEmpty(Engram engram, ScriptedReasoner reasoner, SteppingClock clock, HashingEmbedder embedder,
        TestMemory memory) {
      assertThat(engram).isSameAs(fromBeforeEach).isSameAs(memory.engram());
      assertThat(reasoner).isSameAs(memory.reasoner());
      assertThat(clock).isSameAs(memory.clock());
      assertThat(embedder).isSameAs(memory.embedder());
      assertThat(engram.list(U1)).isEmpty();
      assertThat(engram.write(U1, "Written by every test.").outcome()).isEqualTo(WriteResult.Outcome.APPENDED);
    }
  }

  /** Registered with options. */
  @Nested
  class WithOptions {
    @RegisterExtension
    final EngramExtension memory = EngramExtension.with(TestMemoryOptions.builder().withoutEmbedder().build());

    @Test
    void theOptionsApply(Engram engram) {
      engram.write(U1, "Full text only.");
      assertThat(engram.search(U1, "text").used()).isEqualTo(SearchMode.FTS);
    }
  }
}
