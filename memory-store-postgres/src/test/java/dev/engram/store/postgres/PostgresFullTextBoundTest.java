/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.engram.EntryStatus;
import dev.engram.EntryType;
import dev.engram.InvalidInputException;
import dev.engram.MemoryEntry;
import dev.engram.spi.FullTextQuery;
import dev.engram.spi.ScoredEntry;
import dev.engram.spi.TextAnalysis;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The per-scope term statistics of schema 16 and the bounded full-text ranking built on them: counts
 * that follow every write, status change and erasure exactly (and leave no row behind), the full
 * ranking whenever a query's terms match no more versions than the bound, and past the bound a
 * candidate set of at most the bound, each candidate scored as the full ranking scores it.
 */
class PostgresFullTextBoundTest {
  private static final String SCOPE = "app/u1";
  private static final String OTHER = "app/u2";
  private static final Instant NOW = Instant.parse("2026-03-01T10:00:00Z");

  private final TestPostgres pg = TestPostgres.get();

  private static MemoryEntry version(String scope, String id, String content, EntryStatus status) {
    return new MemoryEntry("e-" + id, id, 1, null, scope, content, List.of("general"), EntryType.FACT, 2, null,
        List.of(), null, null, List.of(), "h-" + id, status, null, null, NOW, NOW, 1);
  }

  private static FullTextQuery query(String text) {
    return new FullTextQuery(TextAnalysis.queryTerms(text, FullTextQuery.MAX_TERMS), Set.of(), Set.of());
  }

  private static List<String> ids(List<ScoredEntry> hits) {
    return hits.stream().map(h -> h.entry().versionId()).toList();
  }

  /** {@code scope term df} of every counter row, and the same counted afresh from the active versions. */
  private List<List<String>> termCounts(String schema) {
    return List.of(
        strings("SELECT scope || ' ' || term || ' ' || df FROM " + schema + ".engram_term_counts ORDER BY 1"),
        strings("SELECT v.scope || ' ' || t.term || ' ' || count(*) FROM " + schema + ".engram_versions v"
            + " CROSS JOIN LATERAL unnest(tsvector_to_array(v.search)) AS t(term) WHERE v.status = 'ACTIVE'"
            + " GROUP BY v.scope, t.term ORDER BY 1"));
  }

