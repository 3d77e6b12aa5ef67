/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.postgres;

import dev.engram.test.HashingEmbedder;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.engram.Engram;
import dev.engram.ErrorCode;
import dev.engram.Grants;
import dev.engram.InvalidInputException;
import dev.engram.StoreException;
import dev.engram.reasoner.DeterministicReasoner;
import dev.engram.spi.StoreCapability;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** What the PostgreSQL store adds to the contract: construction, schema management and claims. */
class PostgresMemoryStoreTest {
  private final TestPostgres pg = TestPostgres.get();

  private PostgresMemoryStore store(String schema) {
    return PostgresMemoryStore.builder().dataSource(pg.pool()).schema(schema).build();
  }

  private static void dirty(PostgresMemoryStore store, String scope, String... topics) {
    store.inTransaction(scope, tx -> {
      long rev = tx.headRevision(scope) + 1;
      tx.appendRevision(new dev.engram.Revision(scope, rev, List.of(), Instant.now()));
      tx.markTopicsWritten(scope, List.of(topics), rev, Instant.now());
      return null;
    });
  }

  // ---- sources by event time

  @Test
  void sourcesByTimeRangeAreReadThroughTheEventTimeIndex() throws SQLException {
    String schema = pg.newSchema("occ");
    Instant t0 = Instant.parse("2026-03-01T10:00:00Z");
    try (PostgresMemoryStore store = store(schema);
        Engram engram = Engram.builder().borrowedStore(store).reasoner(new DeterministicReasoner()).build()) {
      for (int batch = 0; batch < 4; batch++) {
        List<dev.engram.SourceRecord> turns = new java.util.ArrayList<>();
        for (int i = batch * 1000; i < (batch + 1) * 1000; i++) {
          turns.add(dev.engram.SourceRecord.of("s" + (i % 7), "user", "turn " + i).at(t0.plusSeconds(i).plusNanos(i % 3))
              .id("t" + i));
        }
        engram.captureAll(Grants.of("app/u1"), turns);
      }
      Instant from = t0.plusSeconds(100).plusNanos(2);
      Instant to = t0.plusSeconds(103).plusNanos(2);
      assertThat(engram.sources(Grants.of("app/u1"), dev.engram.SourceQuery.between(from, to)))
          .extracting(dev.engram.CapturedSource::id).containsExactly("t101", "t102", "t103");
      assertThat(engram.sources(Grants.of("app/u1"), dev.engram.SourceQuery.builder().between(from, to).session("s4").build()))
          .extracting(dev.engram.CapturedSource::id).containsExactly("t102");
      assertThat(engram.sources(Grants.of("app/u1"), dev.engram.SourceQuery.builder().between(null, t0.plusSeconds(2)).build()))
          .extracting(dev.engram.CapturedSource::id).containsExactly("t0", "t1");
    }
    Sql sql = new Sql(schema, PostgresMemoryStore.DEFAULT_TABLE_PREFIX);
    try (java.sql.Connection c = pg.pool().getConnection(); java.sql.Statement st = c.createStatement()) {
      st.execute("ANALYZE " + schema + "." + PostgresMemoryStore.DEFAULT_TABLE_PREFIX + "sources");
      try (java.sql.PreparedStatement ps = c.prepareStatement(
          "EXPLAIN " + sql.sources.get(Sql.SOURCES_FROM | Sql.SOURCES_TO))) {
        int i = 1;
        ps.setString(i++, "app/u1");
        ps.setLong(i++, 0);
        for (Instant bound : List.of(t0.plusSeconds(2000), t0.plusSeconds(2010))) {
          ps.setLong(i++, bound.getEpochSecond());
          ps.setLong(i++, bound.getEpochSecond());
          ps.setInt(i++, bound.getNano());
        }
        ps.setInt(i, 100);
        StringBuilder plan = new StringBuilder();
        try (java.sql.ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            plan.append(rs.getString(1)).append('\n');
          }
        }
        assertThat(plan.toString()).contains("sources_occurred_idx");
      }
    }
  }

  // ---- construction

  @Test
  void theSearchCountersFollowEveryChangeOfStatus() {
    String schema = pg.newSchema("counts");
    try (PostgresMemoryStore store = store(schema);
        Engram engram = Engram.builder().borrowedStore(store).reasoner(new DeterministicReasoner()).build()) {
      Grants u1 = Grants.of("app/u1");
      List<dev.engram.WriteResult> written = new java.util.ArrayList<>();
      for (int i = 0; i < 12; i++) {
        written.add(engram.write(u1, "Fact number " + i + " about the garden."));
      }
      engram.write(Grants.of("app/u2"), "Another user's fact.");
      dev.engram.MemoryEntry corrected = engram.correct(u1, written.get(0).entry().entryId(), "A corrected fact.");
      engram.retire(u1, written.get(1).citation(), "no longer true");
      engram.reactivate(u1, engram.get(u1, written.get(1).entry().entryId()).citation(), "true again");
      engram.retire(u1, written.get(2).citation(), "gone");
      engram.deleteEntry(u1, written.get(3).entry().entryId());
      assertThat(corrected.isActive()).isTrue();
      String counted = "SELECT scope, count(*)::int FROM " + schema + ".engram_versions WHERE status = 'ACTIVE'"
          + " GROUP BY scope ORDER BY scope";
      String kept = "SELECT scope, active_count FROM " + schema + ".engram_scope_counts WHERE active_count > 0"
          + " ORDER BY scope";
      assertThat(pg.queryInts("SELECT active_count FROM " + schema + ".engram_scope_counts WHERE scope = 'app/u1'"))
          .containsExactly(10);
      assertThat(rows(kept)).isEqualTo(rows(counted));
      engram.deleteScope(u1, "app/u1");
      assertThat(pg.queryInts("SELECT coalesce(sum(active_count), 0)::int FROM " + schema
          + ".engram_scope_counts WHERE scope = 'app/u1'")).containsExactly(0);
    }
    assertThat(pg.queryInts("SELECT count(*)::int FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
        + " WHERE n.nspname = '" + schema + "' AND c.relname = 'engram_versions_search_idx'"
        + " AND 'gin_pending_list_limit=128' = ANY (c.reloptions)")).containsExactly(1);
  }

  /**
   * Schema 9 moves the counting of inserted rows from the per-row triggers into the inserting statements:
   * a schema 8 database with counted rows keeps its counts through the upgrade, and single writes,
   * batches, corrections, retirements and erasures afterwards keep every counter equal to a fresh count.
   */
  @Test
  void theActiveCountersStayExactAcrossTheUpgradeToCountedInserts() {
    String schema = pg.newSchema("counted");
    pg.execute("CREATE SCHEMA " + schema);
    pg.execute("CREATE TABLE " + schema + ".engram_schema_history (version integer PRIMARY KEY,"
        + " script text NOT NULL, installed_at timestamptz NOT NULL DEFAULT now())");
    List<String> scripts = PostgresMemoryStore.migrationScripts(schema, "engram_");
    int before = 8;
    assertThat(scripts.get(before)).contains("versions_count").doesNotContain("AFTER INSERT");
    for (int v = 1; v <= before; v++) {
      pg.execute(scripts.get(v - 1));
      pg.execute("INSERT INTO " + schema + ".engram_schema_history (version, script) VALUES (" + v + ", 'earlier')");
    }
    String[][] rows = {{"v1", "ACTIVE", "{garden,home}"}, {"v2", "ACTIVE", "{garden}"}, {"v3", "RETIRED", "{home}"}};
    for (String[] row : rows) {
      pg.execute("INSERT INTO " + schema + ".engram_versions (version_id, entry_id, version, scope, content, topics,"
          + " type, priority, glossary, evidence, content_hash, status, created_at, updated_at, created_in_revision,"
          + " search) VALUES ('" + row[0] + "', 'e" + row[0] + "', 1, 'app/u1', 'Old fact " + row[0] + "', '" + row[2]
          + "', 'fact', 2, '{}', '{}', 'h" + row[0] + "', '" + row[1] + "', '2026-01-01T00:00:00Z',"
          + " '2026-01-01T00:00:00Z', 1, ''::tsvector)");
      pg.execute("INSERT INTO " + schema + ".engram_version_topics (scope, topic, version_id, active)"
          + " SELECT 'app/u1', t, '" + row[0] + "', " + row[1].equals("ACTIVE") + " FROM unnest('" + row[2]
          + "'::text[]) AS t");
    }
    pg.execute("INSERT INTO " + schema + ".engram_scope_heads (scope, head) VALUES ('app/u1', 1)");
    String scopeCounted = "SELECT scope, count(*)::int FROM " + schema + ".engram_versions WHERE status = 'ACTIVE'"
        + " GROUP BY scope ORDER BY scope";
    String scopeKept = "SELECT scope, active_count FROM " + schema + ".engram_scope_counts WHERE active_count <> 0"
        + " ORDER BY scope";
    String topicCounted = "SELECT scope || '/' || topic, count(*)::int FROM " + schema + ".engram_version_topics"
        + " WHERE active GROUP BY scope, topic ORDER BY 1";
    String topicKept = "SELECT scope || '/' || topic, active_count FROM " + schema + ".engram_topic_counts"
        + " WHERE active_count <> 0 ORDER BY 1";
    assertThat(rows(scopeKept)).containsExactly("app/u1=2").isEqualTo(rows(scopeCounted));
    assertThat(rows(topicKept)).containsExactly("app/u1/garden=2", "app/u1/home=1").isEqualTo(rows(topicCounted));

    try (PostgresMemoryStore store = store(schema);
        Engram engram = Engram.builder().borrowedStore(store).reasoner(new DeterministicReasoner()).build()) {
      assertThat(rows(scopeKept)).isEqualTo(rows(scopeCounted));
      assertThat(rows(topicKept)).isEqualTo(rows(topicCounted));
      Grants u1 = Grants.of("app/u1");
      dev.engram.WriteResult one = engram.write(u1, "A new fact about the garden.",
          dev.engram.WriteOptions.builder().topicsHint("garden", "tools").build());
      List<dev.engram.WriteRequest> batch = new java.util.ArrayList<>();
      for (int i = 0; i < 5; i++) {
        batch.add(dev.engram.WriteRequest.of("Batch fact " + i + ".",
            dev.engram.WriteOptions.builder().topicsHint(i % 2 == 0 ? "home" : "travel").build()));
      }
      batch.add(dev.engram.WriteRequest.of("A new fact about the garden."));
      assertThat(engram.writeAll(Grants.of("app/u1", "app/u2"), batch).count(dev.engram.WriteResult.Outcome.APPENDED))
          .isEqualTo(5);
      engram.writeAll(Grants.of("app/u2"), List.of(dev.engram.WriteRequest.of("Another user's fact."),
          dev.engram.WriteRequest.of("Another user's second fact.")));
      engram.correct(u1, one.entry().entryId(), "A corrected fact about the garden.");
      engram.retire(u1, engram.get(u1, "ev1").citation(), "no longer true");
      engram.deleteEntry(u1, "ev2");
      assertThat(rows(scopeKept)).containsExactly("app/u1=6", "app/u2=2").isEqualTo(rows(scopeCounted));
      assertThat(rows(topicKept)).isEqualTo(rows(topicCounted));
      assertThat(rows(topicKept)).contains("app/u1/garden=1", "app/u1/home=3", "app/u1/travel=2", "app/u1/tools=1");
    }
    assertThat(pg.queryInts("SELECT version FROM " + schema + ".engram_schema_history ORDER BY version"))
        .hasSize(Migrations.versions().size());
    assertThat(pg.queryInts("SELECT count(*)::int FROM pg_trigger WHERE tgrelid = '" + schema
        + ".engram_versions'::regclass AND NOT tgisinternal AND (tgtype & 4) <> 0")).containsExactly(0);
  }

  /**
   * Schema 13 keeps a topic counter row only while its count is above zero: a schema 12 database's
   * rows at zero (left by retirements and erasures) go with the upgrade, and afterwards neither a
   * retirement nor an erasure leaves a counter naming the topic.
   */
  @Test
  void theUpgradeToSchema13DropsTopicCountersAtZeroAndErasureLeavesNone() {
    String schema = pg.newSchema("counters");
    pg.execute("CREATE SCHEMA " + schema);
    pg.execute("CREATE TABLE " + schema + ".engram_schema_history (version integer PRIMARY KEY,"
        + " script text NOT NULL, installed_at timestamptz NOT NULL DEFAULT now())");
    List<String> scripts = PostgresMemoryStore.migrationScripts(schema, "engram_");
    int before = 12;
    assertThat(scripts).hasSizeGreaterThan(before);
    for (int v = 1; v <= before; v++) {
      pg.execute(scripts.get(v - 1));
      pg.execute("INSERT INTO " + schema + ".engram_schema_history (version, script) VALUES (" + v + ", 'earlier')");
    }
    pg.execute("INSERT INTO " + schema + ".engram_topic_counts (scope, topic, active_count)"
        + " VALUES ('app/u1', 'hiv-status', 0), ('app/u1', 'kept', 1)");
    String counters = "SELECT scope || '/' || topic || '=' || active_count FROM " + schema + ".engram_topic_counts"
        + " ORDER BY 1";

    try (PostgresMemoryStore store = store(schema);
        Engram engram = Engram.builder().borrowedStore(store).reasoner(new DeterministicReasoner()).build()) {
      assertThat(texts(counters)).containsExactly("app/u1/kept=1");
      Grants u1 = Grants.of("app/u1");
      dev.engram.WriteResult retired = engram.write(u1, "A fact filed under a topic that goes away.",
          dev.engram.WriteOptions.builder().topicsHint("short-lived").build());
      engram.retire(u1, retired.entry().citation(), "no longer true");
      dev.engram.WriteResult erased = engram.write(u1, "A sensitive fact.",
          dev.engram.WriteOptions.builder().topicsHint("hiv-status").build());
      assertThat(texts(counters)).contains("app/u1/hiv-status=1").noneMatch(r -> r.contains("short-lived"));
      engram.deleteEntry(u1, erased.entry().entryId());
      assertThat(PostgresMemoryStoreTckTest.rowsMentioning(schema, "hiv-status")).isEmpty();
      engram.deleteScope(u1, "app/u1");
      assertThat(PostgresMemoryStoreTckTest.rowsMentioning(schema, "short-lived")).isEmpty();
    }
    assertThat(pg.queryInts("SELECT version FROM " + schema + ".engram_schema_history ORDER BY version"))
        .hasSize(Migrations.versions().size()).contains(13);
  }

  private List<String> texts(String sql) {
    List<String> out = new java.util.ArrayList<>();
    try (java.sql.Connection c = pg.pool().getConnection(); java.sql.Statement st = c.createStatement();
        java.sql.ResultSet rs = st.executeQuery(sql)) {
      while (rs.next()) {
        out.add(rs.getString(1));
      }
    } catch (SQLException e) {
      throw new IllegalStateException(sql + ": " + e.getMessage(), e);
    }
    return out;
  }

  private List<String> rows(String sql) {
    List<String> out = new java.util.ArrayList<>();
    try (java.sql.Connection c = pg.pool().getConnection(); java.sql.Statement st = c.createStatement();
        java.sql.ResultSet rs = st.executeQuery(sql)) {
      while (rs.next()) {
        out.add(rs.getString(1) + "=" + rs.getInt(2));
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
    return out;
  }

  @Test
  void declaresDurableMultiProcessSearchVectorsSourcesKeysReviewWorkClaimsRestoreAndModelUsage() {
    try (PostgresMemoryStore store = pg.freshStore()) {
      assertThat(store.capabilities()).containsExactlyInAnyOrder(StoreCapability.DURABLE,
          StoreCapability.MULTI_PROCESS, StoreCapability.FULL_TEXT_SEARCH, StoreCapability.VECTOR_STORAGE,
          StoreCapability.SOURCES, StoreCapability.RETRIEVAL_KEYS, StoreCapability.REVIEW,
          StoreCapability.WORK_CLAIMS, StoreCapability.REPLACE_SCOPE, StoreCapability.MODEL_USAGE);
    }
  }

  @Test
  void aJdbcUrlStoreOwnsItsPoolAndKeepsDataAcrossRestarts() {
    String schema = pg.newSchema("url");
    String url = pg.jdbcUrl();
    try (PostgresMemoryStore store = PostgresMemoryStore.builder().jdbcUrl(url).schema(schema).build();
        Engram engram = Engram.builder().store(store).reasoner(new DeterministicReasoner()).build()) {
      engram.write(Grants.of("app/u1"), "Prefers tea over coffee.");
    }
    PostgresMemoryStore store = PostgresMemoryStore.builder().jdbcUrl(url).schema(schema).build();
    assertThat(store.headRevision("app/u1")).isEqualTo(1);
    store.close();
    store.close();
    assertThatThrownBy(() -> store.headRevision("app/u1"))
        .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.STORE_CLOSED))
        .hasMessageContaining("closed");
  }

  @Test
  void aDataSourceStoreLeavesThePoolOpen() {
    PostgresMemoryStore store = pg.freshStore();
    store.close();
    assertThat(pg.pool().isClosed()).isFalse();
  }

  @Test
  void builderRejectsBadSettingsWithTheirNames() {
    assertThatThrownBy(() -> PostgresMemoryStore.builder().tablePrefix("Bad-Prefix"))
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("tablePrefix");
    assertThatThrownBy(() -> PostgresMemoryStore.builder().tablePrefix("x".repeat(31)))
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("tablePrefix");
    assertThatThrownBy(() -> PostgresMemoryStore.builder().schema("public; drop table x"))
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("schema");
    assertThatThrownBy(() -> PostgresMemoryStore.builder().jdbcUrl("jdbc:mysql://x/y"))
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("jdbc:postgresql:");
    assertThatThrownBy(() -> PostgresMemoryStore.builder().jdbcUrl(pg.jdbcUrl()).dataSource(pg.pool()))
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("jdbcUrl was already set");
    assertThatThrownBy(() -> PostgresMemoryStore.builder().build())
        .isInstanceOf(IllegalStateException.class).hasMessageContaining("jdbcUrl or dataSource");
    assertThatThrownBy(() -> PostgresMemoryStore.builder().maximumPoolSize(0))
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("maximumPoolSize");
  }

  @Test
  void anUnreachableServerIsStoreUnavailable() {
    StoreException e = catchThrowableOfType(StoreException.class, () -> PostgresMemoryStore.builder()
        .jdbcUrl("jdbc:postgresql://127.0.0.1:1/engram?connectTimeout=2").build());
    assertThat(e.code()).isEqualTo(ErrorCode.STORE_UNAVAILABLE);
    assertThat(e.getCause()).isNotNull();
  }

  // ---- schema

  @Test
  void migrationsAreRecordedOnceAndReopeningChangesNothing() {
    String schema = pg.newSchema("mig");
    store(schema).close();
    store(schema).close();
    assertThat(pg.queryInts("SELECT version FROM " + schema + ".engram_schema_history ORDER BY version"))
        .containsExactlyElementsOf(Migrations.versions());
  }

  /**
   * Versions written before the one text analysis hold the 'english' configuration's lexemes; opening
   * the store rebuilds them, so they are found by the Unicode and number forms they contain, and the
   * analysis version is recorded so that the next open only reads it.
   */
  @Test
  void versionsIndexedByTheEnglishConfigurationAreRebuiltWithTheTextAnalysisOnOpen() {
    String schema = pg.newSchema("analysis");
    pg.execute("CREATE SCHEMA " + schema);
    pg.execute("CREATE TABLE " + schema + ".engram_schema_history (version integer PRIMARY KEY,"
        + " script text NOT NULL, installed_at timestamptz NOT NULL DEFAULT now())");
    List<String> scripts = PostgresMemoryStore.migrationScripts(schema, "engram_").stream()
        .takeWhile(script -> !script.contains("text_analysis (")).toList();
    assertThat(scripts).hasSizeLessThan(PostgresMemoryStore.schemaVersion());
    for (int v = 1; v <= scripts.size(); v++) {
      pg.execute(scripts.get(v - 1));
      pg.execute("INSERT INTO " + schema + ".engram_schema_history (version, script) VALUES (" + v + ", 'earlier')");
    }
    String[][] rows = {
      {"v1", "The ﬁsh market in İstanbul opens at 3.14 for ＡＢＣ."},
      {"v2", "Release v2.1.3 served 1,000 users in room Ⅻ."}};
    for (String[] row : rows) {
      pg.execute("INSERT INTO " + schema + ".engram_versions (version_id, entry_id, version, scope, content, topics,"
          + " type, priority, glossary, evidence, content_hash, status, created_at, updated_at, created_in_revision,"
          + " search) VALUES ('" + row[0] + "', 'e" + row[0] + "', 1, 'app/u1', '" + row[1] + "', '{ﬁnance}', 'fact',"
          + " 2, '{}', '{}', 'h" + row[0] + "', 'ACTIVE', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', 1,"
          + " to_tsvector('english', '" + row[1] + "'))");
    }
    try (PostgresMemoryStore store = store(schema);
        Engram engram = Engram.builder().store(store).reasoner(new DeterministicReasoner()).build()) {
      for (String[] probe : new String[][] {
          {"fish", "v1"}, {"ABC", "v1"}, {"istanbul", "v1"}, {"3.14", "v1"}, {"v2.1.3", "v2"}, {"1,000", "v2"},
          {"xii", "v2"}, {"users", "v2"}}) {
        assertThat(engram.search(Grants.of("app/u1"), dev.engram.SearchRequest.builder(probe[0])
            .mode(dev.engram.SearchMode.FTS).build()).hits()).as(probe[0])
            .extracting(h -> h.entry().versionId()).containsExactly(probe[1]);
      }
      assertThat(engram.search(Grants.of("app/u1"), dev.engram.SearchRequest.builder("finance")
          .mode(dev.engram.SearchMode.FTS).build()).hits()).hasSize(2);
    }
    assertThat(pg.queryInts("SELECT analysis FROM " + schema + ".engram_text_analysis"))
        .containsExactly(dev.engram.spi.TextAnalysis.VERSION);
    store(schema).close();
    assertThat(pg.queryInts("SELECT analysis FROM " + schema + ".engram_text_analysis")).hasSize(1);
  }

  @Test
  void aSchemaNewerThanTheLibraryIsRefused() {
    String schema = pg.newSchema("newer");
    store(schema).close();
    pg.execute("INSERT INTO " + schema + ".engram_schema_history (version, script) VALUES (99, 'V99__future.sql')");
    for (boolean migrate : new boolean[] {true, false}) {
      StoreException e = catchThrowableOfType(StoreException.class, () -> PostgresMemoryStore.builder()
          .dataSource(pg.pool()).schema(schema).runMigrations(migrate).build());
      assertThat(e.code()).isEqualTo(ErrorCode.STORE_INCOMPATIBLE);
      assertThat(e).hasMessageContaining("99");
    }
  }

  @Test
  void withoutMigrationsAMissingSchemaIsIncompatibleAndAHostAppliedOneWorks() {
    String schema = pg.newSchema("host");
    StoreException e = catchThrowableOfType(StoreException.class, () -> PostgresMemoryStore.builder()
        .dataSource(pg.pool()).schema(schema).runMigrations(false).build());
    assertThat(e.code()).isEqualTo(ErrorCode.STORE_INCOMPATIBLE);

    pg.execute("CREATE SCHEMA " + schema);
    for (String script : PostgresMemoryStore.migrationScripts(schema, "mem_")) {
      assertThat(script).doesNotContain("${");
      pg.execute(script);
    }
    try (PostgresMemoryStore store = PostgresMemoryStore.builder().dataSource(pg.pool()).schema(schema)
        .tablePrefix("mem_").runMigrations(false).build()) {
      dirty(store, "app/u1", "travel");
      assertThat(store.headRevision("app/u1")).isEqualTo(1);
    }
  }

  @Test
  void tablePrefixesKeepStoresInOneSchemaApart() {
    String schema = pg.newSchema("prefix");
    try (PostgresMemoryStore a = PostgresMemoryStore.builder().dataSource(pg.pool()).schema(schema).tablePrefix("a_").build();
        PostgresMemoryStore b = PostgresMemoryStore.builder().dataSource(pg.pool()).schema(schema).tablePrefix("b_").build()) {
      dirty(a, "app/u1", "travel");
      assertThat(a.headRevision("app/u1")).isEqualTo(1);
      assertThat(b.headRevision("app/u1")).isZero();
      assertThat(b.dirtyTopics(10)).isEmpty();
    }
  }

  @Test
  void missingTablesAreStoreIncompatibleWithTheSqlExceptionAsCause() {
    String schema = pg.newSchema("dropped");
    try (PostgresMemoryStore store = store(schema)) {
      pg.execute("DROP TABLE " + schema + ".engram_scope_heads");
      StoreException e = catchThrowableOfType(StoreException.class, () -> store.headRevision("app/u1"));
      assertThat(e.code()).isEqualTo(ErrorCode.STORE_INCOMPATIBLE);
      assertThat(e.getCause()).isInstanceOf(SQLException.class);
    }
  }

  @Test
  void aTransactionIsUnusableAfterItEnds() {
    try (PostgresMemoryStore store = pg.freshStore()) {
      dev.engram.spi.StoreTransaction[] leaked = new dev.engram.spi.StoreTransaction[1];
      store.inTransaction("app/u1", tx -> {
        leaked[0] = tx;
        return null;
      });
      assertThatThrownBy(() -> leaked[0].headRevision("app/u1")).isInstanceOf(IllegalStateException.class);
      assertThatThrownBy(() -> leaked[0].markTopicsWritten("app/u1", List.of("x"), 1, Instant.now()))
          .isInstanceOf(IllegalStateException.class);
    }
  }

  // ---- claims

  @Test
  void claimsSkipClaimedAndCleanTopicsAndEndOnRelease() {
    try (PostgresMemoryStore store = pg.freshStore()) {
      dirty(store, "app/u1", "billing", "travel");
      dirty(store, "app/u2", "health");
      store.inTransaction("app/u2", tx -> {
        tx.markTopicCurated("app/u2", "health", tx.headRevision("app/u2"), "clean now");
        return null;
      });

      List<TopicClaim> first = store.claimDirtyTopics("w1", 1, Duration.ofMinutes(1));
      assertThat(first).extracting(TopicClaim::scope, TopicClaim::topic)
          .containsExactly(org.assertj.core.groups.Tuple.tuple("app/u1", "billing"));
      assertThat(first.get(0).workerId()).isEqualTo("w1");
      assertThat(first.get(0).lastWriteRevision()).isEqualTo(1);
      assertThat(first.get(0).lastCuratedRevision()).isZero();

      List<TopicClaim> second = store.claimDirtyTopics("w2", 10, Duration.ofMinutes(1));
      assertThat(second).extracting(TopicClaim::topic).containsExactly("travel");
      assertThat(store.claimDirtyTopics("w3", 10, Duration.ofMinutes(1))).isEmpty();

      assertThat(store.releaseClaim(first.get(0))).isTrue();
      assertThat(store.releaseClaim(first.get(0))).isFalse();
      List<TopicClaim> third = store.claimDirtyTopics("w3", 10, Duration.ofMinutes(1));
      assertThat(third).extracting(TopicClaim::topic).containsExactly("billing");
      assertThat(store.renewClaim(first.get(0), Duration.ofMinutes(1))).as("renewing a claim that ended").isEmpty();
      Optional<TopicClaim> renewed = store.renewClaim(third.get(0), Duration.ofMinutes(10));
      assertThat(renewed).get().extracting(TopicClaim::claimedUntil).matches(u -> u.isAfter(third.get(0).claimedUntil()));
      assertThat(store.dirtyTopics(10)).as("claims do not change dirty tracking").hasSize(2);
    }
  }

  @Test
  void theSpiClaimsAndTheStoreWideClaimsShareTheirRows() {
    try (PostgresMemoryStore store = pg.freshStore()) {
      dirty(store, "app/u1", "billing", "travel");
      List<TopicClaim> wide = store.claimDirtyTopics("w1", 1, Duration.ofMinutes(1));
      assertThat(wide).extracting(TopicClaim::topic).containsExactly("billing");
      List<dev.engram.spi.WorkClaim> scoped = store.claimDirtyTopics("w2", List.of("app/u1"), 10, Duration.ofMinutes(1));
      assertThat(scoped).extracting(dev.engram.spi.WorkClaim::topic).as("billing is w1's").containsExactly("travel");
      assertThat(store.claimDirtyTopics("w3", 10, Duration.ofMinutes(1))).as("travel is w2's").isEmpty();
      assertThat(store.releaseClaim(scoped.get(0))).isTrue();
      assertThat(store.claimDirtyTopics("w3", 10, Duration.ofMinutes(1))).extracting(TopicClaim::topic)
          .containsExactly("travel");
    }
  }

  @Test
  void sourceClaimsHandOutDisjointPendingScopesAndWorkersDrainThemOnce() throws Exception {
    try (PostgresMemoryStore store = pg.freshStore()) {
      Engram engram = Engram.builder().store(store).reasoner(new DeterministicReasoner()).build();
      List<String> scopes = List.of("app/c1", "app/c2", "app/c3", "app/c4");
      for (String scope : scopes) {
        List<dev.engram.SourceRecord> turns = new java.util.ArrayList<>();
        for (int i = 0; i < 10; i++) {
          turns.add(dev.engram.SourceRecord.of("s", "user", scope + " says thing " + i).id("t" + i));
        }
        engram.captureAll(Grants.of(scope), turns);
      }
      engram.captureAll(Grants.of("app/done"), List.of(dev.engram.SourceRecord.of("s", "user", "flushed already")));
      engram.flush(Grants.of("app/done"));

      List<SourceClaim> first = store.claimPendingSources("w1", 2, Duration.ofMinutes(1));
      assertThat(first).extracting(SourceClaim::scope).containsExactly("app/c1", "app/c2");
      assertThat(first.get(0).lastPosition()).isEqualTo(10);
      assertThat(first.get(0).cursor()).isZero();
      List<SourceClaim> second = store.claimPendingSources("w2", 10, Duration.ofMinutes(1));
      assertThat(second).extracting(SourceClaim::scope)
          .as("claimed and fully extracted scopes are skipped").containsExactly("app/c3", "app/c4");
      assertThat(store.claimPendingSources("w3", 10, Duration.ofMinutes(1))).isEmpty();
      assertThat(store.releaseSourceClaim(first.get(0))).isTrue();
      assertThat(store.releaseSourceClaim(first.get(0))).isFalse();
      List<SourceClaim> brief = store.claimPendingSources("w3", 10, Duration.ofMillis(1));
      assertThat(brief).extracting(SourceClaim::scope).containsExactly("app/c1");
      Thread.sleep(20);
      List<SourceClaim> taken = store.claimPendingSources("w4", 1, Duration.ofMinutes(1));
      assertThat(taken).as("an expired lease is claimable").extracting(SourceClaim::scope).containsExactly("app/c1");
      assertThat(store.releaseSourceClaim(brief.get(0))).as("the expired claim was taken over").isFalse();
      for (SourceClaim c : List.of(taken.get(0), first.get(1), second.get(0), second.get(1))) {
        assertThat(store.releaseSourceClaim(c)).isTrue();
      }

      // two workers drain every scope through claims; each turn becomes exactly one entry
      java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(2);
      try {
        List<java.util.concurrent.Future<Integer>> runs = new java.util.ArrayList<>();
        for (String worker : List.of("wa", "wb")) {
          runs.add(pool.submit(() -> {
            int appended = 0;
            for (int round = 0; round < 50; round++) {
              List<SourceClaim> claims = store.claimPendingSources(worker, 1, Duration.ofMinutes(1));
              if (claims.isEmpty()) {
                break;
              }
              for (SourceClaim c : claims) {
                appended += engram.flush(Grants.of(c.scope()), dev.engram.FlushOptions.builder().windowRecords(3).build())
                    .appended();
                store.releaseSourceClaim(c);
              }
            }
            return appended;
          }));
        }
        int total = 0;
        for (java.util.concurrent.Future<Integer> f : runs) {
          total += f.get(120, java.util.concurrent.TimeUnit.SECONDS);
        }
        assertThat(total).isEqualTo(40);
      } finally {
        pool.shutdownNow();
      }
      for (String scope : scopes) {
        assertThat(store.sourceState(scope)).isEqualTo(new dev.engram.spi.SourceState(10, 10));
        assertThat(engram.list(Grants.of(scope))).hasSize(10);
      }
      assertThat(store.claimPendingSources("w4", 10, Duration.ofMinutes(1))).isEmpty();
    }
  }

  @Test
  void anExpiredLeaseMakesTheTopicClaimableAgain() throws InterruptedException {
    try (PostgresMemoryStore store = pg.freshStore()) {
      dirty(store, "app/u1", "billing");
      TopicClaim claim = store.claimDirtyTopics("w1", 5, Duration.ofMillis(300)).get(0);
      List<TopicClaim> again = List.of();
      for (int i = 0; i < 100 && again.isEmpty(); i++) {
        Thread.sleep(50);
        again = store.claimDirtyTopics("w2", 5, Duration.ofMinutes(1));
      }
      assertThat(again).extracting(TopicClaim::workerId).containsExactly("w2");
      assertThat(store.releaseClaim(claim)).as("the stale holder cannot end the new claim").isFalse();
      assertThat(store.claimDirtyTopics("w3", 5, Duration.ofMinutes(1))).isEmpty();
    }
  }

  @Test
  void claimArgumentsAreChecked() {
    try (PostgresMemoryStore store = pg.freshStore()) {
      assertThatThrownBy(() -> store.claimDirtyTopics(" ", 1, Duration.ofSeconds(1)))
          .isInstanceOf(InvalidInputException.class).hasMessageContaining("workerId");
      assertThatThrownBy(() -> store.claimDirtyTopics("w", 0, Duration.ofSeconds(1)))
          .isInstanceOf(InvalidInputException.class).hasMessageContaining("limit");
      assertThatThrownBy(() -> store.claimDirtyTopics("w", 1, Duration.ZERO))
          .isInstanceOf(InvalidInputException.class).hasMessageContaining("lease");
    }
  }

  /**
   * Two engines over two store instances on the same PostgreSQL schema: vectors one stores by reindex (no
   * revision moves) are seen by the other's next search through the store's vector epoch. The scope lacks
   * more vectors than a search completes itself (16 versions), so only the reindex completes them.
   */
  @Test
  void aReindexInOneEngineIsSeenByAnotherOnTheSamePostgresSchema() {
    dev.engram.test.HashingEmbedder writerEmbedder = new dev.engram.test.HashingEmbedder();
    Grants u1 = Grants.of("app/user/u1");
    String schema = pg.newSchema("epoch");
    try (PostgresMemoryStore a = store(schema);
        PostgresMemoryStore b = store(schema);
        Engram writer = Engram.builder().store(a).reasoner(new DeterministicReasoner()).embedder(writerEmbedder).build();
        Engram reader = Engram.builder().store(b).reasoner(new DeterministicReasoner())
            .embedder(new dev.engram.test.HashingEmbedder()).backgroundVectorCompletion(false).build()) {
      writer.write(u1, "The team meets every Tuesday morning for planning.");
      writerEmbedder.failing(true);
      assertThat(writer.write(u1, "Quarterly taxes are filed by the accountant.").vectorsMissing()).isTrue();
      List<dev.engram.WriteRequest> more = new java.util.ArrayList<>();
      for (int i = 1; i <= 16; i++) {
        more.add(dev.engram.WriteRequest.of("Archived receipt number " + i + " is kept in the blue folder."));
      }
      assertThat(writer.writeAll(u1, more).count(dev.engram.WriteResult.Outcome.APPENDED)).isEqualTo(16);
      writerEmbedder.failing(false);
      dev.engram.SearchResult before = reader.search(u1, dev.engram.SearchRequest.of("taxes accountant"));
      assertThat(before.used()).isEqualTo(dev.engram.SearchMode.FTS);
      assertThat(before.fallbackReason()).contains("incomplete");

      assertThat(writer.operator().reindex(u1)).isEqualTo(17);
      dev.engram.SearchResult after = reader.search(u1, dev.engram.SearchRequest.of("taxes accountant"));
      assertThat(after.used()).isEqualTo(dev.engram.SearchMode.HYBRID);
      assertThat(after.hits().get(0).matchedBy()).contains(dev.engram.SearchChannel.VECTOR);
    }
  }
}
