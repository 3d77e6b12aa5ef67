/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.adk.example;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The ADK example, run as a reader would run it. */
class AdkMemoryExampleTest {
  @TempDir Path dir;

  @Test
  void theAgentRecallsTheFirstSessionInTheSecondAndForgetsAfterErasure() {
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    AdkMemoryExample.run(dir.resolve("adk.db"), new PrintStream(buf, true, StandardCharsets.UTF_8));
    String out = buf.toString(StandardCharsets.UTF_8);
    System.out.print(out);
    assertThat(out).contains("alice > I live in Grenoble and I prefer Celsius.")
        .contains("assistant < Got it.")
        .contains("assistant calls loadMemory {query=Where do I live?}")
        .contains("memory: alice erased; search finds 0 memories");
    String second = out.substring(out.indexOf("alice > Where do I live?"), out.indexOf("bob > "));
    assertThat(second).contains("assistant < From memory:").contains("I live in Grenoble and I prefer Celsius.");
    String bob = out.substring(out.indexOf("bob > "), out.indexOf("memory: alice erased"));
    assertThat(bob).contains("assistant < I have nothing about that in memory.").doesNotContain("Grenoble");
  }
}
