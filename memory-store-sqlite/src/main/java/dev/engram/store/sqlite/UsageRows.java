/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.sqlite;

import dev.engram.ModelUsageRow;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/** The model usage counters (schema version 16): added to in place, read per scope and days, erased with the scope. */
final class UsageRows {
  private static final String ADD = "INSERT INTO model_usage"
      + " (scope, day, provider, model, job, calls, input_tokens, output_tokens, failures)"
      + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
      + " ON CONFLICT (scope, day, provider, model, job) DO UPDATE SET calls = calls + excluded.calls,"
      + " input_tokens = input_tokens + excluded.input_tokens, output_tokens = output_tokens + excluded.output_tokens,"
      + " failures = failures + excluded.failures";
  private static final String READ = "SELECT day, provider, model, job, calls, input_tokens, output_tokens, failures"
      + " FROM model_usage WHERE scope = ? AND day >= ? AND day <= ? ORDER BY day, provider, model, job";
  static final String DELETE_SCOPE = "DELETE FROM model_usage WHERE scope = ?";
  /** Below and above every stored day (yyyy-mm-dd). */
  private static final String FIRST = "0000-00-00";
  private static final String LAST = "9999-99-99";

  private UsageRows() {}

  static List<ModelUsageRow> read(Session s, Collection<String> scopes, @Nullable LocalDate from,
      @Nullable LocalDate to) throws SQLException {
    List<ModelUsageRow> out = new ArrayList<>();
    PreparedStatement ps = s.prepare(READ);
    for (String scope : new TreeSet<>(scopes)) {
      ps.setString(1, scope);
      ps.setString(2, from == null ? FIRST : from.toString());
      ps.setString(3, to == null ? LAST : to.toString());
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(new ModelUsageRow(scope, LocalDate.parse(rs.getString(1)), rs.getString(2), rs.getString(3),
              rs.getString(4), rs.getLong(5), rs.getLong(6), rs.getLong(7), rs.getLong(8)));
        }
      }
    }
    return out;
  }

  /** Adds the rows to the counters; the transaction checked that each is of its scope. */
  static void add(Session s, List<ModelUsageRow> rows) throws SQLException {
    PreparedStatement ps = s.prepare(ADD);
    for (ModelUsageRow r : rows) {
      ps.setString(1, r.scope());
      ps.setString(2, r.day().toString());
      ps.setString(3, r.provider());
      ps.setString(4, r.model());
      ps.setString(5, r.job());
      ps.setLong(6, r.calls());
      ps.setLong(7, r.inputTokens());
      ps.setLong(8, r.outputTokens());
      ps.setLong(9, r.failures());
      ps.executeUpdate();
    }
  }
}
