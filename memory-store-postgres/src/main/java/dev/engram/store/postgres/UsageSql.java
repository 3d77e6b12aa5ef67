/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.postgres;

import dev.engram.ModelUsageRow;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/** The statements of the model usage counters (schema version 17): added to in place, read, erased with the scope. */
final class UsageSql {
  /** Before and after every day a counter is kept for. */
  private static final LocalDate FIRST = LocalDate.of(1, 1, 1);
  private static final LocalDate LAST = LocalDate.of(9999, 12, 31);

  private final String add;
  private final String read;
  /** Erases the counters of one scope. */
  final String eraseScope;

  UsageSql(String schema, String prefix) {
    String t = (schema.isEmpty() ? "" : schema + ".") + prefix + "model_usage";
    add = "INSERT INTO " + t + " AS u (scope, day, provider, model, job, calls, input_tokens, output_tokens, failures)"
        + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (scope, day, provider, model, job) DO UPDATE SET"
        + " calls = u.calls + excluded.calls, input_tokens = u.input_tokens + excluded.input_tokens,"
        + " output_tokens = u.output_tokens + excluded.output_tokens, failures = u.failures + excluded.failures";
    read = "SELECT scope, day, provider, model, job, calls, input_tokens, output_tokens, failures FROM " + t
        + " WHERE scope = ANY (?::text[]) AND day >= ? AND day <= ? ORDER BY scope, day, provider, model, job";
    eraseScope = "DELETE FROM " + t + " WHERE scope = ?";
  }

  List<ModelUsageRow> read(Connection c, Collection<String> scopes, @Nullable LocalDate from, @Nullable LocalDate to)
      throws SQLException {
    if (scopes.isEmpty()) {
      return List.of();
    }
    try (PreparedStatement ps = c.prepareStatement(read)) {
      ps.setArray(1, Rows.textArray(c, new TreeSet<>(scopes)));
      ps.setObject(2, from == null ? FIRST : from);
      ps.setObject(3, to == null ? LAST : to);
      List<ModelUsageRow> out = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(new ModelUsageRow(rs.getString(1), rs.getObject(2, LocalDate.class), rs.getString(3),
              rs.getString(4), rs.getString(5), rs.getLong(6), rs.getLong(7), rs.getLong(8), rs.getLong(9)));
        }
      }
      return out;
    }
  }

  /** Adds the rows to the counters; the transaction checked that each is of its scope. */
  void add(Connection c, List<ModelUsageRow> rows) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(add)) {
      for (ModelUsageRow r : rows) {
        ps.setString(1, r.scope());
        ps.setObject(2, r.day());
        ps.setString(3, r.provider());
        ps.setString(4, r.model());
        ps.setString(5, r.job());
        ps.setLong(6, r.calls());
        ps.setLong(7, r.inputTokens());
        ps.setLong(8, r.outputTokens());
        ps.setLong(9, r.failures());
        ps.addBatch();
      }
      ps.executeBatch();
    }
  }

  void eraseScope(Connection c, String scope) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(eraseScope)) {
      ps.setString(1, scope);
      ps.executeUpdate();
    }
  }
}
