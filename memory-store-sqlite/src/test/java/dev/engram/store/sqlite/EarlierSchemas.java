/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/** Database files at the schema of an earlier release, for the upgrade tests. */
final class EarlierSchemas {
  private EarlierSchemas() {}

  /**
   * Applies, on {@code c}, every migration before the one whose script name ends with
   * {@code firstLeftOut} (for example {@code "__text_analysis.sql"}), recorded as applied the way the
   * store records them, and stamps the file as an Engram database: what a release of that schema left.
   * The store's SQL functions are registered on {@code c} for the scripts that call them.
   */
  static void upTo(Connection c, String firstLeftOut) throws SQLException, IOException {
    List<String> before = Migrations.resources().stream().takeWhile(r -> !r.endsWith(firstLeftOut)).toList();
    assertThat(before).as("migrations before %s", firstLeftOut).hasSizeLessThan(Migrations.resources().size());
    SqliteMemoryStore.registerSqlFunctions(c);
    try (Statement st = c.createStatement()) {
      st.execute("PRAGMA journal_mode = WAL");
      st.execute("CREATE TABLE " + Migrations.VERSION_TABLE
          + " (version INTEGER PRIMARY KEY, description TEXT NOT NULL, applied_at TEXT NOT NULL)");
      for (int i = 0; i < before.size(); i++) {
        for (String statement : Migrations.statements(script(before.get(i)))) {
          st.execute(statement);
        }
        st.execute("INSERT INTO " + Migrations.VERSION_TABLE + " VALUES (" + (i + 1)
            + ", 'earlier', '2026-01-01T00:00:00Z')");
      }
      st.execute("PRAGMA application_id = " + Migrations.APPLICATION_ID);
    }
  }

  private static String script(String resource) throws IOException {
    try (InputStream in = Migrations.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IOException("no migration script " + resource);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
