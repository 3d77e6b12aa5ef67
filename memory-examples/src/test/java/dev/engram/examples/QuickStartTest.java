/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.embeddings.e5.E5SmallEmbedder;
import dev.engram.spi.MemoryStore;
import dev.engram.store.inmemory.InMemoryMemoryStore;
import dev.engram.store.sqlite.SqliteMemoryStore;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class QuickStartTest {
  private static E5SmallEmbedder embedder;

  @BeforeAll
  static void loadModel() {
    embedder = new E5SmallEmbedder();
  }

  private static String run(MemoryStore store) {
    ByteArrayOutputStream buf = new ByteArrayOutputStream();
    QuickStart.run(store, embedder, new PrintStream(buf, true, StandardCharsets.UTF_8));
    return buf.toString(StandardCharsets.UTF_8);
  }

  @Test
  void walkThroughShowsEveryStep() {
    String out = run(new InMemoryMemoryStore());
    assertThat(out)
        .contains("APPENDED  [ACTIVE v1 r1 [preferences]] Prefers metric units.")
        .contains("DEDUPED  revision still 3")
        .contains("[ACTIVE v2 r4 [preferences]] Prefers imperial units.")
        .contains("r1 CREATE: - -> Prefers metric units.")
        .contains("r4 UPDATE: Prefers metric units. -> Prefers imperial units.")
        .contains("[RETIRED v2 r4 [preferences]] Prefers imperial units.")
        .contains("active preferences now: 0")
        .contains("[SUPERSEDED v1 r1 [preferences]] Prefers metric units.")
        .contains("== scope revision: 5")
        .contains("\"what gym equipment is available at home?\" (HYBRID)\n    [FTS, VECTOR] Owns dumbbells and a bench.")
        .contains("\"Which weights do I own for home workouts?\" (HYBRID)\n    [VECTOR] Owns dumbbells and a bench.")
        .contains("READY, ")
        .contains("<<<BEGIN UNTRUSTED MEMORY>>>")
        .contains("Owns dumbbells and a bench.")
        .doesNotContain("remembered from an earlier run");
    String search = out.substring(out.indexOf("== hybrid search"), out.indexOf("== prepared context"));
    assertThat(search).doesNotContain("imperial");
  }

  @Test
  void memoryInASqliteFileSurvivesARestart(@TempDir Path dir) {
    Path file = dir.resolve("memory.db");
    String first = run(new SqliteMemoryStore(file));
    assertThat(first).doesNotContain("remembered from an earlier run").contains("(HYBRID)");
    String second = run(new SqliteMemoryStore(file));
    assertThat(second).contains("== remembered from an earlier run: 2 active entries")
        .contains("APPENDED  [ACTIVE v1 r");
  }

  /** The README's first command, as a child process with the demo's own logging: no line at WARN or above. */
  @Test
  void theDemoPrintsNoWarningsAtItsDefaultLogging(@TempDir Path dir) throws Exception {
    String classpath = System.getProperty("engram.classes") + java.io.File.pathSeparator + ReadmeTest.classpath();
    Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
        "-cp", classpath, QuickStart.class.getName()).directory(dir.toFile()).start();
    p.getOutputStream().close();
    java.util.concurrent.CompletableFuture<String> err = java.util.concurrent.CompletableFuture.supplyAsync(() -> {
      try {
        return new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
      } catch (java.io.IOException e) {
        return e.toString();
      }
    });
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(120, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(err.join()).isZero();
    assertThat(out).contains("== prepared context").contains("== curate");
    assertThat(err.join()).as("stderr of the demo").doesNotContain("WARN").doesNotContain("ERROR")
        .doesNotContain("SLF4J(W)");
  }
}
