/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.Engram;
import dev.engram.Grants;
import dev.engram.SearchMode;
import dev.engram.SearchRequest;
import dev.engram.reasoner.DeterministicReasoner;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import dev.engram.tck.EventTimes;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Event time of versions in sortable form: a database of the schema before it gets the columns from
 * each version's {@code occurred_at} text exactly (every form {@link Instant#toString()} writes), its
 * versions are then found by the event-time filter, and a filtered full-text search is the unfiltered
 * ranking restricted to the interval.
 */
class SqliteEventTimeTest {
  private static final Grants U1 = Grants.of("app/user/u1");

  @TempDir
  Path dir;

  /** Instants of every shape ({@link EventTimes#ofEveryShape}). */
  static List<Instant> instants() {
    return EventTimes.ofEveryShape(17);
  }

  private static String versionRow(String id, String content, Instant occurred) {
    return "INSERT INTO versions (version_id, entry_id, version, previous_version_id, scope, content, topics, type,"
        + " priority, disclosure, glossary, path, source, evidence, content_hash, status, superseded_by, created_at,"
        + " updated_at, created_in_revision, occurred_at) VALUES ('v" + id + "', 'e" + id + "', 1, NULL, 'app/user/u1', '"
        + content + "', '[\"general\"]', 'fact', 2, NULL, '[]', NULL, NULL, '[]', 'h" + id
        + "', 'ACTIVE', NULL, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', 1, '" + occurred + "')";
  }

  /** The statement that indexed the versions noted in fts_pending (schemas 10 and 11). */
  private static final String INDEX_NOTED = "INSERT INTO versions_fts (rowid, content, glossary, disclosure, topics,"
      + " scope_key) SELECT v.seq, engram_fts_terms(substr(v.content, 1, 262144)),"
      + " engram_fts_terms((SELECT group_concat(value, ' ') FROM json_each(v.glossary))), engram_fts_terms(v.disclosure),"
      + " engram_fts_terms((SELECT group_concat(value, ' ') FROM json_each(v.topics) WHERE value <> 'general')),"
      + " 'k' || lower(hex(v.scope)) FROM fts_pending p CROSS JOIN versions v ON v.seq = p.seq"
      + " WHERE v.status = 'ACTIVE' ORDER BY p.seq";

