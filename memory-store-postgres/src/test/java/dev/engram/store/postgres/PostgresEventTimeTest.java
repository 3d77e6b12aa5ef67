/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.Engram;
import dev.engram.Grants;
import dev.engram.SearchMode;
import dev.engram.SearchRequest;
import dev.engram.WriteOptions;
import dev.engram.WriteRequest;
import dev.engram.reasoner.DeterministicReasoner;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import dev.engram.tck.EventTimes;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Event time of versions in sortable form: the columns generated from {@code occurred_at} hold its
 * epoch second and nano exactly for every form {@link Instant#toString()} writes, versions of the
 * schema before them get them when the schema is upgraded, and those versions are then found by the
 * event-time filter.
 */
class PostgresEventTimeTest {
  private static final Grants U1 = Grants.of("app/u1");
  private final TestPostgres pg = TestPostgres.get();

  /** Instants of every shape ({@link EventTimes#ofEveryShape}). */
  private static List<Instant> instants() {
    return EventTimes.ofEveryShape(19);
  }

  /** "text second nano" of every version with an event time, by version id. */
  private Map<String, String> columns(String schema) throws SQLException {
    Map<String, String> out = new LinkedHashMap<>();
    try (Connection c = pg.pool().getConnection(); PreparedStatement ps = c.prepareStatement(
        "SELECT version_id, occurred_at, occurred_s, occurred_n FROM " + schema + ".engram_versions"
            + " WHERE occurred_at IS NOT NULL OR occurred_s IS NOT NULL OR occurred_n IS NOT NULL");
        ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        out.put(rs.getString(1), rs.getString(2) + " " + rs.getString(3) + " " + rs.getString(4));
      }
    }
    return out;
  }

  private static String expected(Instant at) {
    return at + " " + at.getEpochSecond() + " " + at.getNano();
  }

  @Test
  void writtenVersionsCarryTheEpochSecondAndNanoOfTheirEventTime() throws SQLException {
    String schema = pg.newSchema("occw");
    List<Instant> all = instants();
    try (PostgresMemoryStore store = PostgresMemoryStore.builder().dataSource(pg.pool()).schema(schema).build();
        Engram engram = Engram.builder().borrowedStore(store).reasoner(new DeterministicReasoner()).build()) {
      List<WriteRequest> writes = new ArrayList<>();
      for (int i = 0; i < all.size(); i++) {
        writes.add(WriteRequest.of("Lantern festival note " + i, WriteOptions.builder().occurredAt(all.get(i)).build()));
      }
      engram.writeAll(U1, writes);
      engram.write(U1, "Lantern festival without a date.");
    }
    assertThat(columns(schema).values()).containsExactlyInAnyOrderElementsOf(
        all.stream().map(PostgresEventTimeTest::expected).toList());
  }

  @Test
  void versionsOfTheEarlierSchemaGetTheColumnsOnUpgradeAndAreFoundByTheFilter() throws SQLException {
    String schema = pg.newSchema("occup");
    pg.execute("CREATE SCHEMA " + schema);
    pg.execute("CREATE TABLE " + schema + ".engram_schema_history (version integer PRIMARY KEY,"
        + " script text NOT NULL, installed_at timestamptz NOT NULL DEFAULT now())");
    List<String> scripts = PostgresMemoryStore.migrationScripts(schema, "engram_").stream()
        .takeWhile(script -> !script.contains("occurred_second")).toList();
    assertThat(scripts).hasSizeLessThan(PostgresMemoryStore.schemaVersion());
    for (int v = 1; v <= scripts.size(); v++) {
      pg.execute(scripts.get(v - 1));
      pg.execute("INSERT INTO " + schema + ".engram_schema_history (version, script) VALUES (" + v + ", 'earlier')");
    }
    Map<String, Instant> versions = new LinkedHashMap<>();
    List<Instant> all = instants();
    for (int i = 0; i < all.size(); i++) {
      versions.put(String.format("v%04d", i), all.get(i));
    }
    Instant from = Instant.parse("2024-01-08T00:00:00Z");
    Instant to = Instant.parse("2024-01-15T00:00:00Z");
    versions.put("vfrom", from);
    versions.put("vinside", Instant.parse("2024-01-14T23:59:59.999999999Z"));
    versions.put("vto", to);
    versions.put("vbefore", Instant.parse("2024-01-07T23:59:59.999999999Z"));
    try (Connection c = pg.pool().getConnection(); PreparedStatement ps = c.prepareStatement("INSERT INTO " + schema
        + ".engram_versions (version_id, entry_id, version, scope, content, topics, type, priority, glossary, evidence,"
        + " content_hash, status, created_at, updated_at, created_in_revision, occurred_at, search) VALUES (?, ?, 1,"
        + " 'app/u1', ?, '{general}', 'fact', 2, '{}', '{}', ?, 'ACTIVE', '2026-01-01T00:00:00Z',"
        + " '2026-01-01T00:00:00Z', 1, ?, to_tsvector('simple', ?))")) {
      int n = 0;
      for (Map.Entry<String, Instant> v : versions.entrySet()) {
        String content = "Lantern festival note " + n++;
        ps.setString(1, v.getKey());
        ps.setString(2, "e" + v.getKey());
        ps.setString(3, content);
        ps.setString(4, "h" + v.getKey());
        ps.setString(5, v.getValue().toString());
        ps.setString(6, content);
        ps.addBatch();
      }
      ps.executeBatch();
    }
    try (PostgresMemoryStore store = PostgresMemoryStore.builder().dataSource(pg.pool()).schema(schema).build();
        Engram engram = Engram.builder().borrowedStore(store).reasoner(new DeterministicReasoner()).build()) {
      assertThat(engram.search(U1, SearchRequest.builder("lantern festival").mode(SearchMode.FTS).limit(50)
          .occurredBetween(from, to).build()).hits())
          .extracting(h -> h.entry().versionId()).containsExactlyInAnyOrder("vfrom", "vinside");
      Instant far = Instant.parse("+12345-06-07T08:09:10.123456Z");
      assertThat(engram.search(U1, SearchRequest.builder("lantern festival").mode(SearchMode.FTS).limit(50)
          .occurredBetween(far, far.plusNanos(1)).build()).hits()).singleElement()
          .satisfies(h -> assertThat(h.entry().occurredAt()).isEqualTo(far));
    }
    Map<String, String> columns = columns(schema);
    assertThat(columns).hasSize(versions.size());
    for (Map.Entry<String, Instant> v : versions.entrySet()) {
      assertThat(columns.get(v.getKey())).isEqualTo(expected(v.getValue()));
    }
  }
}
