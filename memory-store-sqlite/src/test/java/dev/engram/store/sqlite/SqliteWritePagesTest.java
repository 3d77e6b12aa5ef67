/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.Change;
import dev.engram.ChangeKind;
import dev.engram.EntryStatus;
import dev.engram.EntryType;
import dev.engram.MemoryEntry;
import dev.engram.Revision;
import dev.engram.spi.FullTextQuery;
import dev.engram.spi.ScoredEntry;
import dev.engram.spi.TopicState;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The schema of fewer pages per write (version 12): one content-hash index that still holds the rule of
 * one active version per content among those without a path, the waiting topics as a table that mirrors
 * their condition exactly, and the versions waiting for the full-text index listed outside the file, which
 * savepoints roll back with the rest of their work. A database of the schema before is upgraded in place.
 */
class SqliteWritePagesTest {
  private static final String SCOPE = "app/user/u1";
  private static final Instant NOW = Instant.parse("2026-12-01T10:00:00Z");
  private static final long TIMEOUT_SECONDS = 60;

  @TempDir Path dir;

  private static MemoryEntry version(String id, String content, String hash, String path, EntryStatus status) {
    return new MemoryEntry("e" + id, "v" + id, 1, null, SCOPE, content, List.of("general"), EntryType.FACT, 2, null,
        List.of(), path, null, List.of(), hash, status, null, null, NOW, NOW, 1);
  }

  private static String versionRow(String id, String content, String hash, String path, String status) {
    return "INSERT INTO versions (version_id, entry_id, version, previous_version_id, scope, content, topics, type,"
        + " priority, disclosure, glossary, path, source, evidence, content_hash, status, superseded_by, created_at,"
        + " updated_at, created_in_revision) VALUES ('v" + id + "', 'e" + id + "', 1, NULL, '" + SCOPE + "', '"
        + content + "', '[\"general\"]', 'fact', 2, NULL, '[]', " + (path == null ? "NULL" : "'" + path + "'")
        + ", NULL, '[]', '" + hash + "', '" + status + "', NULL, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', 1)";
  }

  private static List<String> found(SqliteMemoryStore store, String term) {
    return store.searchFullText(List.of(SCOPE), new FullTextQuery(List.of(term), Set.of(), Set.of()), 50).stream()
        .map(ScoredEntry::entry).map(MemoryEntry::versionId).sorted().toList();
  }

