/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.EntryStatus;
import dev.engram.EntryType;
import dev.engram.MemoryEntry;
import dev.engram.spi.FullTextQuery;
import dev.engram.spi.ScoredEntry;
import dev.engram.spi.TextAnalysis;
import java.sql.PreparedStatement;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Retrieval keys in the SQLite store (schema version 13): the keys table and its own FTS5 index, kept per
 * transaction like the content's index (savepoints roll the pending keys back with the rest), filtered and
 * ordered as full-text search is, untouched by versions without keys; a database of schema 12 is upgraded
 * in place and then keeps keys.
 */
class SqliteRetrievalKeysTest {
  private static final String SCOPE = "app/user/u1";
  private static final Instant NOW = Instant.parse("2026-12-01T10:00:00Z");

  @TempDir Path dir;

  private static MemoryEntry version(String id, String content, EntryType type, List<String> topics,
      Instant occurredAt, EntryStatus status) {
    return new MemoryEntry("e" + id, "v" + id, 1, null, SCOPE, content, topics, type, 2, null, List.of(), null, null,
        List.of(), "h" + id, status, null, occurredAt, NOW, NOW, 1);
  }

  private static MemoryEntry version(String id, String content) {
    return version(id, content, EntryType.FACT, List.of("general"), null, EntryStatus.ACTIVE);
  }

  /** The analysed terms of a query text, as the engine hands them to the store. */
  private static FullTextQuery query(String text) {
    return new FullTextQuery(TextAnalysis.queryTerms(text, FullTextQuery.MAX_TERMS), Set.of(), Set.of());
  }

  /** "term rowid" of each term of a key document, as {@link #keyIndexTerms} lists them. */
  private static List<String> indexed(long rowid, String keyDocument) {
    return TextAnalysis.terms(keyDocument).stream().distinct().map(t -> t + " " + rowid).sorted().toList();
  }

  private static List<String> foundByKeys(SqliteMemoryStore store, FullTextQuery query, int limit) {
    return store.searchKeys(List.of(SCOPE), query, limit).stream().map(ScoredEntry::entry)
        .map(MemoryEntry::versionId).toList();
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

  /** Both full-text indexes agree with themselves (FTS5's integrity check throws when one does not). */
  private static void indexesIntact(Path db) throws SQLException {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement st = c.createStatement()) {
      SqliteMemoryStore.registerSqlFunctions(c);
      st.execute("INSERT INTO versions_fts (versions_fts) VALUES ('integrity-check')");
      st.execute("INSERT INTO version_keys_fts (version_keys_fts) VALUES ('integrity-check')");
    }
  }

