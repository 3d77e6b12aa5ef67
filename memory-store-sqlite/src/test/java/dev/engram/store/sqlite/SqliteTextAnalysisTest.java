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
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A database whose full-text index was built by the FTS5 tokenizers of earlier schemas is rebuilt with
 * the one text analysis when it is opened: its entries are found by the Unicode and number forms they
 * contain, and removing them afterwards leaves the index consistent and free of their terms.
 */
class SqliteTextAnalysisTest {
  private static final Grants U1 = Grants.of("app/user/u1");

  @TempDir
  Path dir;

  private static String versionRow(String entryId, String versionId, String content, int revision) {
    return "INSERT INTO versions (version_id, entry_id, version, previous_version_id, scope, content, topics, type,"
        + " priority, disclosure, glossary, path, source, evidence, content_hash, status, superseded_by, created_at,"
        + " updated_at, created_in_revision) VALUES ('" + versionId + "', '" + entryId + "', 1, NULL, 'app/user/u1', '"
        + content + "', '[\"ﬁnance\"]', 'fact', 2, NULL, '[\"ＳＬＡ\"]', NULL, NULL, '[]', 'h" + versionId
        + "', 'ACTIVE', NULL, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', " + revision + ")";
  }

  private static List<String> found(Engram e, String query) {
    return e.search(U1, SearchRequest.builder(query).mode(SearchMode.FTS).limit(50).build()).hits().stream()
        .map(h -> h.entry().versionId()).sorted().toList();
  }