  private static List<String> column(Path db, String sql) throws SQLException {
    List<String> out = new ArrayList<>();
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      while (rs.next()) {
        out.add(rs.getString(1));
      }
    }
    return out;
  }

  /** The full-text index agrees with itself (FTS5's integrity check; it throws when it does not). */
  private static void fullTextIntact(Path db) throws SQLException {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement st = c.createStatement()) {
      SqliteMemoryStore.registerSqlFunctions(c);
      st.execute("INSERT INTO versions_fts (versions_fts) VALUES ('integrity-check')");
    }
  }

  /** The rows of dirty_topics are exactly the topics written after their last curation. */
  private static void dirtyTopicsMirrorTheirCondition(Path db) throws SQLException {
    assertThat(column(db, "SELECT scope || ' ' || topic FROM dirty_topics ORDER BY 1"))
        .isEqualTo(column(db, "SELECT scope || ' ' || topic FROM topics"
            + " WHERE last_write_revision > last_curated_revision ORDER BY 1"));
  }

  @Test
  void aDatabaseOfTheSchemaBeforeIsUpgradedWithItsRulesItsWaitingTopicsAndItsQueuedVersions() throws Exception {
    Path db = dir.resolve("earlier.db");
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement st = c.createStatement()) {
      EarlierSchemas.upTo(c, "__fewer_pages_per_write.sql");
      st.execute("INSERT INTO revisions VALUES ('" + SCOPE + "', 1, '[]', '2026-01-01T00:00:00Z')");
      st.execute(versionRow("1", "Old zqxalpha note", "h1", null, "SUPERSEDED"));
      st.execute(versionRow("2", "Current zqxalpha note", "h1", null, "ACTIVE"));
      st.execute(versionRow("3", "Shared zqxbravo text", "h2", "profile://a", "ACTIVE"));
      st.execute(versionRow("4", "Shared zqxbravo text", "h2", "profile://b", "ACTIVE"));
      st.execute(versionRow("5", "Shared zqxbravo text", "h2", null, "ACTIVE"));
      st.execute("INSERT INTO topics (scope, topic, last_write_revision, last_curated_revision)"
          + " VALUES ('" + SCOPE + "', 'waiting', 3, 1), ('" + SCOPE + "', 'curated', 2, 2)");
      // the rows the triggers of that schema queued stay queued: nothing indexed them before the upgrade
      assertThat(column(db, "SELECT count(*) FROM fts_pending")).containsExactly("4");
    }

    try (SqliteMemoryStore store = new SqliteMemoryStore(db)) {
      assertThat(found(store, "zqxalpha")).containsExactly("v2");
      assertThat(found(store, "zqxbravo")).containsExactly("v3", "v4", "v5");
      // the lookup sees every active version of the content, addressed or not, newest first
      assertThat(store.findActiveByHash(SCOPE, "h1")).map(MemoryEntry::versionId).hasValue("v2");
      assertThat(store.findActiveByHash(SCOPE, "h2")).map(MemoryEntry::versionId).hasValue("v5");
      assertThat(store.findActiveByHash(SCOPE, "h3")).isEmpty();
      assertThat(store.dirtyTopics(10)).extracting(TopicState::topic).containsExactly("waiting");

      // one active version per content among those without a path; addressed ones may share it
      assertThatThrownBy(() -> store.inTransaction(SCOPE, tx -> {
        tx.insertVersion(version("6", "Current zqxalpha note", "h1", null, EntryStatus.ACTIVE));
        return null;
      })).isInstanceOf(IllegalStateException.class).hasMessageContaining("already has an active version with its content");
      store.inTransaction(SCOPE, tx -> {
        tx.insertVersion(version("7", "Current zqxalpha note", "h1", "profile://c", EntryStatus.ACTIVE));
        tx.insertVersion(version("8", "Current zqxalpha note", "h1", null, EntryStatus.RETIRED));
        return null;
      });
      assertThat(store.findActiveByHash(SCOPE, "h1")).map(MemoryEntry::versionId).hasValue("v7");
      assertThat(found(store, "zqxalpha")).containsExactly("v2", "v7");
    }
    fullTextIntact(db);
    dirtyTopicsMirrorTheirCondition(db);
    assertThat(column(db, "SELECT name FROM sqlite_schema WHERE name IN ('fts_pending', 'topics_dirty',"
        + " 'versions_unique_active_hash')")).isEmpty();
    assertThat(column(db, "SELECT v FROM versions_fts_config WHERE k = 'automerge'")).containsExactly("2");
    // the rule holds for every writer of the file, not only the store
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement st = c.createStatement()) {
      SqliteMemoryStore.registerSqlFunctions(c);
      assertThatThrownBy(() -> st.execute(versionRow("9", "Again", "h2", null, "ACTIVE")))
          .isInstanceOf(SQLException.class).hasMessageContaining("UNIQUE");
      st.execute(versionRow("10", "Again", "h2", "profile://d", "ACTIVE"));
    }
  }

  @Test
  void theWaitingTopicsFollowWritesCurationAndErasure() throws Exception {
    Path db = dir.resolve("topics.db");
    try (SqliteMemoryStore store = new SqliteMemoryStore(db)) {
      store.inTransaction(SCOPE, tx -> {
        tx.insertVersion(version("1", "First", "h1", null, EntryStatus.ACTIVE));
        tx.markTopicsWritten(SCOPE, List.of("work", "home"), 1, NOW);
        return null;
      });
      dirtyTopicsMirrorTheirCondition(db);
      assertThat(store.dirtyTopics(10)).extracting(TopicState::topic).containsExactly("home", "work");
      store.inTransaction(SCOPE, tx -> {
        tx.markTopicCurated(SCOPE, "work", 1, "blurb");
        tx.markTopicsWritten(SCOPE, List.of("home"), 2, NOW);
        tx.markTopicCurated(SCOPE, "home", 1, null);
        return null;
      });
      dirtyTopicsMirrorTheirCondition(db);
      assertThat(store.dirtyTopics(10)).extracting(TopicState::topic).containsExactly("home");
      store.inTransaction(SCOPE, tx -> {
        tx.markTopicsWritten(SCOPE, List.of("work"), 3, NOW);
        tx.markTopicCurated(SCOPE, "home", 2, null);
        tx.markTopicCurated(SCOPE, "fresh", 3, "curated before any write");
        return null;
      });
      dirtyTopicsMirrorTheirCondition(db);
      assertThat(store.dirtyTopics(10)).extracting(TopicState::topic).containsExactly("work");
      store.inTransaction(SCOPE, tx -> tx.eraseScopeContent());
      assertThat(store.dirtyTopics(10)).isEmpty();
    }
    dirtyTopicsMirrorTheirCondition(db);
    assertThat(column(db, "SELECT count(*) FROM dirty_topics")).containsExactly("0");
  }

  /**
   * A search inside a savepoint indexes the waiting versions; rolling the savepoint back takes them out
   * of the index again, so they wait again and the commit indexes them.
   */
  @Test
  void aSavepointRolledBackAfterASearchLeavesItsEnclosingVersionsWaiting() throws Exception {
    Path db = dir.resolve("nested.db");
    try (SqliteMemoryStore store = new SqliteMemoryStore(db)) {
      store.inTransaction(SCOPE, tx -> {
        tx.insertVersion(version("1", "Outer zqxcobalt note", "h1", null, EntryStatus.ACTIVE));
        assertThatThrownBy(() -> store.inTransaction(SCOPE, inner -> {
          assertThat(inner.searchFullText(List.of(SCOPE), new FullTextQuery(List.of("zqxcobalt"), Set.of(), Set.of()),
              10)).hasSize(1);
          inner.insertVersion(version("2", "Inner zqxcobalt note", "h2", null, EntryStatus.ACTIVE));
          throw new IllegalArgumentException("inner work refused");
        })).hasMessage("inner work refused");
        return null;
      });
      assertThat(found(store, "zqxcobalt")).containsExactly("v1");
    }
    fullTextIntact(db);
  }

  /**
   * A committed version taken out of the index and made active again inside a savepoint that is rolled
   * back is active and indexed as before: it does not wait to be indexed a second time, nor does a
   * version whose status is set to active while it is active.
   */
  @Test
  void aReactivationRolledBackWithItsSavepointIsNotIndexedTwice() throws Exception {
    Path db = dir.resolve("reactivated.db");
    try (SqliteMemoryStore store = new SqliteMemoryStore(db)) {
      store.inTransaction(SCOPE, tx -> {
        tx.insertVersion(version("1", "Kept zqxdelta note", "h1", null, EntryStatus.ACTIVE));
        return null;
      });
      store.inTransaction(SCOPE, tx -> {
        assertThatThrownBy(() -> store.inTransaction(SCOPE, inner -> {
          inner.updateStatus("v1", EntryStatus.RETIRED, null, NOW);
          inner.updateStatus("v1", EntryStatus.ACTIVE, null, NOW);
          assertThat(((SqliteTransaction) inner).session().isFullTextPending("v1")).isTrue();
          throw new IllegalArgumentException("inner work refused");
        })).hasMessage("inner work refused");
        assertThat(((SqliteTransaction) tx).session().isFullTextPending("v1")).isFalse();
        tx.insertVersion(version("2", "Another zqxdelta note", "h2", null, EntryStatus.ACTIVE));
        return null;
      });
      assertThat(found(store, "zqxdelta")).containsExactly("v1", "v2");
      // a version that is active already does not wait for the index a second time
      store.inTransaction(SCOPE, tx -> {
        tx.updateStatus("v2", EntryStatus.ACTIVE, null, NOW.plusSeconds(1));
        assertThat(((SqliteTransaction) tx).session().isFullTextPending("v2")).isFalse();
        return null;
      });
      assertThat(store.version("v2")).map(MemoryEntry::updatedAt).hasValue(NOW.plusSeconds(1));
      // made active and retired again in one transaction: its terms are taken out of the index they reached
      store.inTransaction(SCOPE, tx -> {
        tx.insertVersion(version("3", "Brief zqxdelta note", "h3", null, EntryStatus.ACTIVE));
        tx.updateStatus("v3", EntryStatus.RETIRED, null, NOW);
        tx.updateStatus("v1", EntryStatus.RETIRED, null, NOW);
        tx.updateStatus("v1", EntryStatus.ACTIVE, null, NOW);
        tx.eraseEntry("e2");
        return null;
      });
      assertThat(found(store, "zqxdelta")).containsExactly("v1");
    }
    fullTextIntact(db);
  }

  /**
   * In a group commit, a transaction that searched (and so indexed the versions of the transactions
   * before it in the group) and then failed is rolled back to its savepoint, and the versions of the
   * others are indexed by the commit.
   */
  @Test
  void aFailingTransactionOfAGroupThatSearchedLeavesTheOthersVersionsToTheCommit() throws Exception {
    Path db = dir.resolve("group.db");
    ExecutorService pool = Executors.newFixedThreadPool(3);
    try (SqliteMemoryStore store = new SqliteMemoryStore(db)) {
      CountDownLatch leaderInside = new CountDownLatch(1);
      CountDownLatch release = new CountDownLatch(1);
      Future<?> leader = pool.submit(() -> store.inTransaction(SCOPE, tx -> {
        leaderInside.countDown();
        try {
          release.await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          throw new IllegalStateException(e);
        }
        return null;
      }));
      assertThat(leaderInside.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
      Future<?> first = pool.submit(() -> store.inTransaction("app/user/u2", tx -> {
        tx.insertVersion(new MemoryEntry("e1", "v1", 1, null, "app/user/u2", "Grouped zqxecho note", List.of("general"),
            EntryType.FACT, 2, null, List.of(), null, null, List.of(), "h1", EntryStatus.ACTIVE, null, null, NOW, NOW, 1));
        tx.appendRevision(new Revision("app/user/u2", 1, List.of(new Change(ChangeKind.APPEND, "e1", "v1")), NOW));
        return null;
      }));
      awaitQueued(store, 1);
      Future<?> failing = pool.submit(() -> store.inTransaction(SCOPE, tx -> {
        assertThat(tx.searchFullText(List.of("app/user/u2"), new FullTextQuery(List.of("zqxecho"), Set.of(), Set.of()),
            10)).hasSize(1);
        throw new IllegalArgumentException("work refused after its search");
      }));
      awaitQueued(store, 2);
      release.countDown();
      leader.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
      first.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
      assertThatThrownBy(() -> failing.get(TIMEOUT_SECONDS, TimeUnit.SECONDS))
          .hasRootCauseMessage("work refused after its search");
      assertThat(store.searchFullText(List.of("app/user/u2"), new FullTextQuery(List.of("zqxecho"), Set.of(), Set.of()),
          10)).extracting(s -> s.entry().versionId()).containsExactly("v1");
    } finally {
      pool.shutdownNow();
    }
    fullTextIntact(db);
  }

  private static void awaitQueued(SqliteMemoryStore store, int n) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
    while (store.queuedTransactions() < n) {
      assertThat(System.nanoTime()).as("%d transactions queued", n).isLessThan(deadline);
      Thread.sleep(2);
    }
  }

  private static List<String> plan(Connection c, String sql) throws SQLException {
    List<String> out = new ArrayList<>();
    try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("EXPLAIN QUERY PLAN " + sql)) {
      while (rs.next()) {
        out.add(rs.getString(4));
      }
    }
    return out;
  }

  /** The content-hash lookup and the waiting topics are read by key, never by walking a table. */
  @Test
  void theHashLookupAndTheWaitingTopicsAreReadByKey() throws Exception {
    Path db = dir.resolve("plans.db");
    try (SqliteMemoryStore store = new SqliteMemoryStore(db)) {
      store.inTransaction(SCOPE, tx -> {
        for (int i = 0; i < 200; i++) {
          tx.insertVersion(version(String.format("%03d", i), "Note " + i, "h" + i, null, EntryStatus.ACTIVE));
        }
        tx.markTopicsWritten(SCOPE, List.of("general"), 1, NOW);
        return null;
      });
    }
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db)) {
      assertThat(plan(c, Queries.ACTIVE_BY_HASH))
          .contains("SEARCH v USING INDEX versions_active_hash (scope=? AND content_hash=?)")
          .noneMatch(step -> step.startsWith("SCAN"));
      List<String> dirty = plan(c, Queries.DIRTY_TOPICS);
      assertThat(dirty.get(0)).isEqualTo("SCAN d");
      assertThat(dirty).contains("SEARCH t USING PRIMARY KEY (scope=? AND topic=?)")
          .noneMatch(step -> step.startsWith("SCAN t") || step.contains("TEMP B-TREE"));
    }
    Set<String> indexes = new TreeSet<>(column(db, "SELECT name FROM sqlite_schema WHERE tbl_name = 'versions'"
        + " AND type = 'index' AND name LIKE '%hash%'"));
    assertThat(indexes).containsExactly("versions_active_hash");
  }
}