  private List<String> strings(String sql) {
    List<String> out = new ArrayList<>();
    try (Connection c = pg.pool().getConnection(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
      while (rs.next()) {
        out.add(rs.getString(1));
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
    return out;
  }

  private static void assertExact(List<List<String>> counts) {
    assertThat(counts.get(0)).isNotEmpty().containsExactlyElementsOf(counts.get(1));
  }

  /** Inserts, batches, status changes both ways, an entry's erasure and a scope's erasure keep the counts exact. */
  @Test
  void termCountsFollowEveryChangeAndErasureLeavesNoRow() {
    String schema = pg.newSchema("terms");
    try (PostgresMemoryStore store = PostgresMemoryStore.builder().dataSource(pg.pool()).schema(schema).build()) {
      store.inTransaction(SCOPE, tx -> {
        tx.insertVersion(version(SCOPE, "v1", "The lantern hangs by the harbour gate.", EntryStatus.ACTIVE));
        tx.insertVersion(version(SCOPE, "v2", "The harbour ferry leaves at noon.", EntryStatus.ACTIVE));
        tx.insertVersion(version(SCOPE, "v3", "An old lantern, retired long ago.", EntryStatus.RETIRED));
        return null;
      });
      store.inTransaction(OTHER, tx -> {
        tx.insertVersion(version(OTHER, "w1", "The harbour of the other tenant, zanzibarite.", EntryStatus.ACTIVE));
        return null;
      });
      assertExact(termCounts(schema));
      assertThat(strings("SELECT df::text FROM " + schema + ".engram_term_counts WHERE scope = 'app/u1'"
          + " AND term = 'harbour'")).containsExactly("2");

      store.inTransaction(SCOPE, tx -> {
        tx.updateStatus("v1", EntryStatus.SUPERSEDED, "v4", NOW);
        tx.insertVersion(version(SCOPE, "v4", "The lantern hangs by the north gate now.", EntryStatus.ACTIVE));
        tx.updateStatus("v3", EntryStatus.ACTIVE, null, NOW);
        return null;
      });
      assertExact(termCounts(schema));

      store.inTransaction(SCOPE, tx -> {
        tx.insertVersion(version(SCOPE, "v5", "A quokkaberry grows only here.", EntryStatus.ACTIVE));
        return null;
      });
      assertThat(strings("SELECT term FROM " + schema + ".engram_term_counts WHERE term LIKE 'quokka%'")).hasSize(1);
      store.inTransaction(SCOPE, tx -> tx.eraseEntry("e-v5"));
      assertExact(termCounts(schema));
      assertThat(strings("SELECT term FROM " + schema + ".engram_term_counts WHERE term LIKE 'quokka%'")).isEmpty();

      store.inTransaction(OTHER, tx -> tx.eraseScopeContent());
      assertExact(termCounts(schema));
      assertThat(strings("SELECT term FROM " + schema + ".engram_term_counts WHERE scope = 'app/u2'")).isEmpty();
      store.inTransaction(SCOPE, tx -> tx.eraseScopeContent());
      assertThat(termCounts(schema)).containsOnly(List.of());
    }
  }

  /** Many versions of one scope with common terms, and one holding a rare term too. */
  private static void fill(PostgresMemoryStore store) {
    store.inTransaction(SCOPE, tx -> {
      for (int i = 0; i < 60; i++) {
        String extra = i % 3 == 0 ? " The harbour is near." : i % 3 == 1 ? " Gulls circle the harbour lantern." : "";
        tx.insertVersion(version(SCOPE, String.format("v%03d", i), "Note " + i + " about the lantern and the bell."
            + extra, EntryStatus.ACTIVE));
      }
      tx.insertVersion(version(SCOPE, "v900", "The lantern by the zebrawood door.", EntryStatus.ACTIVE));
      return null;
    });
  }

  /**
   * Under the bound a search ranks exactly as a store that ranks every hit does: the same versions in
   * the same order with the same scores.
   */
  @Test
  void underTheBoundTheRankingIsTheFullOne() {
    String schema = pg.newSchema("under");
    try (PostgresMemoryStore bounded = PostgresMemoryStore.builder().dataSource(pg.pool()).schema(schema)
            .fullTextCandidates(1000).build();
        PostgresMemoryStore full = PostgresMemoryStore.builder().dataSource(pg.pool()).schema(schema)
            .fullTextCandidates(0).build()) {
      fill(bounded);
      for (String q : List.of("lantern harbour", "bell gulls zebrawood", "harbour", "zebrawood door", "nothing")) {
        for (int limit : new int[] {1, 10, 100}) {
          List<ScoredEntry> expected = full.searchFullText(List.of(SCOPE), query(q), limit);
          assertThat(bounded.searchFullText(List.of(SCOPE), query(q), limit)).as("%s, limit %d", q, limit)
              .isEqualTo(expected);
          assertThat(bounded.searchFullText(List.of(SCOPE, OTHER), query(q), limit)).isEqualTo(expected);
        }
      }
      assertThat(full.searchFullText(List.of(SCOPE), query("lantern"), 100)).hasSize(61);
    }
  }

  /**
   * Scopes holding no more active versions than the bound are ranked exactly, even when the terms'
   * frequencies add up to more than the bound (they overstate the hits of terms that share versions).
   */
  @Test
  void aScopeNoLargerThanTheBoundIsRankedExactlyWhateverTheQuery() {
    String schema = pg.newSchema("small");
    try (PostgresMemoryStore bounded = PostgresMemoryStore.builder().dataSource(pg.pool()).schema(schema)
            .fullTextCandidates(70).build();
        PostgresMemoryStore full = PostgresMemoryStore.builder().dataSource(pg.pool()).schema(schema)
            .fullTextCandidates(0).build()) {
      fill(bounded);
      for (String q : List.of("lantern harbour bell zebrawood", "lantern bell", "note lantern bell harbour")) {
        assertThat(full.searchFullText(List.of(SCOPE), query(q), 1000)).as("%s: more hits than the bound", q)
            .hasSizeGreaterThan(35);
        for (int limit : new int[] {1, 10, 100}) {
          assertThat(bounded.searchFullText(List.of(SCOPE), query(q), limit)).as("%s, limit %d", q, limit)
              .isEqualTo(full.searchFullText(List.of(SCOPE), query(q), limit));
        }
      }
    }
  }

  /**
   * Past the bound a search ranks at most the bound of candidates, the rare term's holder among them,
   * each scored exactly as the full ranking scores it; filters apply to the candidates.
   */
  @Test
  void pastTheBoundCandidatesAreBoundedAndScoredAsTheFullRanking() {
    String schema = pg.newSchema("past");
    try (PostgresMemoryStore bounded = PostgresMemoryStore.builder().dataSource(pg.pool()).schema(schema)
            .fullTextCandidates(8).build();
        PostgresMemoryStore full = PostgresMemoryStore.builder().dataSource(pg.pool()).schema(schema)
            .fullTextCandidates(0).build()) {
      fill(bounded);
      assertThat(bounded.rankFullText(List.of(SCOPE), query("lantern bell"), 10).candidateBound()).isEqualTo(8);
      assertThat(bounded.rankFullText(List.of(SCOPE), query("zebrawood"), 10).bounded()).isFalse();
      assertThat(full.rankFullText(List.of(SCOPE), query("lantern bell"), 10).bounded()).isFalse();
      Map<String, Double> exact = new HashMap<>();
      for (ScoredEntry hit : full.searchFullText(List.of(SCOPE), query("lantern harbour bell zebrawood"), 1000)) {
        exact.put(hit.entry().versionId(), hit.score());
      }
      assertThat(exact).hasSize(61);
      List<ScoredEntry> hits = bounded.searchFullText(List.of(SCOPE), query("lantern harbour bell zebrawood"), 1000);
      assertThat(hits).hasSizeBetween(2, 8);
      assertThat(ids(hits).get(0)).isEqualTo("v900");
      for (ScoredEntry hit : hits) {
        assertThat(hit.score()).as(hit.entry().versionId()).isCloseTo(exact.get(hit.entry().versionId()), within(1e-9));
      }
      assertThat(hits).extracting(ScoredEntry::score).isSortedAccordingTo((a, b) -> Double.compare(b, a));

      assertThat(bounded.searchFullText(List.of(SCOPE), query("lantern bell"), 1000)).hasSizeBetween(1, 8);
      FullTextQuery facts = new FullTextQuery(query("lantern bell").terms(), Set.of(), Set.of(EntryType.EVENT));
      assertThat(bounded.searchFullText(List.of(SCOPE), facts, 10)).isEmpty();
    }
  }

  /** The bound is 0 (rank every hit) or at least 4. */
  @Test
  void theBoundIsChecked() {
    assertThatThrownBy(() -> PostgresMemoryStore.builder().fullTextCandidates(3))
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("fullTextCandidates");
    assertThatThrownBy(() -> PostgresMemoryStore.builder().fullTextCandidates(-1))
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("was -1");
  }
}
