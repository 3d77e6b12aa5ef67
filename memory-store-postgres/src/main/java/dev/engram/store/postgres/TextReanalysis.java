/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.postgres;

import dev.engram.StoreException;
import dev.engram.spi.TextAnalysis;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the {@code search} columns built with the current {@link TextAnalysis#VERSION}: the versions',
 * their retrieval keys' (schema 14) and the active experience versions' (schema 15). The table {@code <prefix>text_analysis} (schema version 7)
 * records the version the columns were built with; when it records none or an older one, every
 * version's column and every key document is rebuilt from its text in one transaction that first locks
 * both tables against writers (so no write slips between the rebuild and the record), and the version
 * is recorded. Checking costs one read when the columns are current.
 */
final class TextReanalysis {
  private static final Logger LOG = LoggerFactory.getLogger(TextReanalysis.class);
  private static final int BATCH = 500;

  private final String table;
  private final String versions;
  private final String keys;
  private final ExperienceSql experience;

  TextReanalysis(String schema, String prefix) {
    String p = (schema.isEmpty() ? "" : schema + ".") + prefix;
    this.table = p + "text_analysis";
    this.versions = p + "versions";
    this.keys = p + "version_keys";
    this.experience = new ExperienceSql(schema, prefix);
  }

  /** Rebuilds the search column when it was built with another analysis; a no-op otherwise. */
  void bringUpToDate(Connection c) throws SQLException {
    if (!exists(c)) {
      throw StoreException.incompatible("the Engram table " + table + " is missing; apply the migrations"
          + " (PostgresMemoryStore.migrationScripts) or build the store with runMigrations(true)");
    }
    if (recorded(c) == TextAnalysis.VERSION) {
      return;
    }
    boolean autoCommit = c.getAutoCommit();
    c.setAutoCommit(false);
    try {
      try (Statement st = c.createStatement()) {
        st.execute("LOCK TABLE " + versions + ", " + keys + ", " + experience.table + " IN SHARE ROW EXCLUSIVE MODE");
        st.execute("LOCK TABLE " + table + " IN EXCLUSIVE MODE");
      }
      int found = recorded(c);
      if (found == TextAnalysis.VERSION) {
        c.commit();
        return;
      }
      long rows = rebuild(c);
      long keyDocuments = rebuildKeys(c);
      long experienceDocuments = rebuild(c, experience.reanalysisRows, experience.reanalysisUpdate, (rs, write) -> {
        write.setString(1, ExperienceSql.document(rs.getString(2)));
        write.setString(2, rs.getString(1));
      });
      try (Statement st = c.createStatement()) {
        st.executeUpdate("DELETE FROM " + table);
        st.executeUpdate("INSERT INTO " + table + " (analysis) VALUES (" + TextAnalysis.VERSION + ")");
      }
      c.commit();
      if (rows > 0 || keyDocuments > 0 || experienceDocuments > 0) {
        LOG.info("Rebuilt the full-text terms of {} versions in {}, {} key documents and {} experience versions with"
            + " text analysis {} (was {})", rows, versions, keyDocuments, experienceDocuments, TextAnalysis.VERSION,
            found == 0 ? "the 'english' configuration" : "analysis " + found);
      }
    } catch (SQLException | RuntimeException e) {
      try {
        c.rollback();
      } catch (SQLException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    } finally {
      c.setAutoCommit(autoCommit);
    }
  }

  private long rebuild(Connection c) throws SQLException {
    return rebuild(c, "SELECT version_id, content, glossary, disclosure, topics FROM " + versions,
        "UPDATE " + versions + " SET search = " + Sql.SEARCH_VECTOR + " WHERE version_id = ?", (rs, write) -> {
          TextAnalysis.Fields terms = TextAnalysis.fields(rs.getString(2), strings(rs.getArray(3)),
              rs.getString(4), strings(rs.getArray(5)));
          write.setString(1, SearchText.vector(terms.glossary()));
          write.setString(2, SearchText.vector(terms.content()));
          write.setString(3, SearchText.vector(terms.topics()));
          write.setString(4, SearchText.vector(terms.disclosure()));
          write.setString(5, rs.getString(1));
        });
  }

  /** Rebuilds every key document from its keys, as {@link SearchText#keyDocument} writes it. */
  private long rebuildKeys(Connection c) throws SQLException {
    return rebuild(c, "SELECT version_id, keys FROM " + keys,
        "UPDATE " + keys + " SET search = " + Sql.KEY_SEARCH_VECTOR + " WHERE version_id = ?", (rs, write) -> {
          write.setString(1, SearchText.keyDocument(strings(rs.getArray(2))));
          write.setString(2, rs.getString(1));
        });
  }

  /** Binds the update of one row read by a rebuild (column 1 of the read is the version id). */
  @FunctionalInterface
  private interface RowUpdate {
    void bind(ResultSet row, PreparedStatement write) throws SQLException;
  }

  /**
   * Pages through the rows of {@code select} (whose first column is the version id, in version id order, in
   * batches of {@link #BATCH}) and runs {@code update} for each, bound by {@code bind}; returns the rows.
   */
  private static long rebuild(Connection c, String select, String update, RowUpdate bind) throws SQLException {
    long total = 0;
    String after = "";
    try (PreparedStatement read = c.prepareStatement(select + " WHERE version_id > ? ORDER BY version_id LIMIT " + BATCH);
        PreparedStatement write = c.prepareStatement(update)) {
      while (true) {
        int n = 0;
        read.setString(1, after);
        try (ResultSet rs = read.executeQuery()) {
          while (rs.next()) {
            bind.bind(rs, write);
            write.addBatch();
            after = rs.getString(1);
            n++;
          }
        }
        if (n == 0) {
          return total;
        }
        write.executeBatch();
        total += n;
      }
    }
  }

  private static List<String> strings(java.sql.Array array) throws SQLException {
    return Arrays.asList((String[]) array.getArray());
  }

  private int recorded(Connection c) throws SQLException {
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT coalesce(max(analysis), 0) FROM " + table)) {
      rs.next();
      return rs.getInt(1);
    }
  }

  private boolean exists(Connection c) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT to_regclass(?) IS NOT NULL")) {
      ps.setString(1, table);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getBoolean(1);
      }
    }
  }
}
