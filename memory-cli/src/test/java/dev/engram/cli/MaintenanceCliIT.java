/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.engram.Engram;
import dev.engram.Grants;
import dev.engram.SourceRecord;
import dev.engram.cli.EngramJar.Result;
import dev.engram.reasoner.DeterministicReasoner;
import dev.engram.spi.WorkClaim;
import dev.engram.store.sqlite.SqliteMemoryStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code engram curate} and {@code engram flush}, the packaged jar as a child process on a real SQLite file. */
class MaintenanceCliIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String GRANT = "app/user/u1";

  @TempDir Path dir;

  private Result engram(String... args) {
    return EngramJar.run(dir, args);
  }

  private Result ok(String... args) {
    Result r = engram(args);
    assertThat(r.exitCode()).as(r.toString()).isZero();
    return r;
  }

  private Path file() {
    return dir.resolve("memory.db");
  }

  private String store() {
    return "--store=sqlite:" + file();
  }

  /** Three captured turns in the grant's scope, written by an application of its own. */
  private void captureTurns() {
    try (Engram app = Engram.builder().store(new SqliteMemoryStore(file())).reasoner(new DeterministicReasoner())
        .build()) {
      Grants g = Grants.of(GRANT);
      app.capture(g, SourceRecord.of("s1", "Ana", "We moved the launch to May.").id("t1"));
      app.capture(g, SourceRecord.of("s1", "Ben", "Then the budget review moves too.").id("t2"));
      app.capture(g, SourceRecord.of("s1", "Ana", "Agreed, the second week of May.").id("t3"));
      app.write(g, "Prefers metric units.");
    }
  }

  @Test
  void flushExtractsTheCapturedTurnsOnceAndSaysWhatItDid() throws Exception {
    captureTurns();
    Result first = ok("flush", store(), "-g", GRANT, "--embedder", "none");
    assertThat(first.out()).isEqualTo("flushed 1 window in 1 scope: 3 appended, 0 updated, 0 deduped\n  " + GRANT + "\n");
    assertThat(ok("flush", store(), "-g", GRANT, "--embedder", "none").out())
        .isEqualTo("flushed 0 windows in 0 scopes: 0 appended, 0 updated, 0 deduped\n");
    JsonNode entries = JSON.readTree(ok("ls", store(), "-g", GRANT, "--json", "--embedder", "none").out());
    assertThat(entries).hasSize(4);
  }

  @Test
  void flushSkipsAScopeAnotherProcessHasClaimed() throws Exception {
    captureTurns();
    try (SqliteMemoryStore app = new SqliteMemoryStore(file())) {
      List<WorkClaim> held = app.claimPendingSources("app-runner", List.of(GRANT), 1, Duration.ofMinutes(5));
      assertThat(held).hasSize(1);
      Result skipped = ok("flush", store(), "-g", GRANT, "--embedder", "none");
      assertThat(skipped.out()).isEqualTo("flushed 0 windows in 0 scopes: 0 appended, 0 updated, 0 deduped\n"
          + "skipped " + GRANT + ": claimed by another worker\n");
      JsonNode json = JSON.readTree(ok("flush", store(), "-g", GRANT, "--json", "--embedder", "none").out());
      assertThat(json.get("claims").asBoolean()).isTrue();
      assertThat(json.get("scopesClaimedElsewhere").get(0).asText()).isEqualTo(GRANT);
      assertThat(json.get("windows").asInt()).isZero();
      assertThat(app.releaseClaim(held.get(0))).isTrue();
    }
    JsonNode after = JSON.readTree(ok("flush", store(), "-g", GRANT, "--json", "--embedder", "none").out());
    assertThat(after.get("windows").asInt()).isEqualTo(1);
    assertThat(after.get("appended").asInt()).isEqualTo(3);
    assertThat(after.get("scopesFlushed").get(0).asText()).isEqualTo(GRANT);
    assertThat(after.get("failures")).isEmpty();
  }

  @Test
  void curateSaysWhenTheReasonerHasNoCurateStep() throws Exception {
    captureTurns();
    assertThat(ok("curate", store(), "-g", GRANT, "--embedder", "none").out())
        .isEqualTo("nothing curated: the reasoner has no curate step, so dirty topics stay dirty\n");
    JsonNode json = JSON.readTree(ok("curate", store(), "-g", GRANT, "--json", "--embedder", "none").out());
    assertThat(json.get("reasonerCurates").asBoolean()).isFalse();
    assertThat(json.get("topicsCurated")).isEmpty();
  }

  @Test
  void badFlushOptionsAreUsageErrors() {
    captureTurns();
    Result window = engram("flush", store(), "-g", GRANT, "--window", "0", "--embedder", "none");
    assertThat(window.exitCode()).as(window.toString()).isEqualTo(2);
    assertThat(window.err().strip()).startsWith("engram: ").contains("--window").doesNotContain("\n");
    Result noGrant = engram("flush", store());
    assertThat(noGrant.exitCode()).isEqualTo(2);
    assertThat(noGrant.err()).contains("--grant is required");
    Result help = ok("--help");
    assertThat(help.out()).contains("curate").contains("flush");
  }
}
