/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.ChangeOptions;
import dev.engram.Engram;
import dev.engram.Grants;
import dev.engram.MemoryEntry;
import dev.engram.SearchRequest;
import dev.engram.WriteOptions;
import dev.engram.reasoner.DeterministicReasoner;
import dev.engram.tck.HashingEmbedder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Erasure leaves nothing readable in the files: after {@code deleteEntry} / {@code deleteScope} return
 * (and after close), the erased text is in neither the database file (tables, indexes, free pages, the
 * FTS5 shadow tables) nor the write-ahead log. Measured on the raw bytes, with a bystander's text as
 * the control that the search would find a text that is still stored.
 */
class SqliteErasureTest {
  private static final Grants U1 = Grants.of("app/user/u1");
  private static final Grants U2 = Grants.of("app/user/u2");

  @TempDir Path dir;

  private static Engram engram(SqliteMemoryStore store) {
    return Engram.builder().store(store).reasoner(new DeterministicReasoner()).embedder(new HashingEmbedder()).build();
  }

  /** Files of the database (file, -wal, -shm, journal) whose bytes contain {@code token}, case-insensitively. */
  private static List<String> filesContaining(Path db, String token) throws IOException {
    List<String> hits = new ArrayList<>();
    byte[] needle = token.toLowerCase(Locale.ROOT).getBytes(StandardCharsets.UTF_8);
    try (var files = Files.list(db.getParent())) {
      for (Path f : files.filter(p -> p.getFileName().toString().startsWith(db.getFileName().toString())).toList()) {
        String bytes = new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1).toLowerCase(Locale.ROOT);
        if (bytes.contains(new String(needle, StandardCharsets.ISO_8859_1))) {
          hits.add(f.getFileName().toString());
        }
      }
    }
    return hits;
  }

  private static WriteOptions rich(String token, String topic) {
    return WriteOptions.builder().topicsHint(topic).disclosure("When " + token + " comes up")
        .glossary(token + "gloss").path("vault/" + token).source("agent:" + token).evidence("chat:" + token).build();
  }

  @Test
  void deleteEntryLeavesNoTraceInTheFileTheWalOrTheFullTextIndex() throws Exception {
    Path db = dir.resolve("entry.db");
    try (SqliteMemoryStore store = new SqliteMemoryStore(db); Engram e = engram(store)) {
      for (int i = 0; i < 40; i++) {
        e.write(U1, "Bystander note " + i + " keepsakeqq about the harbour.", WriteOptions.builder().topicsHint("harbour").build());
      }
      MemoryEntry victim = e.write(U1, "The vault code is zqxvictimone and only Mira knows it.", rich("zqxvictimone", "vault")).entry();
      e.correct(U1, victim.entryId(), "The vault code is zqxvictimone, changed, and only Mira knows it.",
          ChangeOptions.reason("zqxvictimone rotated").withSource("agent:zqxvictimone"));
      MemoryEntry current = e.get(U1, victim.entryId());
      e.retire(U1, current.citation(), "zqxvictimone retired");
      e.reactivate(U1, e.get(U1, victim.entryId()).citation(), "zqxvictimone back");
      assertThat(e.search(U1, SearchRequest.of("zqxvictimone")).hits()).isNotEmpty();
      assertThat(filesContaining(db, "zqxvictimone")).as("the token is stored before erasure").isNotEmpty();

      e.deleteEntry(U1, victim.entryId());

      assertThat(filesContaining(db, "zqxvictimone")).as("files holding erased text after deleteEntry").isEmpty();
      assertThat(filesContaining(db, "keepsakeqq")).as("the bystander is still found").isNotEmpty();
      assertThat(ftsTermsLike(db, "zqxvictim")).isZero();
      assertThat(e.search(U1, SearchRequest.of("harbour keepsakeqq")).hits()).isNotEmpty();
    }
    assertThat(filesContaining(db, "zqxvictimone")).as("files holding erased text after close").isEmpty();
  }

  @Test
  void deleteScopeLeavesNoTraceInTheFileTheWalOrTheFullTextIndex() throws Exception {
    Path db = dir.resolve("scope.db");
    try (SqliteMemoryStore store = new SqliteMemoryStore(db); Engram e = engram(store)) {
      for (int i = 0; i < 60; i++) {
        MemoryEntry v = e.write(U1, "Tenant one note " + i + " mentions zqxtenantsecret" + i + " in passing.",
            rich("zqxtenantsecret" + i, "notes" + (i % 5))).entry();
        if (i % 4 == 0) {
          e.correct(U1, v.entryId(), "Tenant one note " + i + " now says zqxtenantsecret" + i + " twice: zqxtenantsecret.",
              ChangeOptions.reason("edit"));
        }
        e.write(U2, "Tenant two note " + i + " keepsakeqq.", WriteOptions.builder().topicsHint("notes").build());
      }
      assertThat(filesContaining(db, "zqxtenantsecret")).isNotEmpty();

      e.deleteScope(U1, "app/user/u1", false);

      assertThat(filesContaining(db, "zqxtenantsecret")).as("files holding erased text after deleteScope").isEmpty();
      assertThat(filesContaining(db, "keepsakeqq")).as("the other tenant is still found").isNotEmpty();
      assertThat(ftsTermsLike(db, "zqxtenant")).isZero();
      assertThat(e.search(U2, SearchRequest.of("keepsakeqq")).hits()).hasSize(10);
    }
    assertThat(filesContaining(db, "zqxtenantsecret")).as("files holding erased text after close").isEmpty();
  }

  @Test
  void aDatabaseOfTheFirstSchemaIsUpgradedItsIndexRebuiltAndErasureThenLeavesNoTrace() throws Exception {
    Path db = dir.resolve("upgrade.db");
    String v1;
    try (var in = Migrations.class.getResourceAsStream("V1__init.sql")) {
      v1 = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement st = c.createStatement()) {
      st.execute("PRAGMA journal_mode = WAL");
      for (String statement : Migrations.statements(v1)) {
        st.execute(statement);
      }
      st.execute("CREATE TABLE " + Migrations.VERSION_TABLE
          + " (version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at TEXT NOT NULL)");
      st.execute("INSERT INTO " + Migrations.VERSION_TABLE + " VALUES (1, 'init', '2026-01-01T00:00:00Z')");
      st.execute("PRAGMA application_id = " + Migrations.APPLICATION_ID);
      st.execute("INSERT INTO revisions VALUES ('app/user/u1', 1, '[]', '2026-01-01T00:00:00Z')");
      st.execute("INSERT INTO revisions VALUES ('app/user/u1', 2, '[]', '2026-01-01T00:00:00Z')");
      st.execute(versionRow("e1", "v1", "Prefers window seats on long flights zqxoldkept.", "ACTIVE", 1));
      st.execute(versionRow("e2", "v2", "Prefers aisle seats zqxoldgone.", "ACTIVE", 2));
      st.execute("UPDATE versions SET status = 'RETIRED' WHERE version_id = 'v2'");
    }
    try (SqliteMemoryStore store = new SqliteMemoryStore(db); Engram e = engram(store)) {
      assertThat(e.search(U1, SearchRequest.of("window flights")).hits()).extracting(h -> h.entry().versionId())
          .containsExactly("v1");
      assertThat(e.search(U1, SearchRequest.of("zqxoldgone")).hits()).isEmpty();
      e.deleteEntry(U1, "e1");
      e.deleteEntry(U1, "e2");
      assertThat(filesContaining(db, "zqxold")).as("files holding erased text after the upgrade").isEmpty();
    }
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT max(version) FROM " + Migrations.VERSION_TABLE)) {
      rs.next();
      assertThat(rs.getInt(1)).isEqualTo(Migrations.latest());
    }
  }

  private static String versionRow(String entryId, String versionId, String content, String status, int revision) {
    return "INSERT INTO versions (version_id, entry_id, version, previous_version_id, scope, content, topics, type,"
        + " priority, disclosure, glossary, path, source, evidence, content_hash, status, superseded_by, created_at,"
        + " updated_at, created_in_revision) VALUES ('" + versionId + "', '" + entryId + "', 1, NULL, 'app/user/u1', '"
        + content + "', '[\"travel\"]', 'fact', 2, NULL, '[]', NULL, NULL, '[]', 'h" + versionId + "', '" + status
        + "', NULL, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', " + revision + ")";
  }

  /** Full-text terms starting with {@code prefix}, read through the index's own vocabulary. */
  private static int ftsTermsLike(Path db, String prefix) throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement st = c.createStatement()) {
      st.execute("CREATE VIRTUAL TABLE temp.vocab USING fts5vocab(main, versions_fts, row)");
      try (ResultSet rs = st.executeQuery("SELECT count(*) FROM temp.vocab WHERE term LIKE '" + prefix + "%'")) {
        rs.next();
        return rs.getInt(1);
      }
    }
  }
}
