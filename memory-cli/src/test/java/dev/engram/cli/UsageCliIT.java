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
import dev.engram.WriteOptions;
import dev.engram.cli.EngramJar.Result;
import dev.engram.reasoner.DeterministicReasoner;
import dev.engram.spi.ModelCall;
import dev.engram.spi.ModelCallListener;
import dev.engram.spi.Reasoner;
import dev.engram.spi.TagProposal;
import dev.engram.spi.TagRequest;
import dev.engram.store.sqlite.SqliteMemoryStore;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code engram usage}, the packaged jar as a child process over a SQLite file whose application's
 * reasoner made model calls for two tenants on two days: the table and the totals per scope and day, the
 * JSON form, the range of days, a grant that sees only its tenant, and a malformed day (exit 2).
 */
class UsageCliIT {
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  /** Files like the deterministic reasoner, as if each write were one model call of 250 in / 25 out tokens. */
  private static final class Costing implements Reasoner {
    private final DeterministicReasoner rules = new DeterministicReasoner();
    private final ModelCallListener listener;

    Costing(ModelCallListener listener) {
      this.listener = listener;
    }

    @Override
    public Reasoner reportingTo(ModelCallListener to) {
      return new Costing(call -> {
        listener.onModelCall(call);
        to.onModelCall(call);
      });
    }

    @Override
    public boolean usesContext() {
      return false;
    }

    @Override
    public TagProposal tag(TagRequest request) {
      listener.onModelCall(new ModelCall("tag", "openai", "gpt-4.1-mini", 250, 25, false));
      return rules.tag(request);
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

  private void writeOn(String day, String grant, String... contents) {
    Clock clock = Clock.fixed(Instant.parse(day + "T10:00:00Z"), ZoneOffset.UTC);
    try (Engram engram = Engram.builder().store(new SqliteMemoryStore(dir.resolve("memory.db")))
        .reasoner(new Costing(call -> { })).clock(clock).build()) {
      for (String c : contents) {
        engram.write(Grants.of(grant), c, WriteOptions.defaults());
      }
    }
  }

  @Test
  void usagePerScopeAndDayAsATableAsJsonAndForARangeOfDays() throws Exception {
    writeOn("2031-05-06", "app/user/u1", "Ana prefers window seats.", "Ana drinks her coffee black.");
    writeOn("2031-05-07", "app/user/u1", "Ana flies to Oslo on Friday.");
    writeOn("2031-05-07", "app/user/u2", "Ben lives in Lisbon.");

    Result all = ok("usage", store(), "-g", "app/user");
    assertThat(all.out()).startsWith("4 model call(s), 1000 input and 100 output tokens, 0 failed")
        .contains("SCOPE").contains("INPUT").contains("app/user/u1").contains("app/user/u2")
        .contains("2031-05-06").contains("gpt-4.1-mini");
    assertThat(all.out().lines().filter(l -> l.startsWith("app/user/u1")).count()).isEqualTo(2);

    JsonNode u1 = JSON.readTree(ok("usage", "--json", store(), "-g", "app/user/u1").out());
    assertThat(u1.path("total").path("calls").asLong()).isEqualTo(3);
    assertThat(u1.path("rows")).hasSize(2);
    assertThat(u1.path("rows").get(0).path("day").asText()).isEqualTo("2031-05-06");
    assertThat(u1.path("rows").get(0).path("calls").asLong()).isEqualTo(2);
    assertThat(u1.path("rows").get(0).path("inputTokens").asLong()).isEqualTo(500);
    assertThat(u1.path("rows").get(0).path("job").asText()).isEqualTo("tag");

    JsonNode day2 = JSON.readTree(ok("usage", "--json", "--from", "2031-05-07", "--to", "2031-05-07", store(),
        "-g", "app/user").out());
    assertThat(day2.path("total").path("calls").asLong()).isEqualTo(2);
    assertThat(ok("usage", "--exact", store(), "-g", "app/user").out()).startsWith("no model usage recorded");

    Result bad = engram("usage", "--from", "May 6", store(), "-g", "app/user");
    assertThat(bad.exitCode()).as(bad.toString()).isEqualTo(2);
    assertThat(bad.err().strip()).startsWith("engram: --from is 'May 6'; expected a day as yyyy-mm-dd");
  }
}
