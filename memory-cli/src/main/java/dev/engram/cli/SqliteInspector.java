/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.cli;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.util.List;
import java.util.OptionalInt;
import org.sqlite.SQLiteConfig;

/** Reads a SQLite memory file through its own read-only connection. */
final class SqliteInspector implements StoreInspector {
  private final Path file;

  SqliteInspector(Path file) {
    this.file = file;
  }

  private <T> T query(Query<T> q) {
    SQLiteConfig config = new SQLiteConfig();
    config.setReadOnly(true);
    try {
      Connection c = config.createConnection("jdbc:sqlite:" + file.toAbsolutePath());
      return StoreInspector.withStatement(c, file.toString(), q);
    } catch (java.sql.SQLException e) {
      throw dev.engram.StoreException.unavailable("cannot open " + file + " read-only: " + e.getMessage(), e);
    }
  }

  @Override
  public OptionalInt schemaVersion() {
    return query(st -> {
      try (ResultSet rs = st.executeQuery("SELECT max(version) FROM engram_schema_version")) {
        int v = rs.next() ? rs.getInt(1) : 0;
        return v > 0 ? OptionalInt.of(v) : OptionalInt.empty();
      }
    });
  }

  @Override
  public IntegrityCheck integrity() {
    return query(st -> {
      List<String> rows = StoreInspector.strings(st, "PRAGMA integrity_check");
      List<String> fk = StoreInspector.strings(st, "PRAGMA foreign_key_check");
      List<String> problems = new java.util.ArrayList<>();
      if (!(rows.size() == 1 && rows.get(0).equals("ok"))) {
        problems.addAll(rows);
      }
      for (String table : fk) {
        problems.add("foreign key violation in " + table);
      }
      return new IntegrityCheck("PRAGMA integrity_check, foreign_key_check", problems);
    });
  }

  @Override
  public List<String> allScopes() {
    return query(st -> StoreInspector.strings(st,
        "SELECT scope FROM versions UNION SELECT scope FROM topics ORDER BY 1"));
  }
}
