/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.sqlite;

import dev.engram.spi.MemoryStore;
import dev.engram.tck.MemoryStoreTck;
import dev.engram.tck.StoredRows;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.io.TempDir;

class SqliteMemoryStoreTckTest extends MemoryStoreTck {
  @TempDir static Path dir;
  private static final AtomicInteger FILES = new AtomicInteger();
  private final Map<MemoryStore, Path> files = Collections.synchronizedMap(new IdentityHashMap<>());

  @Override
  protected MemoryStore createStore() {
    Path file = dir.resolve("tck-" + FILES.incrementAndGet() + ".db");
    SqliteMemoryStore store = new SqliteMemoryStore(file);
    files.put(store, file);
    return store;
  }

  /** A second store over the same file. */
  @Override
  protected MemoryStore openAgain(MemoryStore store) {
    return new SqliteMemoryStore(files.get(store));
  }

  /** Every table of the file (the full-text index's own tables included), each text value of each column. */
  @Override
  protected StoredRows storedRows(MemoryStore store) {
    Path file = files.get(store);
    return text -> rowsMentioning(file, text);
  }

  static List<String> rowsMentioning(Path file, String text) {
    List<String> out = new ArrayList<>();
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file)) {
      List<String> tables = new ArrayList<>();
      try (Statement st = c.createStatement();
          ResultSet rs = st.executeQuery("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")) {
        while (rs.next()) {
          tables.add(rs.getString(1));
        }
      }
      for (String table : tables) {
        List<String> columns = new ArrayList<>();
        try (Statement st = c.createStatement();
            ResultSet rs = st.executeQuery("PRAGMA table_info(\"" + table + "\")")) {
          while (rs.next()) {
            columns.add(rs.getString("name"));
          }
        }
        if (columns.isEmpty()) {
          continue;
        }
        StringBuilder where = new StringBuilder();
        for (String column : columns) {
          where.append(where.length() == 0 ? "" : " OR ")
              .append("(typeof(\"").append(column).append("\") = 'text' AND instr(\"").append(column).append("\", ?) > 0)");
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT * FROM \"" + table + "\" WHERE " + where)) {
          for (int i = 1; i <= columns.size(); i++) {
            ps.setString(i, text);
          }
          try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
              StringBuilder row = new StringBuilder(table).append(':');
              for (int i = 1; i <= columns.size(); i++) {
                row.append(' ').append(columns.get(i - 1)).append('=').append(rs.getString(i));
              }
              out.add(row.toString());
            }
          }
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException("scanning " + file + ": " + e.getMessage(), e);
    }
    return out;
  }
}
