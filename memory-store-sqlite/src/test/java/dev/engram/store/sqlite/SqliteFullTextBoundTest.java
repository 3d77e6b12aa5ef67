/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.sqlite;

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
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The per-scope term statistics of schema 15 and the bounded full-text ranking built on them: counts that
 * follow every write, status change and erasure exactly (and leave no row behind), FTS5's own ranking
 * whenever a query's terms match no more versions than the bound, and past the bound a candidate set of
 * at most the bound, each candidate scored by the Java BM25 within 1e-9 of what FTS5's {@code bm25()}
 * gives it.
 */
class SqliteFullTextBoundTest {
  private static final String SCOPE = "app/u1";
  private static final String OTHER = "app/u2";
  private static final Instant NOW = Instant.parse("2026-03-01T10:00:00Z");

  @TempDir Path dir;

  private static MemoryEntry version(String scope, String id, String content, EntryStatus status) {
    return version(scope, id, content, List.of("general"), List.of(), null, status);
  }

  private static MemoryEntry version(String scope, String id, String content, List<String> topics,
      List<String> glossary, @Nullable String disclosure, EntryStatus status) {
    return new MemoryEntry("e-" + id, id, 1, null, scope, content, topics, EntryType.FACT, 2, disclosure, glossary,
        null, null, List.of(), "h-" + id, status, null, null, NOW, NOW, 1);
  }

  private static FullTextQuery query(String text) {
    return new FullTextQuery(TextAnalysis.queryTerms(text, FullTextQuery.MAX_TERMS), Set.of(), Set.of());
  }

  private SqliteMemoryStore store(Path file, int candidates) {
    return SqliteMemoryStore.builder(file).fullTextCandidates(candidates).build();
  }

