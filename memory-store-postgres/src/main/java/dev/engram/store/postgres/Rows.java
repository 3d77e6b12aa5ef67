/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.postgres;

import dev.engram.EntryStatus;
import dev.engram.EntryType;
import dev.engram.MemoryEntry;
import dev.engram.spi.TopicState;
import java.sql.Array;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** Conversions between rows and values. */
final class Rows {
  private Rows() {}

  /** Reads a version from the columns selected by {@code Sql.VERSION_COLUMNS}. */
  static MemoryEntry entry(ResultSet rs) throws SQLException {
    return new MemoryEntry(
        rs.getString(2),
        rs.getString(1),
        rs.getInt(3),
        rs.getString(4),
        rs.getString(5),
        rs.getString(6),
        strings(rs.getArray(7)),
        EntryType.fromWireName(rs.getString(8)),
        rs.getInt(9),
        rs.getString(10),
        strings(rs.getArray(11)),
        rs.getString(12),
        rs.getString(13),
        strings(rs.getArray(14)),
        rs.getString(15),
        EntryStatus.valueOf(rs.getString(16)),
        rs.getString(17),
        rs.getString(21) == null ? null : Instant.parse(rs.getString(21)),
        Instant.parse(rs.getString(18)),
        Instant.parse(rs.getString(19)),
        rs.getLong(20));
  }

  /** Reads a source row selected by {@code Sql.SOURCE_COLUMNS}. */
  static dev.engram.CapturedSource source(ResultSet rs) throws SQLException {
    java.util.Map<String, String> metadata = dev.engram.spi.EntryJson.readStringMap(rs.getString(8));
    return new dev.engram.CapturedSource(rs.getString(1), rs.getString(2), rs.getLong(3), rs.getString(4),
        rs.getString(5), rs.getString(6), Instant.parse(rs.getString(7)), metadata, Instant.parse(rs.getString(9)));
  }

  static String metadata(java.util.Map<String, String> values) {
    return dev.engram.spi.EntryJson.writeStringMap(values);
  }

  /** Reads a topic row selected as scope, topic, active_count, blurb, last_write, last_curated, last_updated_at. */
  static TopicState topic(ResultSet rs) throws SQLException {
    String updated = rs.getString(7);
    return new TopicState(
        rs.getString(1),
        rs.getString(2),
        rs.getInt(3),
        rs.getString(4),
        rs.getLong(5),
        rs.getLong(6),
        updated == null ? null : Instant.parse(updated));
  }

  static List<MemoryEntry> entries(PreparedStatement ps) throws SQLException {
    List<MemoryEntry> out = new ArrayList<>();
    try (ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        out.add(entry(rs));
      }
    }
    return out;
  }

  static List<String> strings(@Nullable Array array) throws SQLException {
    if (array == null) {
      return List.of();
    }
    try {
      Object[] values = (Object[]) array.getArray();
      List<String> out = new ArrayList<>(values.length);
      for (Object v : values) {
        out.add((String) v);
      }
      return out;
    } finally {
      array.free();
    }
  }

  static Array textArray(Connection c, Collection<String> values) throws SQLException {
    return c.createArrayOf("text", values.toArray());
  }

  /**
   * The {@code text[]} literal of {@code values} ({@code {"a","b"}}), every element quoted, with
   * double quotes and backslashes escaped by a backslash, for statements that take an array of arrays as text.
   */
  static String textArrayLiteral(Collection<String> values) {
    StringBuilder out = new StringBuilder("{");
    for (String v : values) {
      out.append(out.length() == 1 ? "\"" : ",\"");
      for (int i = 0; i < v.length(); i++) {
        char ch = v.charAt(i);
        if (ch == '"' || ch == '\\') {
          out.append('\\');
        }
        out.append(ch);
      }
      out.append('"');
    }
    return out.append('}').toString();
  }
}
