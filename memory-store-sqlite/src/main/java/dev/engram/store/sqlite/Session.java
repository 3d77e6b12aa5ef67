/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.sqlite;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One physical SQLite connection with its prepared statements, reused across borrows from a pool. Used
 * by one thread at a time (the one holding the pooled connection).
 */
final class Session {
  private static final int MAX_STATEMENTS = 96;

  private final Connection connection;
  private final Map<String, PreparedStatement> statements = new LinkedHashMap<>(64, 0.75f, true);
  /** Versions became active in the open transaction; their full-text rows wait in {@code fts_pending}. */
  private boolean fullTextPending;

  Session(Connection connection) {
    this.connection = connection;
  }

  Connection connection() {
    return connection;
  }

  /** A prepared statement for {@code sql}, compiled once per connection. */
  PreparedStatement prepare(String sql) throws SQLException {
    PreparedStatement ps = statements.get(sql);
    if (ps != null && !ps.isClosed()) {
      return ps;
    }
    ps = connection.prepareStatement(sql);
    statements.put(sql, ps);
    if (statements.size() > MAX_STATEMENTS) {
      Iterator<PreparedStatement> eldest = statements.values().iterator();
      PreparedStatement evicted = eldest.next();
      eldest.remove();
      evicted.close();
    }
    return ps;
  }

  /** Runs one statement that returns no rows, kept prepared (transaction control). */
  void executePrepared(String sql) throws SQLException {
    prepare(sql).execute();
  }

  /** Runs one statement that returns no rows (pragmas, schema changes). */
  void execute(String sql) throws SQLException {
    try (Statement s = connection.createStatement()) {
      s.execute(sql);
    }
  }

  /** Notes that the open transaction has versions waiting for the full-text index. */
  void fullTextPending() {
    fullTextPending = true;
  }

  /**
   * Indexes the versions waiting in {@code fts_pending} with one statement and empties the list; a
   * no-op when the open transaction made none active. Runs just before {@code COMMIT}.
   */
  void flushFullText() throws SQLException {
    if (!fullTextPending) {
      return;
    }
    executePrepared(INDEX_PENDING);
    executePrepared("DELETE FROM fts_pending");
    fullTextPending = false;
  }

  /** Forgets a pending flush: the transaction was rolled back, and its pending rows with it. */
  void rolledBack() {
    fullTextPending = false;
  }

  static final String INDEX_PENDING =
      "INSERT INTO versions_fts (rowid, content, glossary, disclosure, topics, scope_key)"
          + " SELECT v.seq, engram_fts_terms(substr(v.content, 1, 262144)),"
          + " engram_fts_terms((SELECT group_concat(value, ' ') FROM json_each(v.glossary))),"
          + " engram_fts_terms(v.disclosure),"
          + " engram_fts_terms((SELECT group_concat(value, ' ') FROM json_each(v.topics) WHERE value <> 'general')),"
          + " 'k' || lower(hex(v.scope))"
          + " FROM fts_pending p CROSS JOIN versions v ON v.seq = p.seq WHERE v.status = 'ACTIVE' ORDER BY p.seq";

  boolean isClosed() {
    try {
      return connection.isClosed();
    } catch (SQLException e) {
      return true;
    }
  }

  /**
   * Closes the cached statements; the connection belongs to its pool. Also used after a failed
   * transaction: a statement the driver finalized on a failure (a full disk, an I/O error) would
   * otherwise fail every later use with "statement is not executing"; the next use prepares it again.
   */
  void closeStatements() {
    for (PreparedStatement ps : statements.values()) {
      try {
        ps.close();
      } catch (SQLException ignored) {
        // the connection is going away
      }
    }
    statements.clear();
  }
}