  /** {@code term scope df} of every counter row, and the same counted afresh from the active versions. */
  private static List<List<String>> termCounts(Path file) {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file)) {
      SqliteMemoryStore.registerSqlFunctions(c);
      return List.of(strings(c, "SELECT term || ' ' || scope || ' ' || df FROM term_counts ORDER BY 1"),
          strings(c, "SELECT t.value || ' ' || v.scope || ' ' || count(*) FROM versions v"
              + " CROSS JOIN json_each(engram_fts_term_set(v.content, (SELECT group_concat(value, ' ')"
              + " FROM json_each(v.glossary)), v.disclosure, (SELECT group_concat(value, ' ') FROM json_each(v.topics)"
              + " WHERE value <> 'general'))) t WHERE v.status = 'ACTIVE' GROUP BY t.value, v.scope ORDER BY 1"));
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  private static List<String> strings(Connection c, String sql) throws SQLException {
    List<String> out = new ArrayList<>();
    try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
      while (rs.next()) {
        out.add(rs.getString(1));
      }
    }
    return out;
  }

  private static void assertExact(List<List<String>> counts) {
    assertThat(counts.get(0)).isNotEmpty().containsExactlyElementsOf(counts.get(1));
  }

  /** Inserts, status changes both ways, an entry's erasure and a scope's erasure keep the counts exact. */
  @Test
  void termCountsFollowEveryChangeAndErasureLeavesNoRow() {
    Path file = dir.resolve("terms.db");
    try (SqliteMemoryStore store = store(file, 1200)) {
      store.inTransaction(SCOPE, tx -> {
        tx.insertVersion(version(SCOPE, "v1", "The lantern hangs by the harbour gate.", List.of("places"),
            List.of("lamp post"), "when lights come up", EntryStatus.ACTIVE));
        tx.insertVersion(version(SCOPE, "v2", "The harbour ferry leaves at noon.", EntryStatus.ACTIVE));
        tx.insertVersion(version(SCOPE, "v3", "An old lantern, retired long ago.", EntryStatus.RETIRED));
        return null;
      });
      store.inTransaction(OTHER, tx -> {
        tx.insertVersion(version(OTHER, "w1", "The harbour of the other tenant.", EntryStatus.ACTIVE));
        return null;
      });
      assertExact(termCounts(file));
      assertThat(termCounts(file).get(0)).contains("harbour app/u1 2", "harbour app/u2 1");

      store.inTransaction(SCOPE, tx -> {
        tx.updateStatus("v1", EntryStatus.SUPERSEDED, "v4", NOW);
        tx.insertVersion(version(SCOPE, "v4", "The lantern hangs by the north gate now.", EntryStatus.ACTIVE));
        tx.updateStatus("v3", EntryStatus.ACTIVE, null, NOW);
        return null;
      });
      assertExact(termCounts(file));

      store.inTransaction(SCOPE, tx -> {
        tx.insertVersion(version(SCOPE, "v5", "A quokkaberry grows only here.", EntryStatus.ACTIVE));
        // made active and erased in one transaction: counted at the flush before the erasure, then taken away
        tx.insertVersion(version(SCOPE, "v6", "A wallabyfruit, gone at once.", EntryStatus.ACTIVE));
        tx.eraseEntry("e-v6");
        return null;
      });
      assertThat(termCounts(file).get(0)).anyMatch(r -> r.startsWith("quokka")).noneMatch(r -> r.startsWith("wallaby"));
      store.inTransaction(SCOPE, tx -> tx.eraseEntry("e-v5"));
      assertExact(termCounts(file));
      assertThat(termCounts(file).get(0)).noneMatch(r -> r.startsWith("quokka"));

      store.inTransaction(OTHER, tx -> tx.eraseScopeContent());
      assertExact(termCounts(file));
      assertThat(termCounts(file).get(0)).noneMatch(r -> r.contains(OTHER));
      store.inTransaction(SCOPE, tx -> tx.eraseScopeContent());
      assertThat(termCounts(file)).containsOnly(List.of());
    }
  }

  /** Many versions of one scope with common terms, some with glossary, disclosure and topics, one rare term. */
  private static void fill(SqliteMemoryStore store) {
    store.inTransaction(SCOPE, tx -> {
      for (int i = 0; i < 60; i++) {
        String extra = i % 3 == 0 ? " The harbour is near." : i % 3 == 1 ? " Gulls circle the harbour lantern." : "";
        tx.insertVersion(version(SCOPE, String.format("v%03d", i), "Note " + i + " about the lantern and the bell."
            + extra, i % 4 == 0 ? List.of("harbour", "general") : List.of("general"),
            i % 5 == 0 ? List.of("bell tower", "lantern") : List.of(), i % 7 == 0 ? "when the bell rings" : null,
            EntryStatus.ACTIVE));
      }
      tx.insertVersion(version(SCOPE, "v900", "The lantern by the zebrawood door.", EntryStatus.ACTIVE));
      return null;
    });
    store.inTransaction(OTHER, tx -> {
      for (int i = 0; i < 15; i++) {
        tx.insertVersion(version(OTHER, "w" + i, "Another lantern " + i + " with a bell and a long tail of words.",
            EntryStatus.ACTIVE));
      }
      return null;
    });
  }

  /**
   * Under the bound a search ranks exactly as FTS5 does without it: the same versions in the same order
   * with the same scores.
   */
  @Test
  void underTheBoundTheRankingIsFts5s() {
    Path file = dir.resolve("under.db");
    try (SqliteMemoryStore bounded = store(file, 1000)) {
      fill(bounded);
      try (SqliteMemoryStore full = store(file, 0)) {
        for (String q : List.of("lantern harbour", "bell gulls zebrawood", "harbour", "zebrawood door", "nothing")) {
          for (int limit : new int[] {1, 10, 100}) {
            List<ScoredEntry> expected = full.searchFullText(List.of(SCOPE), query(q), limit);
            assertThat(bounded.searchFullText(List.of(SCOPE), query(q), limit)).as("%s, limit %d", q, limit)
                .isEqualTo(expected);
            assertThat(bounded.searchFullText(List.of(SCOPE, OTHER), query(q), limit))
                .isEqualTo(full.searchFullText(List.of(SCOPE, OTHER), query(q), limit));
          }
        }
        assertThat(full.searchFullText(List.of(SCOPE), query("lantern"), 100)).hasSize(61);
      }
    }
  }

  /**
   * A ranking past the bound says so: the store's result names the bound, and a search through the engine
   * carries a warning; under the bound, or with no bound, neither does.
   */
  @Test
  void aBoundedRankingIsReportedOnTheSearchResult() {
    Path file = dir.resolve("reported.db");
    try (SqliteMemoryStore bounded = store(file, 8)) {
      fill(bounded);
      assertThat(bounded.rankFullText(List.of(SCOPE), query("lantern bell"), 10).candidateBound()).isEqualTo(8);
      assertThat(bounded.rankFullText(List.of(SCOPE), query("zebrawood"), 10).bounded()).isFalse();
      try (dev.engram.Engram engram = dev.engram.Engram.builder().borrowedStore(bounded)
          .reasoner(new dev.engram.reasoner.DeterministicReasoner()).build()) {
        dev.engram.SearchResult past = engram.search(dev.engram.Grants.of(SCOPE), "lantern bell");
        assertThat(past.hits()).isNotEmpty();
        assertThat(past.warnings()).anySatisfy(w -> assertThat(w).contains("bounded set of 8 candidates")
            .contains("fullTextCandidates(0)"));
        assertThat(engram.search(dev.engram.Grants.of(SCOPE), "zebrawood").warnings()).isEmpty();
      }
      try (SqliteMemoryStore full = store(file, 0)) {
        assertThat(full.rankFullText(List.of(SCOPE), query("lantern bell"), 10).bounded()).isFalse();
      }
    }
  }

  /**
   * Scopes holding no more active versions than the bound are ranked exactly, even when the terms'
   * frequencies add up to more than the bound (they overstate the hits of terms that share versions).
   */
  @Test
  void aScopeNoLargerThanTheBoundIsRankedExactlyWhateverTheQuery() {
    Path file = dir.resolve("small.db");
    try (SqliteMemoryStore bounded = store(file, 70)) {
      fill(bounded);
      try (SqliteMemoryStore full = store(file, 0)) {
        for (String q : List.of("lantern harbour bell zebrawood", "lantern bell", "note lantern bell harbour tower")) {
          assertThat(full.searchFullText(List.of(SCOPE), query(q), 1000)).as("%s: more hits than the bound", q)
              .hasSizeGreaterThan(35);
          for (int limit : new int[] {1, 10, 100}) {
            assertThat(bounded.searchFullText(List.of(SCOPE), query(q), limit)).as("%s, limit %d", q, limit)
                .isEqualTo(full.searchFullText(List.of(SCOPE), query(q), limit));
          }
        }
      }
    }
  }

  /**
   * Past the bound a search ranks at most the bound of candidates, the rare term's holder first, each
   * scored within 1e-9 of FTS5's {@code bm25()} for it (glossary, disclosure and topics weighted, the
   * other scope counted in the statistics); filters apply to the candidates.
   */
  @Test
  void pastTheBoundCandidatesAreBoundedAndScoredAsFts5ScoresThem() {
    Path file = dir.resolve("past.db");
    try (SqliteMemoryStore bounded = store(file, 8)) {
      fill(bounded);
      try (SqliteMemoryStore full = store(file, 0)) {
        for (String q : List.of("lantern harbour bell zebrawood", "bell harbour tower", "lantern bell")) {
          for (List<String> scopes : List.of(List.of(SCOPE), List.of(SCOPE, OTHER))) {
            Map<String, Double> exact = new HashMap<>();
            for (ScoredEntry hit : full.searchFullText(scopes, query(q), 1000)) {
              exact.put(hit.entry().versionId(), hit.score());
            }
            assertThat(exact).hasSizeGreaterThan(8);
            List<ScoredEntry> hits = bounded.searchFullText(scopes, query(q), 1000);
            assertThat(hits).as(q).hasSizeBetween(1, 8);
            for (ScoredEntry hit : hits) {
              assertThat(hit.score()).as("%s %s", q, hit.entry().versionId())
                  .isCloseTo(exact.get(hit.entry().versionId()), within(1e-9));
            }
            assertThat(hits).extracting(ScoredEntry::score).isSortedAccordingTo((a, b) -> Double.compare(b, a));
          }
        }
        assertThat(bounded.searchFullText(List.of(SCOPE), query("lantern harbour bell zebrawood"), 3).get(0)
            .entry().versionId()).isEqualTo("v900");
        FullTextQuery events = new FullTextQuery(query("lantern bell").terms(), Set.of(), Set.of(EntryType.EVENT));
        assertThat(bounded.searchFullText(List.of(SCOPE), events, 10)).isEmpty();
        FullTextQuery tagged = new FullTextQuery(query("lantern bell").terms(), Set.of("harbour"), Set.of());
        assertThat(bounded.searchFullText(List.of(SCOPE), tagged, 100)).isNotEmpty()
            .allSatisfy(h -> assertThat(h.entry().topics()).contains("harbour"));
      }
    }
  }

  /** A bounded search caches its candidates' term frequencies; an erasure empties the cache. */
  @Test
  void anErasureEmptiesTheCacheOfRankedVersions() {
    try (SqliteMemoryStore store = store(dir.resolve("cache.db"), 8)) {
      fill(store);
      assertThat(store.searchFullText(List.of(SCOPE), query("lantern bell zebrawood"), 5)).isNotEmpty();
      assertThat(store.fullTextCache().size()).isBetween(1, 8);
      store.inTransaction(SCOPE, tx -> tx.eraseEntry("e-v900"));
      assertThat(store.fullTextCache().size()).isZero();
      assertThat(store.searchFullText(List.of(SCOPE), query("lantern bell zebrawood"), 5))
          .noneMatch(h -> h.entry().versionId().equals("v900"));
    }
  }

  /** The bound is 0 (rank every hit) or at least 4. */
  @Test
  void theBoundIsChecked() {
    assertThatThrownBy(() -> SqliteMemoryStore.builder(dir.resolve("x.db")).fullTextCandidates(3))
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("fullTextCandidates");
    assertThatThrownBy(() -> SqliteMemoryStore.builder(dir.resolve("x.db")).fullTextCandidates(-1))
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("was -1");
  }
}