  @Test
  void anIndexOfTheEarlierTokenizersIsRebuiltWithTheTextAnalysis() throws Exception {
    Path db = dir.resolve("earlier.db");
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement st = c.createStatement()) {
      EarlierSchemas.upTo(c, "__text_analysis.sql");
      st.execute("INSERT INTO revisions VALUES ('app/user/u1', 1, '[]', '2026-01-01T00:00:00Z')");
      st.execute("INSERT INTO revisions VALUES ('app/user/u1', 2, '[]', '2026-01-01T00:00:00Z')");
      st.execute(versionRow("e1", "v1", "The ﬁsh market in İstanbul opens at 3.14 for ＡＢＣ zqxfirst.", 1));
      st.execute(versionRow("e2", "v2", "Release v2.1.3 served 1,000 users in room Ⅻ zqxsecond.", 2));
    }
    try (SqliteMemoryStore store = new SqliteMemoryStore(db);
        Engram e = Engram.builder().store(store).reasoner(new DeterministicReasoner()).build()) {
      // the earlier unicode61 tokenizer split 3.14 and v2.1.3 and kept the ligature and full-width forms
      assertThat(found(e, "fish")).containsExactly("v1");
      assertThat(found(e, "ABC")).containsExactly("v1");
      assertThat(found(e, "istanbul")).containsExactly("v1");
      assertThat(found(e, "3.14")).containsExactly("v1");
      assertThat(found(e, "14")).isEmpty();
      assertThat(found(e, "v2.1.3")).containsExactly("v2");
      assertThat(found(e, "1,000")).containsExactly("v2");
      assertThat(found(e, "xii")).containsExactly("v2");
      assertThat(found(e, "sla")).containsExactly("v1", "v2");
      assertThat(found(e, "finance")).containsExactly("v1", "v2");

      e.deleteEntry(U1, "e1");
      e.correct(U1, "e2", "Release v2.2 is next.");
      assertThat(found(e, "v2.1.3")).isEmpty();
      assertThat(found(e, "v2.2")).hasSize(1);
    }
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement st = c.createStatement()) {
      st.execute("INSERT INTO versions_fts (versions_fts) VALUES ('integrity-check')");
      st.execute("CREATE VIRTUAL TABLE temp.vocab USING fts5vocab(main, versions_fts, row)");
      try (ResultSet rs = st.executeQuery("SELECT count(*) FROM temp.vocab WHERE term LIKE 'zqx%' OR term = '3.14'")) {
        rs.next();
        assertThat(rs.getInt(1)).as("terms of removed versions left in the index").isZero();
      }
    }
  }

  /**
   * A file of text analysis 1 held a katakana or Hangul word as one term; opening it rebuilds the three indexes
   * with analysis 2's pairs of characters: the word is found inside a compound and before a particle, and
   * removing its version afterwards leaves every index consistent and free of the earlier terms.
   */
  @Test
  void anIndexOfTextAnalysisOneIsRebuiltWithKatakanaAndHangulPairs() throws Exception {
    Path db = dir.resolve("analysis1.db");
    dev.engram.Experience lesson = new dev.engram.Experience("x1", "xv1", 1, null, "app/user/u1",
        "ウェブフックの再送", "zqxaction", "It worked", "Retry later", List.of(), dev.engram.ExperienceStatus.ACTIVE,
        null, null, null, java.time.Instant.parse("2026-01-01T00:00:00Z"), java.time.Instant.parse("2026-01-01T00:00:00Z"));
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement st = c.createStatement()) {
      EarlierSchemas.upTo(c, "__text_analysis_2.sql");
      st.execute("INSERT INTO revisions VALUES ('app/user/u1', 1, '[]', '2026-01-01T00:00:00Z')");
      st.execute("INSERT INTO revisions VALUES ('app/user/u1', 2, '[]', '2026-01-01T00:00:00Z')");
      st.execute(versionRow("e1", "v1", "ウェブフックの設定 zqxfirst", 1));
      st.execute(versionRow("e2", "v2", "웹훅은 실패했다 zqxsecond", 2));
      st.execute("UPDATE versions SET has_keys = 1 WHERE version_id = 'v2'");
      st.execute("INSERT INTO version_keys VALUES ('v2', 'app/user/u1', '[\"이전 턴 웹훅은 zqxkey\"]')");
      // what analysis 1 indexed: each katakana or Hangul run as one term
      st.execute("INSERT INTO versions_fts (rowid, content, glossary, disclosure, topics, scope_key)"
          + " SELECT seq, CASE version_id WHEN 'v1' THEN 'ウェブフック の 設 定 zqxfirst' ELSE '웹훅은 실패했다 zqxsecond' END,"
          + " 'sla', '', 'financ', 'k' || lower(hex(scope)) FROM versions");
      st.execute("INSERT INTO version_keys_fts (rowid, keys, scope_key) SELECT seq, '이전 턴 웹훅은 zqxkey',"
          + " 'k' || lower(hex(scope)) FROM versions WHERE version_id = 'v2'");
      try (var ps = c.prepareStatement("INSERT INTO experience_versions (version_id, experience_id, version, scope,"
          + " status, doc) VALUES ('xv1', 'x1', 1, 'app/user/u1', 'ACTIVE', ?)")) {
        ps.setString(1, dev.engram.spi.ReviewJson.writeExperience(lesson));
        ps.executeUpdate();
      }
      st.execute("INSERT INTO experience_fts (rowid, terms) SELECT seq, 'situat ウェブフック の 再 送 action zqxaction'"
          + " FROM experience_versions");
    }
    try (SqliteMemoryStore store = new SqliteMemoryStore(db);
        Engram e = Engram.builder().store(store).reasoner(new DeterministicReasoner()).build()) {
      assertThat(found(e, "フック")).containsExactly("v1");
      assertThat(found(e, "ウェブフック")).containsExactly("v1");
      assertThat(found(e, "웹훅")).containsExactly("v2");
      assertThat(store.searchKeys(List.of("app/user/u1"), query("웹훅"), 5)).extracting(h -> h.entry().versionId())
          .containsExactly("v2");
      assertThat(store.searchExperience(List.of("app/user/u1"), query("フック"), 5))
          .extracting(h -> h.experience().versionId()).containsExactly("xv1");
      e.deleteEntry(U1, "e1");
      e.deleteEntry(U1, "e2");
      e.experience().delete(U1, "x1");
    }
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement st = c.createStatement()) {
      for (String index : List.of("versions_fts", "version_keys_fts", "experience_fts")) {
        st.execute("INSERT INTO " + index + " (" + index + ") VALUES ('integrity-check')");
        st.execute("CREATE VIRTUAL TABLE temp.vocab_" + index + " USING fts5vocab(main, " + index + ", row)");
        try (ResultSet rs = st.executeQuery("SELECT count(*) FROM temp.vocab_" + index
            + " WHERE term LIKE 'zqx%' OR term IN ('ウェブフック', '웹훅은', 'フック')")) {
          rs.next();
          assertThat(rs.getInt(1)).as("terms of removed versions left in %s", index).isZero();
        }
      }
    }
  }

  private static dev.engram.spi.FullTextQuery query(String text) {
    return new dev.engram.spi.FullTextQuery(dev.engram.spi.FullTextQuery.terms(text), java.util.Set.of(),
        java.util.Set.of(), null, null);
  }

  /** Another program changing versions registers the store's SQL functions; without them its change fails whole. */
  @Test
  void aForeignConnectionChangesVersionsOnceItRegistersTheStoresFunctions() throws Exception {
    Path db = dir.resolve("foreign.db");
    try (SqliteMemoryStore store = new SqliteMemoryStore(db);
        Engram e = Engram.builder().store(store).reasoner(new DeterministicReasoner()).build()) {
      e.write(U1, "Written through the store: ﬁsh.");
      assertThat(found(e, "fish")).hasSize(1);
    }
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement st = c.createStatement()) {
      String retire = "UPDATE versions SET status = 'RETIRED' WHERE status = 'ACTIVE'";
      org.assertj.core.api.Assertions.assertThatThrownBy(() -> st.executeUpdate(retire))
          .hasMessageContaining("no such function: engram_fts_term");
      SqliteMemoryStore.registerSqlFunctions(c);
      st.executeUpdate(retire);
      st.execute("INSERT INTO versions_fts (versions_fts) VALUES ('integrity-check')");
    }
    try (SqliteMemoryStore store = new SqliteMemoryStore(db);
        Engram e = Engram.builder().store(store).reasoner(new DeterministicReasoner()).build()) {
      assertThat(found(e, "fish")).isEmpty();
    }
  }
}
