/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.Engram;
import dev.engram.Grants;
import dev.engram.ImportOptions;
import dev.engram.SearchMode;
import dev.engram.SearchRequest;
import dev.engram.reasoner.DeterministicReasoner;
import java.io.StringReader;
import java.io.StringWriter;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Searches right after a bulk write or an import are planned on real row counts (the planner's estimate
 * for a scope's active versions matches what is there, not the guess it makes for a never-analyzed
 * table, which at larger sizes turns the full-text search into seconds-long plans): the store refreshes
 * the planner statistics itself once enough versions were committed, instead of leaving the freshly
 * filled tables to autovacuum (whose first pass may come a minute later) with the statistics of empty
 * tables.
 */
class PostgresPlanStatisticsTest {
  private static final Grants U1 = Grants.of("app/user/u1");
  private final TestPostgres pg = TestPostgres.get();

  private static String note(int i) {
    return "Note " + i + " about " + Integer.toString(i * 7919, 36) + " and " + Integer.toString(i * 104729, 36)
        + (i % 50 == 0 ? " mentions the rare word zeppelin" : "");
  }

  /** pg_class.reltuples of a table: -1 (or 0) until the table was analyzed or vacuumed. */
  private double reltuples(String schema, String table) throws SQLException {
    try (Connection c = pg.pool().getConnection(); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT reltuples FROM pg_class WHERE oid = '" + schema + "."
            + PostgresMemoryStore.DEFAULT_TABLE_PREFIX + table + "'::regclass")) {
      rs.next();
      return rs.getDouble(1);
    }
  }

  /** The planner's row estimate for the active versions of one scope (what every search filters on). */
  private long estimatedRows(String schema) throws SQLException {
    try (Connection c = pg.pool().getConnection(); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("EXPLAIN SELECT version_id FROM " + schema + "."
            + PostgresMemoryStore.DEFAULT_TABLE_PREFIX + "versions WHERE scope = 'app/user/u1' AND status = 'ACTIVE'")) {
      rs.next();
      Matcher m = Pattern.compile("rows=(\\d+)").matcher(rs.getString(1));
      assertThat(m.find()).isTrue();
      return Long.parseLong(m.group(1));
    }
  }

  @Test
  void aBulkWriteAndAnImportLeaveStatisticsThatPlanSearchesOnTheIndex() throws Exception {
    String source = pg.newSchema("bulk");
    String target = pg.newSchema("imported");
    int n = PostgresMemoryStore.ANALYZE_AFTER_VERSIONS + 100;
    StringWriter exported = new StringWriter();
    try (PostgresMemoryStore store = PostgresMemoryStore.builder().dataSource(pg.pool()).schema(source).build();
        Engram engram = Engram.builder().store(store).reasoner(new DeterministicReasoner()).build()) {
      assertThat(reltuples(source, "versions")).isLessThanOrEqualTo(0);
      for (int i = 0; i < n; i++) {
        engram.write(U1, note(i));
      }
      assertThat(reltuples(source, "versions")).isGreaterThanOrEqualTo(PostgresMemoryStore.ANALYZE_AFTER_VERSIONS);
      assertThat(estimatedRows(source)).isBetween(n * 8L / 10, n * 12L / 10);
      engram.operator().export(U1, exported);
    }
    try (PostgresMemoryStore store = PostgresMemoryStore.builder().dataSource(pg.pool()).schema(target).build();
        Engram engram = Engram.builder().store(store).reasoner(new DeterministicReasoner()).build()) {
      assertThat(reltuples(target, "versions")).isLessThanOrEqualTo(0);
      engram.operator().importFrom(U1, new StringReader(exported.toString()), ImportOptions.defaults());
      assertThat(reltuples(target, "versions")).isGreaterThanOrEqualTo(PostgresMemoryStore.ANALYZE_AFTER_VERSIONS);
      assertThat(reltuples(target, "version_topics")).isGreaterThanOrEqualTo(PostgresMemoryStore.ANALYZE_AFTER_VERSIONS);
      assertThat(estimatedRows(target)).isBetween(n * 8L / 10, n * 12L / 10);
      List<String> hits = new ArrayList<>();
      engram.search(U1, SearchRequest.builder("zeppelin").mode(SearchMode.FTS).limit(50).build()).hits()
          .forEach(h -> hits.add(h.entry().content()));
      assertThat(hits).hasSize(n / 50 + (n % 50 == 0 ? 0 : 1)).allMatch(c -> c.contains("zeppelin"));
    }
  }

  /**
   * The refresh cadence counts from the table's size when a store opens, not from zero: a process that
   * opens a filled table does not analyze it after every few hundred versions it writes. The marker is
   * {@code reltuples}, which an {@code ANALYZE} of these small tables sets to their exact row count.
   */
  @Test
  void aStoreOpenedOnAFilledTableRefreshesAfterAFifthOfItNotAfterItsFirstFewHundredVersions() throws Exception {
    String schema = pg.newSchema("reopened");
    int filled = 10 * PostgresMemoryStore.ANALYZE_AFTER_VERSIONS;
    try (PostgresMemoryStore store = PostgresMemoryStore.builder().dataSource(pg.pool()).schema(schema).build();
        Engram engram = Engram.builder().store(store).reasoner(new DeterministicReasoner()).build()) {
      for (int b = 0; b < filled / 500; b++) {
        List<dev.engram.WriteRequest> batch = new ArrayList<>();
        for (int i = 0; i < 500; i++) {
          batch.add(dev.engram.WriteRequest.of(note(b * 500 + i)));
        }
        engram.writeAll(U1, batch);
      }
    }
    try (Connection c = pg.pool().getConnection(); Statement st = c.createStatement()) {
      st.execute("ANALYZE " + schema + "." + PostgresMemoryStore.DEFAULT_TABLE_PREFIX + "versions");
    }
    assertThat(reltuples(schema, "versions")).isEqualTo(filled);
    int more = PostgresMemoryStore.ANALYZE_AFTER_VERSIONS + 100;
    try (PostgresMemoryStore store = PostgresMemoryStore.builder().dataSource(pg.pool()).schema(schema).build();
        Engram engram = Engram.builder().store(store).reasoner(new DeterministicReasoner()).build()) {
      List<dev.engram.WriteRequest> batch = new ArrayList<>();
      for (int i = 0; i < more; i++) {
        batch.add(dev.engram.WriteRequest.of(note(filled + i)));
      }
      engram.writeAll(U1, batch);
      assertThat(reltuples(schema, "versions")).as("no refresh after %d of %d versions", more, filled)
          .isEqualTo(filled);
      batch.clear();
      for (int i = 0; i < filled / 5; i++) {
        batch.add(dev.engram.WriteRequest.of(note(filled + more + i)));
      }
      engram.writeAll(U1, batch);
      assertThat(reltuples(schema, "versions")).as("refreshed once a fifth of the table was written")
          .isEqualTo(filled + more + filled / 5);
    }
  }
}
