/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.Engram;
import dev.engram.Grants;
import dev.engram.MemoryEntry;
import dev.engram.WriteResult;
import dev.engram.reasoner.DeterministicReasoner;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Schema 12 keeps one content-hash index entry per active version: one unique index over every active
 * version, whose key makes the versions without a path unique per content hash (the rule of schema 2)
 * and leaves versions with a path to the path rule. The lookups by hash and the expected-head lock find
 * holders of either kind, before and after the upgrade, through that index.
 */
class PostgresHashIndexTest {
  private static final String SCOPE = "app/u1";

  private final TestPostgres pg = TestPostgres.get();

  private String schemaAt(int version) {
    String schema = pg.newSchema("hashidx");
    pg.execute("CREATE SCHEMA " + schema);
    pg.execute("CREATE TABLE " + schema + ".engram_schema_history (version integer PRIMARY KEY,"
        + " script text NOT NULL, installed_at timestamptz NOT NULL DEFAULT now())");
    List<String> scripts = PostgresMemoryStore.migrationScripts(schema, "engram_");
    assertThat(scripts).hasSizeGreaterThan(version);
    for (int v = 1; v <= version; v++) {
      pg.execute(scripts.get(v - 1));
      pg.execute("INSERT INTO " + schema + ".engram_schema_history (version, script) VALUES (" + v + ", 'earlier')");
    }
    return schema;
  }

  private void insertVersion(String schema, String id, String path, String hash, String status) {
    pg.execute("INSERT INTO " + schema + ".engram_versions (version_id, entry_id, version, scope, content, topics,"
        + " type, priority, glossary, path, evidence, content_hash, status, created_at, updated_at,"
        + " created_in_revision, search) VALUES ('" + id + "', 'e" + id + "', 1, '" + SCOPE + "', 'Fact " + id
        + "', '{general}', 'fact', 2, '{}', " + (path == null ? "NULL" : "'" + path + "'") + ", '{}', '" + hash
        + "', '" + status + "', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', 3, ''::tsvector)");
  }

