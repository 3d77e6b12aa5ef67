/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.Engram;
import dev.engram.EntryStatus;
import dev.engram.EntryType;
import dev.engram.Grants;
import dev.engram.MemoryEntry;
import dev.engram.SearchChannel;
import dev.engram.SearchMode;
import dev.engram.SearchRequest;
import dev.engram.SourceRecord;
import dev.engram.reasoner.DeterministicReasoner;
import dev.engram.spi.FullTextQuery;
import dev.engram.spi.ScoredEntry;
import dev.engram.spi.TextAnalysis;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * What the PostgreSQL store adds to the retrieval-keys contract: the upgrade to schema 14, keys that
 * travel with their versions' writes, the key search's filters and order, the per-scope document counts
 * and the rebuild of key documents with the text analysis.
 */
class PostgresRetrievalKeysTest {
  private static final String SCOPE = "app/u1";
  private static final Grants U1 = Grants.of(SCOPE);
  private static final Instant NOW = Instant.parse("2026-03-01T10:00:00Z");

  private final TestPostgres pg = TestPostgres.get();

  private static MemoryEntry version(String id, String content, String topic, EntryType type, EntryStatus status,
      @Nullable Instant occurredAt) {
    return new MemoryEntry("e-" + id, id, 1, null, SCOPE, content, List.of(topic), type, 2, null, List.of(), null,
        null, List.of(), "h-" + id, status, null, occurredAt, NOW, NOW, 1);
  }

  private static FullTextQuery query(String text) {
    return new FullTextQuery(TextAnalysis.queryTerms(text, FullTextQuery.MAX_TERMS), Set.of(), Set.of());
  }

  private static List<String> ids(List<ScoredEntry> hits) {
    return hits.stream().map(h -> h.entry().versionId()).toList();
  }

  /** The per-scope counts the key search ranks with, beside a fresh count of active versions with keys. */
  private List<List<Integer>> keyCounts(String schema) {
    return List.of(
        pg.queryInts("SELECT active_count FROM " + schema + ".engram_key_counts WHERE active_count <> 0 ORDER BY scope"),
        pg.queryInts("SELECT count(*)::int FROM " + schema + ".engram_version_keys k JOIN " + schema
            + ".engram_versions v ON v.version_id = k.version_id WHERE v.status = 'ACTIVE' GROUP BY k.scope"
            + " ORDER BY k.scope"));
  }