  /** The terms of the key index, with the versions (rowids of versions.seq) holding each, as "term rowid". */
  private static List<String> keyIndexTerms(Path db) throws SQLException {
    List<String> out = new ArrayList<>();
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement st = c.createStatement()) {
      st.execute("CREATE VIRTUAL TABLE temp.keys_vocab USING fts5vocab(main, version_keys_fts, instance)");
      try (ResultSet rs = st.executeQuery("SELECT DISTINCT term || ' ' || doc FROM temp.keys_vocab"
          + " WHERE col = 'keys' ORDER BY 1")) {
        while (rs.next()) {
          out.add(rs.getString(1));
        }
      }
    }
    return out;
  }

  @Test
  void keysAreStoredInOrderReadBackInAnyStatusAndSearchedApartFromTheContent() throws Exception {
    Path db = dir.resolve("keys.db");
    try (SqliteMemoryStore store = new SqliteMemoryStore(db)) {
      store.inTransaction(SCOPE, tx -> {
        tx.insertVersion(version("1", "Sushi, always."));
        tx.putKeys("v1", List.of("Ana: What is your zqxfavourite food?", "Ben: Sushi, always."));
        tx.insertVersion(version("2", "The garden needs zqxwater."));
        tx.insertVersion(version("3", "Old zqxfavourite note", EntryType.FACT, List.of("general"), null,
            EntryStatus.RETIRED));
        tx.putKeys("v3", List.of("zqxfavourite retired key"));
        // the transaction finds its own keys
        assertThat(tx.searchKeys(List.of(SCOPE), query("zqxfavourite"), 10)).extracting(s -> s.entry().versionId())
            .containsExactly("v1");
        return null;
      });
      assertThat(store.keysOf(List.of("v3", "v2", "v1", "v1", "unknown")))
          .containsExactly(Map.entry("v3", List.of("zqxfavourite retired key")),
              Map.entry("v1", List.of("Ana: What is your zqxfavourite food?", "Ben: Sushi, always.")));
      assertThat(store.keysOf(List.of())).isEmpty();
      // the key document is analysed as the content is: "zqxfavourite" is held as its stem
      assertThat(foundByKeys(store, query("zqxfavourite"), 10)).containsExactly("v1");
      assertThat(store.searchKeys(List.of(SCOPE), query("zqxfavourite"), 10).get(0).score()).isPositive();
      assertThat(foundByKeys(store, query("zqxwater"), 10)).isEmpty();
      assertThat(store.searchFullText(List.of(SCOPE), query("zqxfavourite"), 10)).isEmpty();
      assertThat(store.searchKeys(List.of("app/user/u2"), query("zqxfavourite"), 10)).isEmpty();
    }
    // the retired version's keys are stored but not indexed; the active one's are
    assertThat(keyIndexTerms(db))
        .isEqualTo(indexed(1, "Ana: What is your zqxfavourite food? Ben: Sushi, always."));
    indexesIntact(db);
  }

  @Test
  void putKeysRefusesWhatItCannotStoreWithItsReason() throws Exception {
    Path db = dir.resolve("refused.db");
    try (SqliteMemoryStore store = new SqliteMemoryStore(db)) {
      store.inTransaction(SCOPE, tx -> {
        tx.insertVersion(version("1", "Keyed"));
        tx.putKeys("v1", List.of("first key"));
        tx.insertVersion(version("2", "Unkeyed"));
        return null;
      });
      store.inTransaction("app/user/u2", tx -> {
        tx.insertVersion(new MemoryEntry("e9", "v9", 1, null, "app/user/u2", "Elsewhere", List.of("general"),
            EntryType.FACT, 2, null, List.of(), null, null, List.of(), "h9", EntryStatus.ACTIVE, null, null, NOW, NOW, 1));
        return null;
      });
      for (List<String> keys : List.of(List.of("second key"), List.<String>of())) {
        assertThatThrownBy(() -> store.inTransaction(SCOPE, tx -> {
          tx.putKeys("v1", keys);
          return null;
        })).isInstanceOf(IllegalStateException.class).hasMessage("version v1 already has retrieval keys");
        assertThatThrownBy(() -> store.inTransaction(SCOPE, tx -> {
          tx.putKeys("v404", keys);
          return null;
        })).isInstanceOf(IllegalStateException.class).hasMessage("version v404 does not exist");
        assertThatThrownBy(() -> store.inTransaction(SCOPE, tx -> {
          tx.putKeys("v9", keys);
          return null;
        })).isInstanceOf(IllegalStateException.class).hasMessageContaining("of scope app/user/u2")
            .hasMessageContaining("in a transaction on " + SCOPE);
      }
      assertThatThrownBy(() -> store.inTransaction(SCOPE, tx -> {
        tx.putKeys("v2", List.of("fine", " "));
        return null;
      })).isInstanceOf(IllegalStateException.class).hasMessage("a retrieval key of version v2 is blank");
      // an empty list stores nothing, and the version may still take keys later
      store.inTransaction(SCOPE, tx -> {
        tx.putKeys("v2", List.of());
        return null;
      });
      assertThat(store.keysOf(List.of("v2"))).isEmpty();
      store.inTransaction(SCOPE, tx -> {
        tx.putKeys("v2", List.of("late key"));
        return null;
      });
      assertThat(store.keysOf(List.of("v1", "v2", "v9")))
          .containsExactly(Map.entry("v1", List.of("first key")), Map.entry("v2", List.of("late key")));
    }
    assertThat(column(db, "SELECT k.version_id || ' ' || k.scope || ' ' || v.has_keys FROM version_keys k"
        + " JOIN versions v ON v.version_id = k.version_id ORDER BY 1"))
        .containsExactly("v1 app/user/u1 1", "v2 app/user/u1 1");
    indexesIntact(db);
  }

  @Test
  void theQueryFiltersApplyBeforeTheLimitAndTiesGoToTheNewestVersion() throws Exception {
    Path db = dir.resolve("filters.db");
    Instant t0 = Instant.parse("2024-05-08T10:00:00Z");
    try (SqliteMemoryStore store = new SqliteMemoryStore(db)) {
      store.inTransaction(SCOPE, tx -> {
        tx.insertVersion(version("1", "one", EntryType.FACT, List.of("food"), t0, EntryStatus.ACTIVE));
        tx.insertVersion(version("2", "two", EntryType.PREFERENCE, List.of("food"), t0.plusSeconds(60),
            EntryStatus.ACTIVE));
        tx.insertVersion(version("3", "three", EntryType.FACT, List.of("travel"), t0.plusSeconds(120),
            EntryStatus.ACTIVE));
        tx.insertVersion(version("4", "four", EntryType.FACT, List.of("food"), null, EntryStatus.ACTIVE));
        for (String id : List.of("v1", "v2", "v3", "v4")) {
          tx.putKeys(id, List.of("zqxlunch talk"));
        }
        return null;
      });
      // equal key documents: equal ranks, newest version id first
      assertThat(foundByKeys(store, query("zqxlunch"), 10)).containsExactly("v4", "v3", "v2", "v1");
      assertThat(foundByKeys(store, query("zqxlunch"), 2)).containsExactly("v4", "v3");
      assertThat(foundByKeys(store, new FullTextQuery(TextAnalysis.terms("zqxlunch"), Set.of(), Set.of(EntryType.FACT)), 2))
          .containsExactly("v4", "v3");
      assertThat(foundByKeys(store, new FullTextQuery(TextAnalysis.terms("zqxlunch"), Set.of("food"), Set.of(EntryType.FACT)), 1))
          .containsExactly("v4");
      assertThat(foundByKeys(store, new FullTextQuery(TextAnalysis.terms("zqxlunch"), Set.of("food"), Set.of()), 10))
          .containsExactly("v4", "v2", "v1");
      FullTextQuery inTime = new FullTextQuery(TextAnalysis.terms("zqxlunch"), Set.of(), Set.of())
          .occurredBetween(t0.plusSeconds(30), t0.plusSeconds(120));
      // [from, to): v3 at the upper bound and v4 without an event time are out
      assertThat(foundByKeys(store, inTime, 10)).containsExactly("v2");
      // more scopes than the MATCH expression names take the joined statement, with the same answer
      List<String> many = new ArrayList<>(List.of(SCOPE));
      for (int i = 0; i < Queries.MATCH_SCOPE_KEYS; i++) {
        many.add("app/user/other" + i);
      }
      assertThat(store.searchKeys(many, query("zqxlunch"), 3)).extracting(s -> s.entry().versionId())
          .containsExactly("v4", "v3", "v2");
    }
  }

  @Test
  void retiredKeepsItsKeysOutOfTheIndexAndReactivatedIsIndexedAgain() throws Exception {
    Path db = dir.resolve("status.db");
    try (SqliteMemoryStore store = new SqliteMemoryStore(db)) {
      store.inTransaction(SCOPE, tx -> {
        tx.insertVersion(version("1", "Reply"));
        tx.putKeys("v1", List.of("zqxquestion and reply"));
        return null;
      });
      store.inTransaction(SCOPE, tx -> {
        tx.updateStatus("v1", EntryStatus.RETIRED, null, NOW);
        return null;
      });
      assertThat(foundByKeys(store, query("zqxquestion"), 10)).isEmpty();
      assertThat(store.keysOf(List.of("v1"))).containsOnlyKeys("v1");
      assertThat(keyIndexTerms(db)).isEmpty();
      store.inTransaction(SCOPE, tx -> {
        tx.updateStatus("v1", EntryStatus.ACTIVE, null, NOW);
        return null;
      });
      assertThat(foundByKeys(store, query("zqxquestion"), 10)).containsExactly("v1");
      // stored and retired in one transaction, before any flush: never indexed, nothing to take out
      store.inTransaction(SCOPE, tx -> {
        tx.insertVersion(version("2", "Brief"));
        tx.putKeys("v2", List.of("zqxquestion again"));
        tx.updateStatus("v2", EntryStatus.SUPERSEDED, "v1", NOW);
        tx.updateStatus("v1", EntryStatus.RETIRED, null, NOW);
        tx.updateStatus("v1", EntryStatus.ACTIVE, null, NOW);
        return null;
      });
      assertThat(foundByKeys(store, query("zqxquestion"), 10)).containsExactly("v1");
    }
    assertThat(keyIndexTerms(db)).isEqualTo(indexed(1, "zqxquestion and reply"));
    indexesIntact(db);
  }

  /**
   * Keys stored in a savepoint that is rolled back (after a search there indexed them) are gone, and the
   * enclosing transaction's keys, indexed by that search and waiting again after the rollback, are indexed
   * by the commit.
   */
  @Test
  void aSavepointRolledBackTakesItsKeysAndTheirIndexingWithIt() throws Exception {
    Path db = dir.resolve("nested.db");
    try (SqliteMemoryStore store = new SqliteMemoryStore(db)) {
      store.inTransaction(SCOPE, tx -> {
        tx.insertVersion(version("1", "Outer"));
        tx.insertVersion(version("2", "Inner"));
        tx.putKeys("v1", List.of("zqxcobalt outer key"));
        assertThatThrownBy(() -> store.inTransaction(SCOPE, inner -> {
          inner.putKeys("v2", List.of("zqxcobalt inner key"));
          assertThat(inner.searchKeys(List.of(SCOPE), query("zqxcobalt"), 10)).hasSize(2);
          assertThat(((SqliteTransaction) inner).session().isKeysPending("v1")).isFalse();
          throw new IllegalArgumentException("inner work refused");
        })).hasMessage("inner work refused");
        assertThat(((SqliteTransaction) tx).session().isKeysPending("v1")).isTrue();
        assertThat(tx.keysOf(List.of("v1", "v2"))).containsOnlyKeys("v1");
        return null;
      });
      assertThat(foundByKeys(store, query("zqxcobalt"), 10)).containsExactly("v1");
      assertThat(store.keysOf(List.of("v2"))).isEmpty();
      // and a transaction that fails as a whole leaves no keys
      assertThatThrownBy(() -> store.inTransaction(SCOPE, tx -> {
        tx.putKeys("v2", List.of("zqxcobalt failed key"));
        throw new IllegalStateException("the work fails");
      })).hasMessage("the work fails");
      assertThat(store.keysOf(List.of("v2"))).isEmpty();
      assertThat(foundByKeys(store, query("inner failed"), 10)).isEmpty();
    }
    assertThat(keyIndexTerms(db)).isEqualTo(indexed(1, "zqxcobalt outer key"));
    indexesIntact(db);
  }

  /**
   * Versions without keys leave the keys' tables alone: written, superseded, retired, reactivated and
   * erased, none waits for the key index and the index stays as it was created.
   */
  @Test
  void versionsWithoutKeysNeverTouchTheKeyIndex() throws Exception {
    Path db = dir.resolve("unkeyed.db");
    try (SqliteMemoryStore store = new SqliteMemoryStore(db)) {
      List<String> created = column(db, "SELECT id || ' ' || hex(block) FROM version_keys_fts_data ORDER BY id");
      store.inTransaction(SCOPE, tx -> {
        for (int i = 0; i < 20; i++) {
          tx.insertVersion(version(String.format("%02d", i), "Unkeyed note " + i));
          assertThat(((SqliteTransaction) tx).session().isKeysPending("v" + String.format("%02d", i))).isFalse();
        }
        return null;
      });
      store.inTransaction(SCOPE, tx -> {
        tx.insertVersion(new MemoryEntry("e00", "v00b", 2, "v00", SCOPE, "Unkeyed note 0, corrected",
            List.of("general"), EntryType.FACT, 2, null, List.of(), null, null, List.of(), "h00b", EntryStatus.ACTIVE,
            null, null, NOW, NOW, 2));
        tx.updateStatus("v00", EntryStatus.SUPERSEDED, "v00b", NOW);
        tx.updateStatus("v01", EntryStatus.RETIRED, null, NOW);
        assertThat(((SqliteTransaction) tx).session().isKeysPending("v00b")).isFalse();
        tx.eraseEntry("e02");
        return null;
      });
      assertThat(column(db, "SELECT id || ' ' || hex(block) FROM version_keys_fts_data ORDER BY id"))
          .isEqualTo(created);
      assertThat(column(db, "SELECT count(*) FROM versions WHERE has_keys <> 0")).containsExactly("0");
      assertThat(column(db, "SELECT count(*) FROM version_keys")).containsExactly("0");
    }
    indexesIntact(db);
  }

  @Test
  void erasureTakesTheKeysOfEveryVersionWithIt() throws Exception {
    Path db = dir.resolve("erased.db");
    try (SqliteMemoryStore store = new SqliteMemoryStore(db)) {
      store.inTransaction(SCOPE, tx -> {
        tx.insertVersion(version("1", "First"));
        tx.putKeys("v1", List.of("zqxkeyone text"));
        tx.insertVersion(new MemoryEntry("e1", "v1b", 2, "v1", SCOPE, "First, corrected", List.of("general"),
            EntryType.FACT, 2, null, List.of(), null, null, List.of(), "h1b", EntryStatus.ACTIVE, null, null, NOW, NOW,
            1));
        tx.putKeys("v1b", List.of("zqxkeyonebee text"));
        tx.updateStatus("v1", EntryStatus.SUPERSEDED, "v1b", NOW);
        tx.insertVersion(version("2", "Second"));
        tx.putKeys("v2", List.of("zqxkeytwo text"));
        tx.insertVersion(version("3", "Third", EntryType.FACT, List.of("general"), null, EntryStatus.RETIRED));
        tx.putKeys("v3", List.of("zqxkeythree text"));
        return null;
      });
      store.inTransaction(SCOPE, tx -> tx.eraseEntry("e1"));
      assertThat(store.keysOf(List.of("v1", "v1b", "v2", "v3"))).containsOnlyKeys("v2", "v3");
      assertThat(SqliteMemoryStoreTckTest.rowsMentioning(db, "zqxkeyone")).isEmpty();
      assertThat(keyIndexTerms(db)).noneMatch(t -> t.startsWith("zqxkeyon")).anyMatch(t -> t.startsWith("zqxkeytwo"));
      indexesIntact(db);

      store.inTransaction(SCOPE, tx -> tx.eraseScopeContent());
      assertThat(store.keysOf(List.of("v2", "v3"))).isEmpty();
      assertThat(SqliteMemoryStoreTckTest.rowsMentioning(db, "zqxkey")).isEmpty();
      assertThat(keyIndexTerms(db)).isEmpty();
    }
    assertThat(column(db, "SELECT count(*) FROM version_keys")).containsExactly("0");
    indexesIntact(db);
  }

  @Test
  void aDatabaseOfSchemaTwelveIsUpgradedKeepsItsDataAndThenKeepsKeys() throws Exception {
    Path db = dir.resolve("twelve.db");
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement st = c.createStatement()) {
      EarlierSchemas.upTo(c, "__retrieval_keys.sql");
      assertThat(column(db, "SELECT max(version) FROM " + Migrations.VERSION_TABLE)).containsExactly("12");
      st.execute("INSERT INTO revisions VALUES ('" + SCOPE + "', 1, '[]', '2026-01-01T00:00:00Z')");
      st.execute(versionRow("1", "Old zqxalpha note", "SUPERSEDED"));
      st.execute(versionRow("2", "Current zqxalpha note", "ACTIVE"));
      // a store of schema 12 indexed its active version with this statement before its commit
      try (PreparedStatement ps = c.prepareStatement(Session.INDEX_PENDING)) {
        ps.setString(1, "[\"v1\", \"v2\"]");
        assertThat(ps.executeUpdate()).isEqualTo(1);
      }
    }

    try (SqliteMemoryStore store = new SqliteMemoryStore(db)) {
      assertThat(store.versions("e1")).extracting(MemoryEntry::content)
          .containsExactly("Old zqxalpha note", "Current zqxalpha note");
      assertThat(store.version("v2")).map(MemoryEntry::status).hasValue(EntryStatus.ACTIVE);
      assertThat(store.searchFullText(List.of(SCOPE), query("zqxalpha"), 10)).extracting(s -> s.entry().versionId())
          .containsExactly("v2");
      assertThat(store.headRevision(SCOPE)).isEqualTo(1);
      assertThat(store.keysOf(List.of("v1", "v2"))).isEmpty();

      store.inTransaction(SCOPE, tx -> {
        tx.putKeys("v2", List.of("Ana: zqxbravo question", "Ben: current note"));
        tx.putKeys("v1", List.of("zqxbravo for the old one"));
        tx.insertVersion(version("3", "New zqxalpha note"));
        tx.putKeys("v3", List.of("zqxbravo new"));
        return null;
      });
      assertThat(store.keysOf(List.of("v1", "v2", "v3"))).containsOnlyKeys("v1", "v2", "v3");
      assertThat(foundByKeys(store, query("zqxbravo"), 10)).containsExactlyInAnyOrder("v2", "v3");
      assertThat(store.searchFullText(List.of(SCOPE), query("zqxbravo"), 10)).isEmpty();
    }
    assertThat(column(db, "SELECT max(version) FROM " + Migrations.VERSION_TABLE))
        .containsExactly(String.valueOf(Migrations.latest()));
    assertThat(column(db, "SELECT version_id FROM versions WHERE has_keys = 1 ORDER BY 1"))
        .containsExactly("v1", "v2", "v3");
    assertThat(column(db, "SELECT v FROM version_keys_fts_config WHERE k IN ('automerge', 'secure-delete') ORDER BY k"))
        .containsExactly("2", "1");
    indexesIntact(db);
  }

  private static String versionRow(String id, String content, String status) {
    return "INSERT INTO versions (version_id, entry_id, version, previous_version_id, scope, content, topics, type,"
        + " priority, disclosure, glossary, path, source, evidence, content_hash, status, superseded_by, created_at,"
        + " updated_at, created_in_revision) VALUES ('v" + id + "', 'e1', " + id + ", NULL, '" + SCOPE + "', '"
        + content + "', '[\"general\"]', 'fact', 2, NULL, '[]', NULL, NULL, '[]', 'h" + id + "', '" + status
        + "', NULL, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', 1)";
  }
}
