/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.postgres;

import dev.engram.spi.MemoryStore;
import dev.engram.tck.MemoryStoreTck;
import dev.engram.tck.StoredRows;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

class PostgresMemoryStoreTckTest extends MemoryStoreTck {
  @Override
  protected MemoryStore createStore() {
    return TestPostgres.get().freshStore();
  }

  /** A second store over the same schema, on the shared pool. */
  @Override
  protected MemoryStore openAgain(MemoryStore store) {
    return PostgresMemoryStore.builder().dataSource(TestPostgres.get().pool())
        .schema(((PostgresMemoryStore) store).schema()).build();
  }

  /** Every table of the store's schema, each row rendered as JSON (text, arrays, JSON bodies, tsvectors). */
  @Override
  protected StoredRows storedRows(MemoryStore store) {
    String schema = ((PostgresMemoryStore) store).schema();
    return text -> rowsMentioning(schema, text);
  }

  static List<String> rowsMentioning(String schema, String text) {
    List<String> out = new ArrayList<>();
    try (Connection c = TestPostgres.get().pool().getConnection()) {
      List<String> tables = new ArrayList<>();
      try (PreparedStatement ps = c.prepareStatement("SELECT table_name FROM information_schema.tables"
          + " WHERE table_schema = ? AND table_type = 'BASE TABLE' ORDER BY table_name")) {
        ps.setString(1, schema);
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            tables.add(rs.getString(1));
          }
        }
      }
      for (String table : tables) {
        String qualified = schema + ".\"" + table + "\"";
        try (PreparedStatement ps = c.prepareStatement("SELECT row_to_json(t)::text FROM " + qualified + " t"
            + " WHERE strpos(row_to_json(t)::text, ?) > 0")) {
          ps.setString(1, text);
          try (ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
              out.add(table + ": " + rs.getString(1));
            }
          }
        }
      }
    } catch (SQLException e) {
      throw new IllegalStateException("scanning schema " + schema + ": " + e.getMessage(), e);
    }
    return out;
  }
}