  /**
   * A schema 13 database upgrades to 14 and keeps its versions; keys stored afterwards for a version
   * written before the upgrade are found, a retired version's keys only once it is active again, and
   * the engine's captured turns carry theirs.
   */
  @Test
  void aSchema13DatabaseUpgradesKeepsItsDataAndThenStoresAndFindsKeys() {
    String schema = pg.newSchema("keys");
    pg.execute("CREATE SCHEMA " + schema);
    pg.execute("CREATE TABLE " + schema + ".engram_schema_history (version integer PRIMARY KEY,"
        + " script text NOT NULL, installed_at timestamptz NOT NULL DEFAULT now())");
    List<String> scripts = PostgresMemoryStore.migrationScripts(schema, "engram_");
    int before = 13;
    assertThat(scripts).hasSizeGreaterThan(before);
    assertThat(scripts.get(before)).contains("version_keys");
    for (int v = 1; v <= before; v++) {
      pg.execute(scripts.get(v - 1));
      pg.execute("INSERT INTO " + schema + ".engram_schema_history (version, script) VALUES (" + v + ", 'earlier')");
    }
    pg.execute("INSERT INTO " + schema + ".engram_scope_heads (scope, head) VALUES ('app/u1', 1)");
    String[][] rows = {{"v1", "ACTIVE", "The orchard is pruned in March."}, {"v2", "RETIRED", "The old gate was red."}};
    for (String[] row : rows) {
      pg.execute("INSERT INTO " + schema + ".engram_versions (version_id, entry_id, version, scope, content, topics,"
          + " type, priority, glossary, evidence, content_hash, status, created_at, updated_at, created_in_revision,"
          + " search) VALUES ('" + row[0] + "', 'e" + row[0] + "', 1, 'app/u1', '" + row[2] + "', '{garden}', 'fact',"
          + " 2, '{}', '{}', 'h" + row[0] + "', '" + row[1] + "', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', 1,"
          + " setweight('" + SearchText.vector(TextAnalysis.terms(row[2])).replace("'", "''") + "'::tsvector, 'B'))");
    }
    pg.execute("INSERT INTO " + schema + ".engram_scope_counts (scope, active_count) VALUES ('app/u1', 1)");

    try (PostgresMemoryStore store = PostgresMemoryStore.builder().dataSource(pg.pool()).schema(schema).build();
        Engram engram = Engram.builder().borrowedStore(store).reasoner(new DeterministicReasoner()).build()) {
      assertThat(pg.queryInts("SELECT version FROM " + schema + ".engram_schema_history ORDER BY version"))
          .hasSize(Migrations.versions().size()).contains(14);
      assertThat(store.version("v1")).map(MemoryEntry::content).contains("The orchard is pruned in March.");
      assertThat(store.version("v2")).map(MemoryEntry::status).contains(EntryStatus.RETIRED);
      assertThat(ids(store.searchFullText(List.of(SCOPE), query("orchard"), 10))).containsExactly("v1");
      assertThat(store.keysOf(List.of("v1", "v2"))).isEmpty();

      store.inTransaction(SCOPE, tx -> {
        tx.putKeys("v1", List.of("When is the orchard cut back?", "Pruning happens before the blossoms."));
        tx.putKeys("v2", List.of("Which colour was the gate?"));
        return null;
      });
      assertThat(store.keysOf(List.of("v2", "v1", "v9"))).containsExactly(
          Map.entry("v2", List.of("Which colour was the gate?")),
          Map.entry("v1", List.of("When is the orchard cut back?", "Pruning happens before the blossoms.")));
      assertThat(ids(store.searchKeys(List.of(SCOPE), query("blossoms pruning"), 10))).containsExactly("v1");
      assertThat(ids(store.searchFullText(List.of(SCOPE), query("blossoms"), 10))).isEmpty();
      assertThat(store.searchKeys(List.of(SCOPE), query("gate colour"), 10)).isEmpty();
      assertThat(keyCounts(schema)).containsExactly(List.of(1), List.of(1));
      store.inTransaction(SCOPE, tx -> {
        tx.updateStatus("v2", EntryStatus.ACTIVE, null, NOW);
        return null;
      });
      assertThat(ids(store.searchKeys(List.of(SCOPE), query("gate colour"), 10))).containsExactly("v2");
      assertThat(keyCounts(schema)).containsExactly(List.of(2), List.of(2));

      engram.captureAll(U1, List.of(
          SourceRecord.of("s1", "Ana", "Where did you park the bicycle?").at(NOW).id("t1"),
          SourceRecord.of("s1", "Ben", "Behind the shed.").at(NOW.plusSeconds(30)).id("t2")));
      engram.flush(U1);
      MemoryEntry reply = engram.list(U1).stream().filter(e -> e.evidence().contains("t2")).findFirst().orElseThrow();
      assertThat(ids(store.searchKeys(List.of(SCOPE), query("bicycle"), 10))).containsExactly(reply.versionId());
      assertThat(engram.search(U1, SearchRequest.builder("bicycle").mode(SearchMode.FTS).build()).hits())
          .filteredOn(h -> h.entry().entryId().equals(reply.entryId()))
          .singleElement().satisfies(h -> assertThat(h.matchedBy()).containsExactly(SearchChannel.KEY_FTS));
      assertThat(keyCounts(schema)).containsExactly(List.of(3), List.of(3));
    }
  }

