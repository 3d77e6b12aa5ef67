/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.BatchWriteResult;
import dev.engram.Engram;
import dev.engram.Grants;
import dev.engram.SearchMode;
import dev.engram.SearchRequest;
import dev.engram.WriteOptions;
import dev.engram.WriteRequest;
import dev.engram.WriteResult;
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
 * The full-text index is written once per transaction, from the versions the transaction made active: a
 * version that became active and was superseded or retired in the same transaction never reaches the
 * index, every committed active version does, and the list of waiting versions is not in the file.
 */
class FullTextPerTransactionTest {
  private static final Grants U1 = Grants.of("app/user/u1");

  @TempDir Path dir;

  private static List<String> search(Engram e, String query) {
    return e.search(U1, SearchRequest.builder(query).mode(SearchMode.FTS).build()).hits().stream()
        .map(h -> h.entry().content()).toList();
  }

  private static long count(Path db, String sql) throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery(sql)) {
      rs.next();
      return rs.getLong(1);
    }
  }

  @Test
  void versionsSupersededInTheirOwnTransactionNeverReachTheIndexAndNothingStaysQueued() throws Exception {
    Path db = dir.resolve("fts.db");
    try (Engram e = Engram.builder().store(new SqliteMemoryStore(db)).reasoner(new DeterministicReasoner()).build()) {
      WriteOptions home = WriteOptions.builder().path("profile://home").build();
      BatchWriteResult r = e.writeAll(U1, List.of(
          WriteRequest.of("Lives in zqxporto", home), WriteRequest.of("Lives in zqxbraga", home),
          WriteRequest.of("Plays the zqxcello"), WriteRequest.of("Drinks zqxtea"),
          WriteRequest.of("Lives in zqxlisbon", home)));
      assertThat(r.count(WriteResult.Outcome.APPENDED)).isEqualTo(3);
      assertThat(r.count(WriteResult.Outcome.UPDATED)).isEqualTo(2);
      dev.engram.Citation tea = r.items().get(3).result().citation();
      assertThat(search(e, "zqxporto")).isEmpty();
      assertThat(search(e, "zqxbraga")).isEmpty();
      assertThat(search(e, "zqxlisbon")).containsExactly("Lives in zqxlisbon");
      assertThat(search(e, "zqxcello")).containsExactly("Plays the zqxcello");

      e.retire(U1, tea, "no longer");
      assertThat(search(e, "zqxtea")).isEmpty();
      e.write(U1, "Walks the zqxdog", WriteOptions.defaults());
      assertThat(search(e, "zqxdog")).containsExactly("Walks the zqxdog");
    }
    assertThat(count(db, "SELECT count(*) FROM sqlite_schema WHERE name = 'fts_pending'")).isZero();
    // every active version is in the index exactly once, and the index is consistent
    assertThat(count(db, "SELECT count(*) FROM versions WHERE status = 'ACTIVE'")).isEqualTo(3);
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement s = c.createStatement()) {
      s.execute("INSERT INTO versions_fts (versions_fts) VALUES ('integrity-check')");
    }
    assertThat(count(db, "SELECT count(*) FROM versions_fts WHERE versions_fts MATCH 'zqxporto OR zqxbraga OR zqxtea'"))
        .isZero();
    assertThat(count(db, "SELECT count(*) FROM versions_fts WHERE versions_fts MATCH 'zqxlisbon OR zqxcello OR zqxdog'"))
        .isEqualTo(3);
  }

  private static List<String> plan(Connection c, String sql) throws Exception {
    List<String> out = new java.util.ArrayList<>();
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("EXPLAIN QUERY PLAN " + sql)) {
      while (rs.next()) {
        out.add(rs.getString(4));
      }
    }
    return out;
  }

  /**
   * Indexing the waiting versions reads them by key, and a ranked search joins only its best hits:
   * neither walks the active versions of the database (which made each write's flush, and so each write,
   * grow with the size of the store).
   */
  @Test
  void theQueueAndTheRankedSearchReadVersionsByKeyNeverByScan() throws Exception {
    Path db = dir.resolve("plans.db");
    try (Engram e = Engram.builder().store(new SqliteMemoryStore(db)).reasoner(new DeterministicReasoner()).build()) {
      List<WriteRequest> many = new java.util.ArrayList<>();
      for (int i = 0; i < 300; i++) {
        many.add(WriteRequest.of("Note " + i + " on the zqxharbour crane number " + i));
      }
      e.writeAll(U1, many);
    }
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db)) {
      FtsTerms.register(c);
      List<String> queue = plan(c, Session.INDEX_PENDING);
      assertThat(queue.get(0)).startsWith("SCAN p VIRTUAL TABLE");
      assertThat(queue).contains("SEARCH v USING INDEX sqlite_autoindex_versions_1 (version_id=?)");
      assertThat(queue).noneMatch(step -> step.startsWith("SCAN v"));
      List<String> ranked = plan(c, Queries.RANKED_IN_INDEX);
      assertThat(ranked).contains("SEARCH v USING INTEGER PRIMARY KEY (rowid=?)");
      assertThat(ranked).noneMatch(step -> step.startsWith("SCAN v"));
    }
  }
}
