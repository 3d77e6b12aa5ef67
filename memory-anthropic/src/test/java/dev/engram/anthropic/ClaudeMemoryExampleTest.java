/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.anthropic;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The Claude memory-tool example, run as a reader would run it. */
class ClaudeMemoryExampleTest {
  @TempDir Path dir;

  @Test
  void claudeWritesReadsAndEditsItsMemoryFileAndHistoryKeepsEveryVersion() {
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    ClaudeMemoryExample.run(dir.resolve("claude.db"), new PrintStream(buf, true, StandardCharsets.UTF_8));
    String out = buf.toString(StandardCharsets.UTF_8);
    System.out.print(out);
    assertThat(out).contains("claude uses memory {command=create, path=/memories/user.md")
        .contains("claude < Noted.")
        .contains("claude < You prefer metric units.")
        .contains("claude < Updated: you live in Lyon now.")
        .contains("history: CREATE by agent -> Lives in Grenoble. / Prefers metric units.")
        .contains("history: UPDATE by agent -> Lives in Lyon. / Prefers metric units.")
        .contains("after rollback: Here's the content of /memories/user.md with line numbers: /      1\tLives in "
            + "Grenoble. /      2\tPrefers metric units.");
  }
}