  /**
   * Keys of versions the transaction writes itself travel in its one round trip, one statement for
   * many; checking whether such a version has keys reads nothing.
   */
  @Test
  void keysOfTheTransactionsOwnVersionsAddNoRoundTrip() {
    String schema = pg.newSchema("keytrips");
    AtomicInteger executed = new AtomicInteger();
    AtomicInteger rollbacks = new AtomicInteger();
    try (PostgresMemoryStore store = PostgresMemoryStore.builder()
        .dataSource(PostgresExpectedHeadTest.counting(pg.pool(), executed, rollbacks)).schema(schema).build()) {
      store.inTransaction(SCOPE, List.of("h-v0"), tx -> {
        tx.insertVersion(version("v0", "A first note.", "general", EntryType.FACT, EntryStatus.ACTIVE, null));
        return null;
      });
      for (String[] batch : new String[][] {{"v1"}, {"v2", "v3", "v4"}}) {
        executed.set(0);
        store.inTransaction(SCOPE, List.of("h-" + batch[0]), tx -> {
          for (String id : batch) {
            tx.insertVersion(version(id, "Note " + id + ".", "general", EntryType.FACT, EntryStatus.ACTIVE, null));
            assertThat(tx.keysOf(List.of(id))).isEmpty();
            tx.putKeys(id, List.of("the lantern of " + id));
            assertThat(tx.keysOf(List.of(id))).containsOnlyKeys(id);
            assertThatThrownBy(() -> tx.putKeys(id, List.of("again"))).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining(id);
          }
          return null;
        });
        assertThat(executed.get()).as("round trips of %s", List.of(batch)).isEqualTo(1);
      }
      assertThat(rollbacks.get()).isZero();
      assertThat(store.keysOf(List.of("v0", "v1", "v2", "v3", "v4"))).containsOnlyKeys("v1", "v2", "v3", "v4");
      assertThat(ids(store.searchKeys(List.of(SCOPE), query("lantern v3"), 10))).startsWith("v3")
          .containsExactlyInAnyOrder("v1", "v2", "v3", "v4");
      assertThat(keyCounts(schema)).containsExactly(List.of(4), List.of(4));
    }
  }

  /**
   * The key search applies topics, types and event time before its limit, and ranks equal scores by
   * version id, newest first, as the content search does.
   */
  @Test
  void theKeySearchFiltersBeforeItsLimitAndBreaksTiesByVersionId() {
    try (PostgresMemoryStore store = pg.freshStore()) {
      Instant may = Instant.parse("2026-05-10T08:00:00Z");
      store.inTransaction(SCOPE, tx -> {
        tx.insertVersion(version("v1", "One.", "travel", EntryType.EVENT, EntryStatus.ACTIVE, may));
        tx.insertVersion(version("v2", "Two.", "home", EntryType.FACT, EntryStatus.ACTIVE, may.plusSeconds(86_400)));
        tx.insertVersion(version("v3", "Three.", "home", EntryType.FACT, EntryStatus.ACTIVE, null));
        tx.insertVersion(version("v4", "Four.", "home", EntryType.FACT, EntryStatus.SUPERSEDED, may));
        for (String id : List.of("v1", "v2", "v3", "v4")) {
          tx.putKeys(id, List.of("the harbour ferry"));
        }
        return null;
      });
      List<ScoredEntry> all = store.searchKeys(List.of(SCOPE), query("harbour ferry"), 10);
      assertThat(ids(all)).containsExactly("v3", "v2", "v1");
      assertThat(all).extracting(ScoredEntry::score).containsOnly(all.get(0).score());
      assertThat(ids(store.searchKeys(List.of(SCOPE), query("ferry"), 2))).containsExactly("v3", "v2");
      FullTextQuery q = query("harbour ferry");
      assertThat(ids(store.searchKeys(List.of(SCOPE),
          new FullTextQuery(q.terms(), Set.of("travel"), Set.of()), 1))).containsExactly("v1");
      assertThat(ids(store.searchKeys(List.of(SCOPE),
          new FullTextQuery(q.terms(), Set.of(), Set.of(EntryType.EVENT)), 1))).containsExactly("v1");
      assertThat(ids(store.searchKeys(List.of(SCOPE),
          new FullTextQuery(q.terms(), Set.of(), Set.of(), may, may.plusSeconds(3_600)), 1))).containsExactly("v1");
      assertThat(ids(store.searchKeys(List.of(SCOPE),
          new FullTextQuery(q.terms(), Set.of("home"), Set.of(), may, null), 5))).containsExactly("v2");
      assertThat(ids(store.searchKeys(List.of(SCOPE, "app/u2"), query("harbour"), 0))).isEmpty();
    }
  }