  private List<String> indexes(String schema) {
    List<String> out = new ArrayList<>();
    try (Connection c = pg.pool().getConnection(); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT indexname FROM pg_indexes WHERE schemaname = '" + schema
            + "' AND tablename = 'engram_versions'")) {
      while (rs.next()) {
        out.add(rs.getString(1));
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
    return out;
  }

  @Test
  void theUpgradeToSchema12KeepsOneHashIndexEntryPerVersionAndFindsHoldersOfBothKinds() throws SQLException {
    String schema = schemaAt(11);
    pg.execute("INSERT INTO " + schema + ".engram_scope_heads (scope, head) VALUES ('" + SCOPE + "', 3)");
    insertVersion(schema, "v1", null, "h1", "ACTIVE");
    insertVersion(schema, "v2", "notes/a", "h2", "ACTIVE");
    insertVersion(schema, "v3", "notes/b", "h2", "ACTIVE");
    insertVersion(schema, "v4", null, "h3", "RETIRED");
    insertVersion(schema, "v5", "notes/c", "h4", "SUPERSEDED");
    assertThat(indexes(schema)).contains("engram_versions_hash_idx", "engram_versions_unique_active_hash_idx");

    try (PostgresMemoryStore store = PostgresMemoryStore.builder().dataSource(pg.pool()).schema(schema).build();
        Engram engram = Engram.builder().borrowedStore(store).reasoner(new DeterministicReasoner()).build()) {
      assertThat(pg.queryInts("SELECT max(version) FROM " + schema + ".engram_schema_history"))
          .containsExactly(PostgresMemoryStore.schemaVersion());
      assertThat(indexes(schema)).contains("engram_versions_unique_active_hash_idx")
          .doesNotContain("engram_versions_hash_idx");
      assertThat(pg.queryInts("SELECT count(*) FROM " + schema + ".engram_versions WHERE status = 'ACTIVE'"
          + " AND path IS NOT NULL")).containsExactly(2);

      assertThat(store.findActiveByHash(SCOPE, "h1")).map(MemoryEntry::versionId).contains("v1");
      assertThat(store.findActiveByHash(SCOPE, "h2")).map(MemoryEntry::versionId).contains("v3");
      assertThat(store.findActiveByHash(SCOPE, "h3")).isEmpty();
      assertThat(store.findActiveByHash(SCOPE, "h4")).isEmpty();
      Map<String, MemoryEntry> found = store.findActiveByHashes(SCOPE, List.of("h1", "h2", "h3", "h4", "h9"));
      assertThat(found).containsOnlyKeys("h1", "h2");
      assertThat(found.get("h1").versionId()).isEqualTo("v1");
      assertThat(found.get("h2").versionId()).isEqualTo("v3");

      String lock = "SELECT " + schema + ".engram_lock_expected_head";
      assertThat(pg.queryInts(lock + "('" + SCOPE + "', 3, '{h3,h4}')::int")).containsExactly(3);
      assertThat(pg.queryInts(lock + "('" + SCOPE + "', 3, '{h4}')::int")).containsExactly(3);
      for (String hashes : List.of("{h1}", "{h2}", "{h9,h1}", "{h9,h2}")) {
        try (Connection c = pg.pool().getConnection(); Statement st = c.createStatement()) {
          assertThatThrownBy(() -> st.execute(lock + "('" + SCOPE + "', 3, '" + hashes + "')"))
              .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getSQLState()).as(hashes).isEqualTo("EH001"));
        }
      }

      // the rule of schema 2: one active version per content hash among those without a path; versions
      // with a path may share content (with each other and with one without a path)
      assertThatThrownBy(() -> insertVersion(schema, "v6", null, "h1", "ACTIVE"))
          .hasRootCauseInstanceOf(SQLException.class).hasMessageContaining("unique_active_hash_idx");
      insertVersion(schema, "v7", "notes/d", "h1", "ACTIVE");
      insertVersion(schema, "v8", null, "h3", "ACTIVE");
      assertThatThrownBy(() -> insertVersion(schema, "v9", "notes/d", "h5", "ACTIVE"))
          .hasRootCauseInstanceOf(SQLException.class).hasMessageContaining("unique_active_path_idx");
      insertVersion(schema, "v10", null, "h2", "RETIRED");
      insertVersion(schema, "v11", null, "h2", "RETIRED");
      assertThat(store.findActiveByHash(SCOPE, "h1")).map(MemoryEntry::versionId).contains("v7");
      assertThat(store.findActiveByHashes(SCOPE, List.of("h1", "h3")).get("h3").versionId()).isEqualTo("v8");

      Grants grants = Grants.of(SCOPE);
      WriteResult fresh = engram.write(grants, "A fact after the upgrade.");
      assertThat(fresh.outcome()).isEqualTo(WriteResult.Outcome.APPENDED);
      assertThat(engram.write(grants, "A fact after the upgrade.").outcome()).isEqualTo(WriteResult.Outcome.DEDUPED);
      assertThat(pg.queryInts("SELECT count(*) FROM " + schema + ".engram_versions WHERE status = 'ACTIVE'"))
          .containsExactly(6);
    }
  }

  /**
   * On a scope of 22,000 active versions, 2,000 of them with a path, the lookups by one hash and by
   * several, and the lock's checks, are index scans of the one hash index.
   */
  @Test
  void theLookupsByHashUseTheOneHashIndex() throws SQLException {
    String schema = pg.newSchema("hashplan");
    try (PostgresMemoryStore store = PostgresMemoryStore.builder().dataSource(pg.pool()).schema(schema).build()) {
      assertThat(store.findActiveByHash(SCOPE, "h")).isEmpty();
    }
    pg.execute("INSERT INTO " + schema + ".engram_versions (version_id, entry_id, version, scope, content, topics,"
        + " type, priority, glossary, path, evidence, content_hash, status, created_at, updated_at,"
        + " created_in_revision, search) SELECT 'v' || lpad(i::text, 6, '0'), 'e' || i, 1,"
        + " CASE WHEN i % 2 = 0 THEN '" + SCOPE + "' ELSE 'app/u' || (i % 7) END,"
        + " 'Fact ' || i, '{general}', 'fact', 2, '{}', CASE WHEN i % 11 = 0 THEN 'notes/' || i END, '{}',"
        + " md5(i::text) || md5((i + 1)::text), 'ACTIVE', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', 1,"
        + " ''::tsvector FROM generate_series(1, 44000) AS i");
    pg.execute("ANALYZE " + schema + ".engram_versions");
    Sql sql = new Sql(schema, "engram_");
    List<String> plans = new ArrayList<>();
    try (Connection c = pg.pool().getConnection()) {
      try (PreparedStatement ps = c.prepareStatement("EXPLAIN " + sql.findActiveByHash)) {
        ps.setString(1, SCOPE);
        ps.setString(2, "0123");
        plans.add(plan(ps));
      }
      try (PreparedStatement ps = c.prepareStatement("EXPLAIN " + sql.findActiveByHashes)) {
        ps.setString(1, SCOPE);
        ps.setArray(2, c.createArrayOf("text", new Object[] {"0123", "4567"}));
        plans.add(plan(ps));
      }
    }
    for (String plan : plans) {
      assertThat(plan).as(plan).contains("Index Scan using engram_versions_unique_active_hash_idx")
          .doesNotContain("Seq Scan");
    }
  }

  private static String plan(PreparedStatement ps) throws SQLException {
    StringBuilder out = new StringBuilder();
    try (ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        out.append(rs.getString(1)).append('\n');
      }
    }
    return out.toString();
  }
}
