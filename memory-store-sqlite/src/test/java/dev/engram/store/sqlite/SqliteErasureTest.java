/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.ChangeOptions;
import dev.engram.Engram;
import dev.engram.EntryStatus;
import dev.engram.EntryType;
import dev.engram.Grants;
import dev.engram.MemoryEntry;
import dev.engram.SearchMode;
import dev.engram.SearchRequest;
import dev.engram.WriteOptions;
import dev.engram.reasoner.DeterministicReasoner;
import dev.engram.test.HashingEmbedder;
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
          ChangeOptions.builder().reason("zqxvictimone rotated").source("agent:zqxvictimone").build());
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
  void erasedSourcesLeaveNoTraceInTheFileOrTheWal() throws Exception {
    Path db = dir.resolve("sources.db");
    try (SqliteMemoryStore store = new SqliteMemoryStore(db); Engram e = engram(store)) {
      List<dev.engram.SourceRecord> turns = new ArrayList<>();
      for (int i = 0; i < 40; i++) {
        turns.add(dev.engram.SourceRecord.of("chat", "user", "Bystander turn " + i + " keepsakeqq.").id("b" + i));
      }
      turns.add(dev.engram.SourceRecord.of("chat", "user", "My passport number is zqxsourceone.").id("victim"));
      e.captureAll(U1, turns);
      e.captureAll(U2, List.of(dev.engram.SourceRecord.of("chat", "user", "Tenant two says zqxsourcetwo.")));
      assertThat(filesContaining(db, "zqxsourceone")).isNotEmpty();

      e.deleteSource(U1, "app/user/u1", "victim");
      assertThat(filesContaining(db, "zqxsourceone")).as("files holding an erased source").isEmpty();
      assertThat(filesContaining(db, "keepsakeqq")).as("the bystanders are still there").isNotEmpty();

      e.deleteScope(U2, "app/user/u2");
      assertThat(filesContaining(db, "zqxsourcetwo")).as("files holding a source of an erased scope").isEmpty();
    }
    assertThat(filesContaining(db, "zqxsourceone")).isEmpty();
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

      e.deleteScope(U1, "app/user/u1");

      assertThat(filesContaining(db, "zqxtenantsecret")).as("files holding erased text after deleteScope").isEmpty();
      assertThat(filesContaining(db, "keepsakeqq")).as("the other tenant is still found").isNotEmpty();
      assertThat(ftsTermsLike(db, "zqxtenant")).isZero();
      assertThat(e.search(U2, SearchRequest.of("keepsakeqq")).hits()).hasSize(10);
    }
    assertThat(filesContaining(db, "zqxtenantsecret")).as("files holding erased text after close").isEmpty();
  }

  @Test
  void deleteScopeLeavesNoTraceOfTheScopesModelUsageInTheFileOrTheWal() throws Exception {
    Path db = dir.resolve("usage.db");
    java.time.LocalDate day = java.time.LocalDate.parse("2031-05-06");
    try (SqliteMemoryStore store = new SqliteMemoryStore(db); Engram e = engram(store)) {
      for (int i = 0; i < 40; i++) {
        java.time.LocalDate d = day.plusDays(i);
        store.inTransaction("app/user/u1", tx -> {
          tx.addModelUsage(List.of(new dev.engram.ModelUsageRow("app/user/u1", d, "openai", "zqxvictimmodel", "tag",
              3, 300, 30, 1)));
          return null;
        });
        store.inTransaction("app/user/u2", tx -> {
          tx.addModelUsage(List.of(new dev.engram.ModelUsageRow("app/user/u2", d, "openai", "keepsakemodel", "tag",
              1, 100, 10, 0)));
          return null;
        });
      }
      assertThat(filesContaining(db, "zqxvictimmodel")).as("the usage is stored before erasure").isNotEmpty();

      e.deleteScope(U1, "app/user/u1");

      assertThat(filesContaining(db, "zqxvictimmodel")).as("files holding erased model usage").isEmpty();
      assertThat(filesContaining(db, "keepsakemodel")).as("the other tenant's usage is still there").isNotEmpty();
      assertThat(store.modelUsage(List.of("app/user/u1", "app/user/u2"), null, null))
          .extracting(dev.engram.ModelUsageRow::scope).containsOnly("app/user/u2").hasSize(40);
    }
    assertThat(filesContaining(db, "zqxvictimmodel")).as("files holding erased model usage after close").isEmpty();
  }

  /** Retrieval keys are erased with their version: from version_keys, the key index and its shadow tables. */
  @Test
  void erasedVersionsLeaveNoTraceOfTheirRetrievalKeys() throws Exception {
    Path db = dir.resolve("keys.db");
    String scope = "app/user/u1";
    Instant at = Instant.parse("2026-12-01T10:00:00Z");
    try (SqliteMemoryStore store = new SqliteMemoryStore(db)) {
      store.inTransaction(scope, tx -> {
        for (int i = 0; i < 40; i++) {
          tx.insertVersion(keyed(scope, "b" + i, "Bystander " + i, EntryStatus.ACTIVE, at));
          tx.putKeys("vb" + i, List.of("Ana: keepsakeqq question " + i));
        }
        tx.insertVersion(keyed(scope, "x", "The reply", EntryStatus.ACTIVE, at));
        tx.putKeys("vx", List.of("Ana: my passport is zqxkeysecret", "Ben: the reply"));
        tx.insertVersion(keyed(scope, "y", "An older reply", EntryStatus.RETIRED, at));
        tx.putKeys("vy", List.of("Ana: zqxkeyretired was said"));
        return null;
      });
      assertThat(filesContaining(db, "zqxkeysecret")).as("the key is stored before erasure").isNotEmpty();
      assertThat(store.searchKeys(List.of(scope), new dev.engram.spi.FullTextQuery(List.of("zqxkeysecret"),
          java.util.Set.of(), java.util.Set.of()), 10)).hasSize(1);

      store.inTransaction(scope, tx -> tx.eraseEntry("ex") + tx.eraseEntry("ey"));

      assertThat(filesContaining(db, "zqxkeysecret")).as("files holding an erased key").isEmpty();
      assertThat(filesContaining(db, "zqxkeyretired")).as("files holding the key of an erased retired version")
          .isEmpty();
      assertThat(filesContaining(db, "keepsakeqq")).as("the bystanders' keys are still there").isNotEmpty();
      assertThat(ftsTermsLike(db, "version_keys_fts", "zqxkey")).isZero();
      assertThat(ftsTermsLike(db, "version_keys_fts", "keepsakeqq")).isOne();
    }
    assertThat(filesContaining(db, "zqxkeysecret")).as("files holding an erased key after close").isEmpty();
  }

  private static MemoryEntry keyed(String scope, String id, String content, EntryStatus status, Instant at) {
    return new MemoryEntry("e" + id, "v" + id, 1, null, scope, content, List.of("general"), EntryType.FACT, 2, null,
        List.of(), null, null, List.of(), "h" + id, status, null, null, at, at, 1);
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
      // the rebuilt index holds no retired version; the vector arm still returns the nearest active one
      assertThat(e.search(U1, SearchRequest.builder("zqxoldgone").mode(SearchMode.FTS).build()).hits()).isEmpty();
      assertThat(e.search(U1, SearchRequest.of("zqxoldgone")).hits()).extracting(h -> h.entry().versionId())
          .doesNotContain("v2");
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
    return ftsTermsLike(db, "versions_fts", prefix);
  }

  /** Terms starting with {@code prefix} in the vocabulary of the full-text index {@code table}. */
  private static int ftsTermsLike(Path db, String table, String prefix) throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement st = c.createStatement()) {
      st.execute("CREATE VIRTUAL TABLE temp.vocab USING fts5vocab(main, " + table + ", row)");
      try (ResultSet rs = st.executeQuery("SELECT count(*) FROM temp.vocab WHERE term LIKE '" + prefix + "%'")) {
        rs.next();
        return rs.getInt(1);
      }
    }
  }
}
