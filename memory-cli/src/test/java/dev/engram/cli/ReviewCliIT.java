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
import dev.engram.ReviewItem;
import dev.engram.SourceRecord;
import dev.engram.reasoner.DeterministicReasoner;
import dev.engram.spi.IncubateRequest;
import dev.engram.spi.IncubatedExperience;
import dev.engram.spi.Reasoner;
import dev.engram.spi.TagProposal;
import dev.engram.spi.TagRequest;
import dev.engram.cli.EngramJar.Result;
import dev.engram.store.sqlite.SqliteMemoryStore;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code engram review list|show|approve|reject}, the packaged jar as a child process over a SQLite file
 * whose inbox holds two incubated experience items: listed, shown with their diff, one approved (a stale
 * second approval exits 1 with one line naming the conflict), the other rejected with a reason.
 */
class ReviewCliIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String GRANT = "app/user/u1";

  @TempDir Path dir;

  /** Incubates one experience per task outcome, its lesson taken from the outcome's text. */
  private static final class Incubating implements Reasoner {
    private final DeterministicReasoner deterministic = new DeterministicReasoner();

    @Override
    public TagProposal tag(TagRequest request) {
      return deterministic.tag(request);
    }

    @Override
    public boolean incubates() {
      return true;
    }

    @Override
    public List<IncubatedExperience> incubate(IncubateRequest request) {
      return request.window().stream().map(s -> new IncubatedExperience("Running the " + s.sessionId() + " task",
          "Did it the usual way", "It failed", "Lesson about " + s.text(), List.of(s.id()))).toList();
    }
  }

  private Result engram(String... args) {
    return EngramJar.run(dir, args);
  }

  private Result ok(String... args) {
    Result r = engram(args);
    assertThat(r.exitCode()).as(r.toString()).isZero();
    return r;
  }

  private String store() {
    return "--store=sqlite:" + dir.resolve("memory.db");
  }

  @Test
  void listShowApproveAndRejectWithTheExpectedVersion() throws Exception {
    List<ReviewItem> pending;
    try (Engram engram = Engram.builder().store(new SqliteMemoryStore(dir.resolve("memory.db")))
        .reasoner(new Incubating()).build()) {
      engram.captureAll(Grants.of(GRANT), List.of(
          SourceRecord.taskOutcome("deploy", "agent", "deploying the ledger before migrating").id("o-1"),
          SourceRecord.taskOutcome("backup", "agent", "nightly backups of the wiki").id("o-2")));
      pending = engram.experience().incubate(Grants.of(GRANT)).pending();
    }
    String first = pending.get(0).id();
    String second = pending.get(1).id();

    Result list = ok("review", "list", store(), "-g", GRANT);
    assertThat(list.out()).contains(first).contains(second).contains("experience").contains("pending")
        .contains("new experience: Lesson about deploying the ledger before migrating");
    assertThat(ok("review", "list", store(), "-g", "app/user/u2").out()).startsWith("no pending review items");

    Result show = ok("review", "show", first, store(), "-g", GRANT);
    assertThat(show.out()).startsWith("experience item " + first + " in " + GRANT + ": pending, version 1")
        .contains("experience (new) · lesson").contains("  + Lesson about deploying the ledger before migrating");

    Result approved = ok("review", "approve", first, "--version", "1", "--reviewer", "ana", store(), "-g", GRANT);
    assertThat(approved.out()).startsWith("approved " + first + " (experience), now version 2")
        .contains("  experience " + GRANT + "#experience:");
    Result stale = engram("review", "approve", first, "--version", "1", store(), "-g", GRANT);
    assertThat(stale.exitCode()).as(stale.toString()).isEqualTo(1);
    assertThat(stale.err().strip()).startsWith("engram: ").contains("not the expected 1").doesNotContain("Exception");
    assertThat(stale.err().strip().lines()).hasSize(1);

    Result noReason = engram("review", "reject", second, "--version", "1", store(), "-g", GRANT);
    assertThat(noReason.exitCode()).as("--reason is required").isEqualTo(2);
    assertThat(ok("review", "reject", second, "--version", "1", "--reason", "not a lesson", store(), "-g", GRANT)
        .out()).startsWith("rejected " + second + " (experience), now version 2");

    JsonNode all = JSON.readTree(ok("review", "list", "--state", "all", "--json", store(), "-g", GRANT).out());
    assertThat(all).hasSize(2);
    assertThat(all.get(0).get("state").asText()).isEqualTo("APPROVED");
    assertThat(all.get(0).get("decidedBy").asText()).isEqualTo("ana");
    assertThat(all.get(1).get("state").asText()).isEqualTo("REJECTED");
    assertThat(all.get(1).get("reason").asText()).isEqualTo("not a lesson");
    assertThat(ok("review", "list", store(), "-g", GRANT).out()).startsWith("no pending review items");
  }
}
