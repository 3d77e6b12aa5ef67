/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.ErrorCode;
import dev.engram.StoreException;
import dev.engram.spi.StoreCapability;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteDataSource;

/** Opening files: new, empty, Engram's own, someone else's, and newer than this library. */
class OpeningTest {
  @TempDir Path dir;

  @Test
  void aNewFileGetsTheSchemaItsVersionRowAndWal() throws SQLException {
    Path db = dir.resolve("sub/dir/memory.db");
    try (SqliteMemoryStore store = new SqliteMemoryStore(db)) {
      assertThat(store.capabilities()).contains(StoreCapability.DURABLE, StoreCapability.MULTI_PROCESS,
          StoreCapability.FULL_TEXT_SEARCH, StoreCapability.VECTOR_STORAGE);
      assertThat(store.headRevision("app")).isZero();
    }
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement s = c.createStatement()) {
      assertThat(single(s, "SELECT group_concat(version) FROM engram_schema_version"))
          .isEqualTo(allVersions());
      assertThat(single(s, "PRAGMA application_id")).isEqualTo(String.valueOf(Migrations.APPLICATION_ID));
      assertThat(single(s, "PRAGMA journal_mode")).isEqualTo("wal");
    }
  }

  @Test
  void anEmptyFileBecomesAnEngramDatabase() throws Exception {
    Path db = Files.createFile(dir.resolve("empty.db"));
    new SqliteMemoryStore(db).close();
    new SqliteMemoryStore(db).close();
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement s = c.createStatement()) {
      assertThat(single(s, "SELECT count(*) FROM engram_schema_version"))
          .isEqualTo(String.valueOf(Migrations.versions().size()));
    }
  }

  @Test
  void aFileThatIsNotSqliteIsRefusedAndLeftUntouched() throws Exception {
    Path db = dir.resolve("notes.txt");
    Files.writeString(db, "These are my notes, not a database.\n".repeat(200), StandardCharsets.UTF_8);
    byte[] before = Files.readAllBytes(db);
    assertThatThrownBy(() -> new SqliteMemoryStore(db))
        .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.STORE_INCOMPATIBLE))
        .hasMessageContaining("not an Engram database").hasMessageContaining("not an SQLite database");
    assertUntouched(db, before);
  }

  @Test
  void anotherApplicationsDatabaseIsRefusedAndLeftUntouched() throws Exception {
    Path db = dir.resolve("shop.db");
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement s = c.createStatement()) {
      s.execute("CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT)");
      s.execute("INSERT INTO customers (name) VALUES ('Ada')");
    }
    byte[] before = Files.readAllBytes(db);
    assertThatThrownBy(() -> new SqliteMemoryStore(db))
        .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.STORE_INCOMPATIBLE))
        .hasMessageContaining("not an Engram database").hasMessageContaining("customers");
    assertUntouched(db, before);

    SQLiteDataSource ds = new SQLiteDataSource();
    ds.setUrl("jdbc:sqlite:" + db);
    assertThatThrownBy(() -> new SqliteMemoryStore(ds))
        .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.STORE_INCOMPATIBLE))
        .hasMessageContaining("customers");
    assertUntouched(db, before);
  }

  @Test
  void aDatabaseWithAnotherApplicationIdIsRefused() throws Exception {
    Path db = dir.resolve("other.db");
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement s = c.createStatement()) {
      s.execute("PRAGMA application_id = 42");
    }
    byte[] before = Files.readAllBytes(db);
    assertThatThrownBy(() -> new SqliteMemoryStore(db))
        .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.STORE_INCOMPATIBLE))
        .hasMessageContaining("application_id");
    assertUntouched(db, before);
  }

  @Test
  void aNewerSchemaIsRefusedAndLeftUntouched() throws Exception {
    Path db = dir.resolve("future.db");
    new SqliteMemoryStore(db).close();
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement s = c.createStatement()) {
      s.execute("INSERT INTO engram_schema_version (version, description, applied_at)"
          + " VALUES (99, 'from the future', '2099-01-01T00:00:00Z')");
    }
    byte[] before = Files.readAllBytes(db);
    assertThatThrownBy(() -> new SqliteMemoryStore(db))
        .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.STORE_INCOMPATIBLE))
        .hasMessageContaining("schema version 99").hasMessageContaining("newer");
    assertUntouched(db, before);
  }

  @Test
  void aDirectoryIsRefused() {
    assertThatThrownBy(() -> new SqliteMemoryStore(dir))
        .isInstanceOfSatisfying(StoreException.class, e -> assertThat(e.code()).isEqualTo(ErrorCode.STORE_INCOMPATIBLE))
        .hasMessageContaining("directory");
  }

  @Test
  void manyOpenersOfOneNewFileMigrateItExactlyOnce() throws Exception {
    Path db = dir.resolve("race.db");
    ExecutorService pool = Executors.newFixedThreadPool(6);
    try {
      List<Future<SqliteMemoryStore>> opened = new ArrayList<>();
      for (int i = 0; i < 6; i++) {
        opened.add(pool.submit((Callable<SqliteMemoryStore>) () -> new SqliteMemoryStore(db)));
      }
      for (Future<SqliteMemoryStore> f : opened) {
        f.get().close();
      }
    } finally {
      pool.shutdownNow();
    }
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement s = c.createStatement()) {
      assertThat(single(s, "SELECT count(*) FROM engram_schema_version"))
          .isEqualTo(String.valueOf(Migrations.versions().size()));
    }
  }

  @Test
  void migrationScriptsSplitIntoStatementsWithTriggerBodiesKept() {
    List<String> statements = Migrations.statements(
        "-- a comment\nCREATE TABLE a (x);\n\nCREATE TRIGGER t AFTER INSERT ON a BEGIN\n  SELECT 1;\n  SELECT 2;\nEND;\n"
            + "CREATE INDEX i ON a (x);\n");
    assertThat(statements).hasSize(3);
    assertThat(statements.get(1)).startsWith("CREATE TRIGGER").contains("SELECT 1;").endsWith("END;");
  }

  private void assertUntouched(Path db, byte[] before) throws Exception {
    assertThat(Files.readAllBytes(db)).as("the refused file changed").isEqualTo(before);
    for (String suffix : List.of("-wal", "-shm", "-journal")) {
      assertThat(db.resolveSibling(db.getFileName() + suffix)).as("left a " + suffix + " file").doesNotExist();
    }
  }

  static String single(Statement s, String sql) throws SQLException {
    try (ResultSet rs = s.executeQuery(sql)) {
      assertThat(rs.next()).isTrue();
      return rs.getString(1);
    }
  }

  /** "1,2,…" every schema version up to the latest. */
  private static String allVersions() {
    return Migrations.versions().stream()
        .map(String::valueOf).collect(java.util.stream.Collectors.joining(","));
  }
}
