/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.engram.cli.EngramJar.Result;
import dev.engram.store.postgres.TestPostgres;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The jar against PostgreSQL: the server named by {@code ENGRAM_PG_URL}, or an embedded one (the shared
 * {@link TestPostgres} of memory-store-postgres), in a fresh schema.
 */
class PostgresCliIT {
  private static final String GRANT = "app/user/u1";
  private static String base;
  private static String schema;
  private static String url;

  @TempDir Path dir;

  @BeforeAll
  static void start() {
    TestPostgres pg = TestPostgres.get();
    base = pg.jdbcUrl();
    schema = pg.newSchema("cli");
    pg.execute("CREATE SCHEMA " + schema);
    url = base + (base.contains("?") ? "&" : "?") + "currentSchema=" + schema;
  }

  @AfterAll
  static void stop() {
    if (schema != null) {
      TestPostgres.get().execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
    }
  }

  private Result ok(String... args) {
    Result r = EngramJar.run(dir, args);
    assertThat(r.exitCode()).as(r.toString()).isZero();
    return r;
  }

  @Test
  void writesListsAndChecksAPostgresStore() throws Exception {
    String store = "--store=postgres:" + url;
    ok("write", store, "-g", GRANT, "--topic", "preferences", "Prefers window seats.");
    assertThat(ok("ls", store, "-g", GRANT).out()).contains("Prefers window seats.");

    Result doctor = ok("doctor", store);
    assertThat(doctor.out()).startsWith("postgres:jdbc:postgresql://").doesNotContain("password")
        .contains("OK    schema     schema version " + dev.engram.store.postgres.PostgresMemoryStore.schemaVersion())
        .contains("OK    integrity  database check passed: orphaned vector and topic rows")
        .contains("version chains consistent in 1 scope(s)").endsWith("healthy\n");

    JsonNode stats = new ObjectMapper().readTree(ok("stats", store, "--json").out());
    assertThat(stats.get("scopes").asInt()).isEqualTo(1);
    assertThat(stats.get("active").asInt()).isEqualTo(1);
    assertThat(stats.get("dirtyTopics").asInt()).isEqualTo(1);
  }
}