  /** A database at the schema before event-time columns, holding one version per instant. */
  private Path databaseBeforeEventTimeColumns(Map<String, Instant> versions) throws Exception {
    Path db = dir.resolve("earlier.db");
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement st = c.createStatement()) {
      EarlierSchemas.upTo(c, "__versions_occurred_at.sql");
      st.execute("INSERT INTO revisions VALUES ('app/user/u1', 1, '[]', '2026-01-01T00:00:00Z')");
      c.setAutoCommit(false);
      int n = 0;
      for (Map.Entry<String, Instant> v : versions.entrySet()) {
        st.execute(versionRow(v.getKey(), "Lantern festival note " + n++, v.getValue()));
      }
      // as the store of these schemas did before each commit: index the versions the triggers noted
      st.execute(INDEX_NOTED);
      st.execute("DELETE FROM fts_pending");
      c.commit();
    }
    return db;
  }

  @Test
  void versionsOfTheEarlierSchemaGetExactEventTimeColumnsAndAreFoundByTheFilter() throws Exception {
    Map<String, Instant> versions = new LinkedHashMap<>();
    List<Instant> all = instants();
    for (int i = 0; i < all.size(); i++) {
      versions.put(String.format("%04d", i), all.get(i));
    }
    Instant from = Instant.parse("2024-01-08T00:00:00Z");
    Instant to = Instant.parse("2024-01-15T00:00:00Z");
    versions.put("from", from);
    versions.put("inside", Instant.parse("2024-01-14T23:59:59.999999999Z"));
    versions.put("to", to);
    versions.put("before", Instant.parse("2024-01-07T23:59:59.999999999Z"));
    Path db = databaseBeforeEventTimeColumns(versions);

    try (SqliteMemoryStore store = new SqliteMemoryStore(db);
        Engram e = Engram.builder().store(store).reasoner(new DeterministicReasoner()).build()) {
      for (SearchMode mode : new SearchMode[] {SearchMode.FTS, SearchMode.AUTO}) {
        assertThat(e.search(U1, SearchRequest.builder("lantern festival").mode(mode).limit(50)
            .occurredBetween(from, to).build()).hits()).as("%s", mode)
            .extracting(h -> h.entry().versionId()).containsExactlyInAnyOrder("vfrom", "vinside");
      }
      Instant far = Instant.parse("+12345-06-07T08:09:10.123456Z");
      assertThat(e.search(U1, SearchRequest.builder("lantern festival").mode(SearchMode.FTS).limit(50)
          .occurredBetween(far, far.plusNanos(1)).build()).hits()).singleElement()
          .satisfies(h -> assertThat(h.entry().occurredAt()).isEqualTo(far));
    }
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT version_id, occurred_s, occurred_n FROM versions")) {
      int checked = 0;
      while (rs.next()) {
        Instant expected = versions.get(rs.getString(1).substring(1));
        assertThat(new long[] {rs.getLong(2), rs.getLong(3)}).as("%s", expected)
            .containsExactly(expected.getEpochSecond(), expected.getNano());
        checked++;
      }
      assertThat(checked).isEqualTo(versions.size());
    }
  }

  @Test
  void writesSetTheEventTimeColumnsAndVersionsWithoutEventTimeHaveNone() throws Exception {
    Path db = dir.resolve("written.db");
    List<Instant> all = instants();
    try (SqliteMemoryStore store = new SqliteMemoryStore(db);
        Engram e = Engram.builder().store(store).reasoner(new DeterministicReasoner()).build()) {
      List<dev.engram.WriteRequest> writes = new ArrayList<>();
      for (int i = 0; i < all.size(); i++) {
        writes.add(dev.engram.WriteRequest.of("Lantern festival note " + i,
            dev.engram.WriteOptions.builder().occurredAt(all.get(i)).build()));
      }
      e.writeAll(U1, writes);
      e.write(U1, "Lantern festival without a date.");
    }
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT occurred_at, occurred_s, occurred_n FROM versions ORDER BY seq")) {
      List<Instant> seen = new ArrayList<>();
      while (rs.next()) {
        if (rs.getString(1) == null) {
          assertThat(rs.getObject(2)).isNull();
          assertThat(rs.getObject(3)).isNull();
          continue;
        }
        Instant at = Instant.parse(rs.getString(1));
        assertThat(new long[] {rs.getLong(2), rs.getLong(3)}).containsExactly(at.getEpochSecond(), at.getNano());
        seen.add(at);
      }
      assertThat(seen).containsExactlyElementsOf(all);
    }
  }

  /**
   * A filtered search is one statement driven by the full-text index, with the versions as its inner
   * loop, and its answer is exactly the unfiltered ranking with the versions outside the interval taken
   * out, hit for hit and score for score: for narrow and wide intervals, open bounds and nanosecond
   * edges, at small and large limits.
   */
  @Test
  void aFilteredSearchIsTheFullTextRankingOfTheIntervalsVersions() throws Exception {
    Path db = dir.resolve("plan.db");
    Instant t0 = Instant.parse("2024-01-01T00:00:00Z");
    try (SqliteMemoryStore store = new SqliteMemoryStore(db);
        Engram e = Engram.builder().store(store).reasoner(new DeterministicReasoner()).build()) {
      List<dev.engram.WriteRequest> writes = new ArrayList<>();
      for (int i = 0; i < 600; i++) {
        String words = i % 3 == 0 ? "lantern lantern festival" : i % 3 == 1 ? "lantern by the river" : "festival";
        writes.add(dev.engram.WriteRequest.of("Note " + i + ": " + words + ".",
            dev.engram.WriteOptions.builder().occurredAt(t0.plusSeconds(3600L * i).plusNanos(i % 7)).build()));
      }
      e.writeAll(U1, writes);
      e.write(U1, "A lantern note without a date.");
    }
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db)) {
      SqliteMemoryStore.registerSqlFunctions(c);
      dev.engram.spi.FullTextQuery terms = new dev.engram.spi.FullTextQuery(List.of("lantern", "festiv"),
          java.util.Set.of(), java.util.Set.of());
      dev.engram.spi.FullTextQuery narrow = terms.occurredBetween(t0.plusSeconds(3600L * 100).plusNanos(3),
          t0.plusSeconds(3600L * 120).plusNanos(2));
      List<String> plan = new ArrayList<>();
      try (PreparedStatement ps = c.prepareStatement("EXPLAIN QUERY PLAN " + Queries.searchFullTextSql(1, narrow))) {
        Queries.bindFullText(ps, List.of("app/user/u1"), narrow, 10);
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            plan.add(rs.getString(4));
          }
        }
      }
      assertThat(plan.get(0)).startsWith("SCAN f VIRTUAL TABLE");
      assertThat(plan.get(1)).startsWith("SEARCH v USING INTEGER PRIMARY KEY");

      Map<String, Instant> occurred = new java.util.HashMap<>();
      try (Statement st = c.createStatement();
          ResultSet rs = st.executeQuery("SELECT version_id, occurred_at FROM versions WHERE occurred_at IS NOT NULL")) {
        while (rs.next()) {
          occurred.put(rs.getString(1), Instant.parse(rs.getString(2)));
        }
      }
      List<String> all = hits(c, terms, 5000);
      assertThat(all).hasSize(601);
      List<dev.engram.spi.FullTextQuery> filters = List.of(narrow,
          terms.occurredBetween(t0.plusSeconds(3600L * 10), t0.plusSeconds(3600L * 500)),
          terms.occurredBetween(null, t0.plusSeconds(3600L * 5).plusNanos(5)),
          terms.occurredBetween(t0.plusSeconds(3600L * 590), null));
      for (dev.engram.spi.FullTextQuery q : filters) {
        for (int limit : new int[] {3, 2000}) {
          List<String> expected = all.stream()
              .filter(h -> q.occurredIn(occurred.get(h.substring(0, h.indexOf(' '))))).limit(limit).toList();
          assertThat(hits(c, q, limit)).as("%s, limit %d", q, limit).isNotEmpty().isEqualTo(expected);
        }
      }
      assertThat(hits(c, narrow, 2000)).as("hours 101 to 120 by their nanoseconds").hasSize(20);
    }
  }

  /** "versionId score" of each hit of the full-text statement. */
  private static List<String> hits(Connection c, dev.engram.spi.FullTextQuery q, int limit) throws Exception {
    List<String> out = new ArrayList<>();
    try (PreparedStatement ps = c.prepareStatement(Queries.searchFullTextSql(1, q))) {
      Queries.bindFullText(ps, List.of("app/user/u1"), q, limit);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(rs.getString(1) + " " + rs.getDouble(7));
        }
      }
    }
    return out;
  }
}
