/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.cli;

import dev.engram.StoreException;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

/**
 * Reads a PostgreSQL memory schema through its own connection. PostgreSQL has no cheap whole-database
 * check, so the integrity check looks for rows that lost the version they belong to.
 */
final class PostgresInspector implements StoreInspector {
  private final String url;
  private final String prefix;

  PostgresInspector(String url, String prefix) {
    this.url = url;
    this.prefix = prefix;
  }

  private <T> T query(Query<T> q) {
    try {
      return StoreInspector.withStatement(DriverManager.getConnection(url), "the PostgreSQL database", q);
    } catch (SQLException e) {
      throw StoreException.unavailable("cannot connect to the PostgreSQL database: " + e.getMessage(), e);
    }
  }

  @Override
  public OptionalInt schemaVersion() {
    return query(st -> {
      try (ResultSet rs = st.executeQuery("SELECT coalesce(max(version), 0) FROM " + prefix + "schema_history")) {
        int v = rs.next() ? rs.getInt(1) : 0;
        return v > 0 ? OptionalInt.of(v) : OptionalInt.empty();
      }
    });
  }

  @Override
  public IntegrityCheck integrity() {
    return query(st -> {
      List<String> problems = new ArrayList<>();
      String[][] orphans = {
          {"vectors", "SELECT count(*) FROM " + prefix + "vectors x WHERE NOT EXISTS (SELECT 1 FROM " + prefix
              + "versions v WHERE v.version_id = x.version_id)"},
          {"version_topics", "SELECT count(*) FROM " + prefix + "version_topics x WHERE NOT EXISTS (SELECT 1 FROM "
              + prefix + "versions v WHERE v.version_id = x.version_id)"}};
      for (String[] check : orphans) {
        try (ResultSet rs = st.executeQuery(check[1])) {
          long n = rs.next() ? rs.getLong(1) : 0;
          if (n > 0) {
            problems.add(n + " " + prefix + check[0] + " rows name a version that does not exist");
          }
        }
      }
      return new IntegrityCheck("orphaned vector and topic rows", problems);
    });
  }

  @Override
  public List<String> allScopes() {
    return query(st -> StoreInspector.strings(st, "SELECT scope FROM " + prefix + "versions UNION SELECT scope FROM "
        + prefix + "topics ORDER BY 1"));
  }
}
