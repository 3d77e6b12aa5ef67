/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.Engram;
import dev.engram.Experience;
import dev.engram.ExperienceRequest;
import dev.engram.Grants;
import dev.engram.MemoryEntry;
import dev.engram.ReviewItem;
import dev.engram.ReviewKind;
import dev.engram.ReviewProposal;
import dev.engram.ReviewState;
import dev.engram.reasoner.DeterministicReasoner;
import dev.engram.spi.FullTextQuery;
import dev.engram.spi.TextAnalysis;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Experience and review items in the SQLite store (schema version 14): a database of schema 13 upgrades
 * and keeps its data, and erasure of an experience, a review item or their scope leaves nothing in the
 * raw bytes of the file and its write-ahead log, nor a term in the experience index's vocabulary.
 */
class SqliteExperienceTest {
  private static final String SCOPE = "app/user/u1";
  private static final Grants U1 = Grants.of(SCOPE);
  private static final Grants U2 = Grants.of("app/user/u2");
  private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

  @TempDir Path dir;

  private static Engram engram(SqliteMemoryStore store) {
    return Engram.builder().borrowedStore(store).reasoner(new DeterministicReasoner()).build();
  }

  @Test
  void aDatabaseOfSchemaThirteenIsUpgradedKeepsItsEntriesAndThenKeepsExperience() throws Exception {
    Path db = dir.resolve("thirteen.db");
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement st = c.createStatement()) {
      EarlierSchemas.upTo(c, "__experience_review.sql");
      assertThat(column(db, "SELECT max(version) FROM " + Migrations.VERSION_TABLE)).containsExactly("13");
      st.execute("INSERT INTO revisions VALUES ('" + SCOPE + "', 1, '[]', '2026-01-01T00:00:00Z')");
      st.execute("INSERT INTO versions (version_id, entry_id, version, previous_version_id, scope, content, topics,"
          + " type, priority, disclosure, glossary, path, source, evidence, content_hash, status, superseded_by,"
          + " created_at, updated_at, created_in_revision) VALUES ('v1', 'e1', 1, NULL, '" + SCOPE + "',"
          + " 'An older note', '[\"general\"]', 'fact', 2, NULL, '[]', NULL, NULL, '[]', 'h1', 'ACTIVE', NULL,"
          + " '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', 1)");
    }
    try (SqliteMemoryStore store = new SqliteMemoryStore(db); Engram e = engram(store)) {
      assertThat(store.versions("e1")).extracting(MemoryEntry::content).containsExactly("An older note");
      Experience x = e.experience().record(U1, ExperienceRequest.builder("Upgrading the store",
          "Opened a schema 13 file", "It migrated", "Keep migrations additive").build());
      assertThat(store.searchExperience(List.of(SCOPE), query("migrations additive"), 5))
          .extracting(h -> h.experience().versionId()).containsExactly(x.versionId());
      assertThat(store.experienceVersions(x.experienceId())).containsExactly(x);
    }
    assertThat(column(db, "SELECT max(version) FROM " + Migrations.VERSION_TABLE))
        .containsExactly(String.valueOf(Migrations.latest()));
  }

  @Test
  void erasedExperienceAndReviewItemsLeaveNoTraceInTheFileTheWalOrTheIndex() throws Exception {
    Path db = dir.resolve("experience.db");
    try (SqliteMemoryStore store = new SqliteMemoryStore(db); Engram e = engram(store)) {
      for (int i = 0; i < 30; i++) {
        e.experience().record(U2, ExperienceRequest.builder("Bystander situation " + i + " keepsakeqq", "a", "o",
            "l").build());
      }
      Experience victim = e.experience().record(U1, ExperienceRequest.builder("Deploy of zqxexperienceone",
          "Rolled back", "Fine", "Lesson zqxexperienceone").build());
      e.experience().revise(U1, victim.experienceId(), 1, ExperienceRequest.builder("Deploy of zqxexperienceone",
          "Rolled back twice", "Fine", "Lesson zqxexperienceone, sharper").build());
      Experience scoped = e.experience().record(U1, ExperienceRequest.builder("Scope zqxscopedexp", "a", "o", "l")
          .build());
      store.inTransaction(SCOPE, tx -> {
        tx.putReviewItem(new ReviewItem("r1", SCOPE, ReviewKind.EXPERIENCE, ReviewState.PENDING, 1,
            new ReviewProposal.NewExperience("Pending zqxreviewone", "a", "o", "l"), List.of(), List.of("s-1"),
            "incubation", null, null, List.of(), NOW, NOW));
        return null;
      });
      assertThat(filesContaining(db, "zqxexperienceone")).as("stored before erasure").isNotEmpty();
      assertThat(indexTerms(db)).anyMatch(t -> t.startsWith("zqxexperienceon"));

      e.experience().delete(U1, victim.experienceId());
      assertThat(filesContaining(db, "zqxexperienceone")).as("files holding an erased experience").isEmpty();
      assertThat(indexTerms(db)).noneMatch(t -> t.startsWith("zqxexperienceon")).anyMatch(t -> t.startsWith("keepsakeqq"));
      assertThat(filesContaining(db, "keepsakeqq")).as("the bystanders are still there").isNotEmpty();

      e.deleteScope(U1, SCOPE);
      assertThat(filesContaining(db, "zqxreviewone")).as("files holding an erased review item").isEmpty();
      assertThat(filesContaining(db, "zqxscopedexp")).as("files holding an erased scope's experience").isEmpty();
      assertThat(indexTerms(db)).noneMatch(t -> t.startsWith("zqxscopedexp"));
      assertThat(store.experienceVersions(scoped.experienceId())).isEmpty();
      assertThat(store.reviewItem("r1")).isEmpty();
    }
    assertThat(filesContaining(db, "zqxexperienceone")).isEmpty();
    assertThat(column(db, "SELECT count(*) FROM experience_versions")).containsExactly("30");
  }

  private static FullTextQuery query(String text) {
    return new FullTextQuery(TextAnalysis.queryTerms(text, FullTextQuery.MAX_TERMS), Set.of(), Set.of());
  }

  /** The terms of the experience index, read through its own vocabulary. */
  private static List<String> indexTerms(Path db) throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement st = c.createStatement()) {
      st.execute("CREATE VIRTUAL TABLE temp.vocab USING fts5vocab(main, experience_fts, row)");
      List<String> out = new ArrayList<>();
      try (ResultSet rs = st.executeQuery("SELECT term FROM temp.vocab")) {
        while (rs.next()) {
          out.add(rs.getString(1));
        }
      }
      return out;
    }
  }

  private static List<String> column(Path db, String sql) throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery(sql)) {
      List<String> out = new ArrayList<>();
      while (rs.next()) {
        out.add(rs.getString(1));
      }
      return out;
    }
  }

  /** Files of the database (file, -wal, -shm, journal) whose bytes contain {@code token}, case-insensitively. */
  private static List<String> filesContaining(Path db, String token) throws IOException {
    List<String> hits = new ArrayList<>();
    String needle = token.toLowerCase(Locale.ROOT);
    try (var files = Files.list(db.getParent())) {
      for (Path f : files.filter(p -> p.getFileName().toString().startsWith(db.getFileName().toString())).toList()) {
        String bytes = new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1).toLowerCase(Locale.ROOT);
        if (bytes.contains(needle)) {
          hits.add(f.getFileName().toString());
        }
      }
    }
    return hits;
  }
}
