/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.Engram;
import dev.engram.Experience;
import dev.engram.ExperienceRequest;
import dev.engram.ExperienceStatus;
import dev.engram.Grants;
import dev.engram.MemoryEntry;
import dev.engram.reasoner.DeterministicReasoner;
import dev.engram.spi.FullTextQuery;
import dev.engram.spi.ScoredExperience;
import dev.engram.spi.TextAnalysis;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * What the PostgreSQL store adds to the experience contract: the upgrade to schema 15 keeps a schema 14
 * database's data, only active versions carry a search document, and the text reanalysis rebuilds the
 * experience documents with the others.
 */
class PostgresExperienceTest {
  private static final String SCOPE = "app/u1";
  private static final Grants U1 = Grants.of(SCOPE);

  private final TestPostgres pg = TestPostgres.get();

  private static FullTextQuery query(String text) {
    return new FullTextQuery(TextAnalysis.queryTerms(text, FullTextQuery.MAX_TERMS), Set.of(), Set.of());
  }

  private static List<String> ids(List<ScoredExperience> hits) {
    return hits.stream().map(h -> h.experience().versionId()).toList();
  }

  @Test
  void aSchema14DatabaseUpgradesKeepsItsDataAndThenKeepsExperience() {
    String schema = pg.newSchema("exp");
    pg.execute("CREATE SCHEMA " + schema);
    pg.execute("CREATE TABLE " + schema + ".engram_schema_history (version integer PRIMARY KEY,"
        + " script text NOT NULL, installed_at timestamptz NOT NULL DEFAULT now())");
    List<String> scripts = PostgresMemoryStore.migrationScripts(schema, "engram_");
    int before = 14;
    assertThat(scripts).hasSizeGreaterThan(before);
    assertThat(scripts.get(before)).contains("experience_versions");
    for (int v = 1; v <= before; v++) {
      pg.execute(scripts.get(v - 1));
      pg.execute("INSERT INTO " + schema + ".engram_schema_history (version, script) VALUES (" + v + ", 'earlier')");
    }
    pg.execute("INSERT INTO " + schema + ".engram_scope_heads (scope, head) VALUES ('" + SCOPE + "', 1)");
    pg.execute("INSERT INTO " + schema + ".engram_versions (version_id, entry_id, version, scope, content, topics,"
        + " type, priority, glossary, evidence, content_hash, status, created_at, updated_at, created_in_revision,"
        + " search) VALUES ('v1', 'e1', 1, '" + SCOPE + "', 'The orchard is pruned in March.', '{garden}', 'fact',"
        + " 2, '{}', '{}', 'h1', 'ACTIVE', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', 1, setweight('"
        + SearchText.vector(TextAnalysis.terms("The orchard is pruned in March.")).replace("'", "''")
        + "'::tsvector, 'B'))");

    try (PostgresMemoryStore store = PostgresMemoryStore.builder().dataSource(pg.pool()).schema(schema).build();
        Engram engram = Engram.builder().borrowedStore(store).reasoner(new DeterministicReasoner()).build()) {
      assertThat(pg.queryInts("SELECT version FROM " + schema + ".engram_schema_history ORDER BY version"))
          .hasSize(Migrations.versions().size()).contains(15);
      assertThat(store.version("v1")).map(MemoryEntry::content).contains("The orchard is pruned in March.");
      assertThat(store.searchFullText(List.of(SCOPE), query("orchard"), 5)).extracting(h -> h.entry().versionId())
          .containsExactly("v1");
      Experience x = engram.experience().record(U1, ExperienceRequest.builder("Pruning the orchard late",
          "Cut the branches in May", "The trees bore little fruit", "Prune before the blossoms open").build());
      assertThat(ids(store.searchExperience(List.of(SCOPE), query("prune blossoms"), 5))).containsExactly(x.versionId());
      Experience retired = engram.experience().retire(U1, x.experienceId(), 1, "the orchard was sold");
      assertThat(pg.queryInts("SELECT count(*)::int FROM " + schema + ".engram_experience_versions"
          + " WHERE search IS NOT NULL")).as("only active versions carry a search document").containsExactly(0);
      assertThat(store.searchExperience(List.of(SCOPE), query("prune blossoms"), 5)).isEmpty();
      assertThat(store.experienceVersions(x.experienceId())).extracting(Experience::status)
          .containsExactly(ExperienceStatus.SUPERSEDED, ExperienceStatus.RETIRED);
      assertThat(retired.reason()).isEqualTo("the orchard was sold");
    }
  }

  @Test
  void experienceDocumentsAreRebuiltWithTheTextAnalysisOnOpen() {
    String schema = pg.newSchema("exptext");
    Experience x;
    try (PostgresMemoryStore store = PostgresMemoryStore.builder().dataSource(pg.pool()).schema(schema).build();
        Engram engram = Engram.builder().borrowedStore(store).reasoner(new DeterministicReasoner()).build()) {
      x = engram.experience().record(U1, ExperienceRequest.builder("The ﬁsh market in İstanbul", "Went at noon",
          "It was closed", "Go before ten in the morning").build());
      assertThat(ids(store.searchExperience(List.of(SCOPE), query("fish istanbul"), 10))).containsExactly(x.versionId());
    }
    pg.execute("UPDATE " + schema + ".engram_experience_versions SET search = to_tsvector('simple', 'unrelated words')");
    pg.execute("DELETE FROM " + schema + ".engram_text_analysis");
    try (PostgresMemoryStore store = PostgresMemoryStore.builder().dataSource(pg.pool()).schema(schema).build()) {
      assertThat(ids(store.searchExperience(List.of(SCOPE), query("fish istanbul"), 10))).containsExactly(x.versionId());
      assertThat(store.searchExperience(List.of(SCOPE), query("unrelated"), 10)).isEmpty();
    }
    assertThat(pg.queryInts("SELECT analysis FROM " + schema + ".engram_text_analysis"))
        .containsExactly(TextAnalysis.VERSION);
  }
}
