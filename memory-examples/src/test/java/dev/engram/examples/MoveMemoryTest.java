/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.examples;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.ChangeOptions;
import dev.engram.Engram;
import dev.engram.Grants;
import dev.engram.ListOptions;
import dev.engram.MemoryEntry;
import dev.engram.TransferReport;
import dev.engram.WriteOptions;
import dev.engram.reasoner.DeterministicReasoner;
import dev.engram.spi.MemoryStore;
import dev.engram.store.postgres.PostgresMemoryStore;
import dev.engram.store.sqlite.SqliteMemoryStore;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Exporting from SQLite and importing into PostgreSQL gives identical audit listings, histories and scans. */
class MoveMemoryTest {
  private static EmbeddedPostgres postgres;
  private static String url;

  @BeforeAll
  static void startPostgres() throws Exception {
    String external = System.getenv("ENGRAM_PG_URL");
    if (external != null && !external.isBlank()) {
      url = external.trim();
    } else {
      postgres = EmbeddedPostgres.builder().start();
      url = postgres.getJdbcUrl("postgres", "postgres");
    }
  }

  @AfterAll
  static void stopPostgres() throws Exception {
    if (postgres != null) {
      postgres.close();
    }
  }

  @Test
  void sqliteToPostgresKeepsEverything(@TempDir Path dir) {
    Grants grants = Grants.of("app/user/u1", "app/team/t1");
    Grants u1 = Grants.of("app/user/u1");
    try (MemoryStore sqlite = new SqliteMemoryStore(dir.resolve("memory.db"));
        MemoryStore pg = PostgresMemoryStore.builder().jdbcUrl(url).schema("move_" + System.nanoTime()).build()) {
      Engram source = Engram.builder().store(sqlite).reasoner(new DeterministicReasoner()).build();
      MemoryEntry units = source.write(u1, "Prefers metric units.", WriteOptions.builder().topicsHint("preferences").build()).entry();
      source.write(u1, "Runs on Tuesdays; it's 'sacred' -- don't book meetings.", WriteOptions.builder()
          .topicsHint("schedule", "core").priority(1).disclosure("When scheduling").glossary("tuesday run")
          .path("profile/schedule").source("agent:coach").evidence("chat:7").build());
      MemoryEntry fixed = source.correct(u1, units.entryId(), "Prefers imperial units.", ChangeOptions.reason("moved to the US"));
      source.retire(u1, fixed.citation(), "asked to forget");
      source.write(Grants.of("app/team/t1"), "Stand-up at 09:30 🙂", WriteOptions.builder().topicsHint("rituals").build());

      TransferReport report = MoveMemory.move(sqlite, pg, dir.resolve("export.jsonl"), grants);
      assertThat(report.scopes()).containsExactlyInAnyOrder("app/user/u1", "app/team/t1");
      assertThat(report.versions()).isEqualTo(4);

      Engram target = Engram.builder().store(pg).reasoner(new DeterministicReasoner()).build();
      ListOptions all = ListOptions.builder().includeSuperseded(true).build();
      assertThat(target.list(grants, all)).isEqualTo(source.list(grants, all));
      assertThat(target.scan(grants)).isEqualTo(source.scan(grants));
      Set<String> ids = new LinkedHashSet<>();
      source.list(grants, all).forEach(e -> ids.add(e.entryId()));
      for (String id : ids) {
        assertThat(target.history(grants, id)).isEqualTo(source.history(grants, id));
      }
      for (String scope : List.of("app/user/u1", "app/team/t1")) {
        assertThat(target.changes(grants, scope, 0)).isEqualTo(source.changes(grants, scope, 0));
      }
    }
  }
}