  /** The more key documents of the scopes hold a term, the less a match on it counts. */
  @Test
  void aRareKeyTermOutranksACommonOne() {
    try (PostgresMemoryStore store = pg.freshStore()) {
      store.inTransaction(SCOPE, tx -> {
        for (int i = 1; i <= 5; i++) {
          String id = "v" + i;
          tx.insertVersion(version(id, "Note " + i + ".", "general", EntryType.FACT, EntryStatus.ACTIVE, null));
          tx.putKeys(id, List.of(i == 1 ? "the kestrel nests" : "the weather again"));
        }
        tx.insertVersion(version("v6", "Note 6.", "general", EntryType.FACT, EntryStatus.ACTIVE, null));
        tx.putKeys("v6", List.of("the weather and the kestrel"));
        return null;
      });
      List<ScoredEntry> hits = store.searchKeys(List.of(SCOPE), query("kestrel weather"), 10);
      assertThat(ids(hits).subList(0, 2)).containsExactlyInAnyOrder("v1", "v6");
      assertThat(ids(hits).subList(2, 6)).containsExactly("v5", "v4", "v3", "v2");
      assertThat(hits.get(1).score()).isGreaterThan(hits.get(2).score());
    }
  }

  /**
   * A nested transaction on the same scope that stores keys of the outer one's version makes the outer
   * one check against what is stored: the version then already has keys.
   */
  @Test
  void keysStoredByANestedTransactionAreSeenByTheOuterOne() {
    try (PostgresMemoryStore store = pg.freshStore()) {
      assertThatThrownBy(() -> store.inTransaction(SCOPE, tx -> {
        tx.insertVersion(version("v1", "One.", "general", EntryType.FACT, EntryStatus.ACTIVE, null));
        store.inTransaction(SCOPE, inner -> {
          inner.putKeys("v1", List.of("from the nested transaction"));
          return null;
        });
        assertThat(tx.keysOf(List.of("v1"))).containsEntry("v1", List.of("from the nested transaction"));
        tx.putKeys("v1", List.of("from the outer transaction"));
        return null;
      })).isInstanceOf(IllegalStateException.class).hasMessageContaining("v1").hasMessageContaining("already has");
      assertThat(store.version("v1")).isEmpty();
      assertThat(store.keysOf(List.of("v1"))).isEmpty();

      store.inTransaction(SCOPE, tx -> {
        tx.insertVersion(version("v2", "Two.", "general", EntryType.FACT, EntryStatus.ACTIVE, null));
        tx.putKeys("v2", List.of());
        assertThatThrownBy(() -> tx.putKeys("v9", List.of("nothing to key"))).isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("v9").hasMessageContaining("does not exist");
        assertThatThrownBy(() -> tx.putKeys("v2", List.of(" "))).isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("blank");
        return null;
      });
      assertThat(store.keysOf(List.of("v2"))).isEmpty();
      store.inTransaction(SCOPE, tx -> {
        tx.putKeys("v2", List.of("stored after all"));
        return null;
      });
      assertThat(store.keysOf(List.of("v2"))).containsEntry("v2", List.of("stored after all"));
    }
  }

  /** Key documents written with another text analysis are rebuilt when the store opens, as content is. */
  @Test
  void keyDocumentsAreRebuiltWithTheTextAnalysisOnOpen() {
    String schema = pg.newSchema("keytext");
    try (PostgresMemoryStore store = PostgresMemoryStore.builder().dataSource(pg.pool()).schema(schema).build()) {
      store.inTransaction(SCOPE, tx -> {
        tx.insertVersion(version("v1", "One.", "general", EntryType.FACT, EntryStatus.ACTIVE, null));
        tx.putKeys("v1", List.of("The ﬁsh market in İstanbul"));
        return null;
      });
      assertThat(ids(store.searchKeys(List.of(SCOPE), query("fish istanbul"), 10))).containsExactly("v1");
    }
    pg.execute("UPDATE " + schema + ".engram_version_keys SET search = to_tsvector('simple', 'unrelated words')");
    pg.execute("DELETE FROM " + schema + ".engram_text_analysis");
    try (PostgresMemoryStore store = PostgresMemoryStore.builder().dataSource(pg.pool()).schema(schema).build()) {
      assertThat(ids(store.searchKeys(List.of(SCOPE), query("fish istanbul"), 10))).containsExactly("v1");
      assertThat(store.searchKeys(List.of(SCOPE), query("unrelated"), 10)).isEmpty();
    }
    assertThat(pg.queryInts("SELECT analysis FROM " + schema + ".engram_text_analysis"))
        .containsExactly(TextAnalysis.VERSION);
  }
}
