/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.sqlite;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One physical SQLite connection with its prepared statements, reused across borrows from a pool. Used
 * by one thread at a time (the one holding the pooled connection).
 */
final class Session {
  private static final int MAX_STATEMENTS = 96;

  private final Connection connection;
  private final Map<String, PreparedStatement> statements = new LinkedHashMap<>(64, 0.75f, true);
  /**
   * The versions that became active in the open transaction and are not in the full-text index yet, in
   * the order they became active. The list lives here and not in the database file: it is empty
   * whenever no transaction is open, and a crash loses only an uncommitted transaction, whose versions
   * are gone with it.
   */
  private Set<String> fullTextPending = new LinkedHashSet<>();
  /**
   * The versions whose retrieval keys wait for the key index in the open transaction: those whose keys
   * it stored and those it made active again. At the flush the ones that are active and have keys are
   * indexed; none of them is in the key index before. Held like {@link #fullTextPending}.
   */
  private Set<String> keysPending = new LinkedHashSet<>();

  /** Both pending lists as they were when a savepoint began. */
  private record Pending(Set<String> fullText, Set<String> keys) {}

  /** The pending lists as they were when each open savepoint began, innermost first. */
  private final Deque<Pending> savepoints = new ArrayDeque<>();

  /** The most versions a full-text search on this connection ranks; 0 ranks every hit. */
  private final int fullTextCandidates;

  /** The store's cache of ranked versions' term frequencies. */
  private final BoundedFullText.Cache fullTextCache;

  Session(Connection connection) {
    this(connection, 0, new BoundedFullText.Cache());
  }

  Session(Connection connection, int fullTextCandidates, BoundedFullText.Cache fullTextCache) {
    this.connection = connection;
    this.fullTextCandidates = fullTextCandidates;
    this.fullTextCache = fullTextCache;
  }

  /** The store's cache of ranked versions' term frequencies, emptied by every erasure. */
  BoundedFullText.Cache fullTextCache() {
    return fullTextCache;
  }

  /** The most versions a full-text search ranks ({@code fullTextCandidates}); 0 ranks every hit. */
  int fullTextCandidates() {
    return fullTextCandidates;
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

  /** Notes that a version became active in the open transaction; it waits for the full-text index. */
  void fullTextPending(String versionId) {
    fullTextPending.add(versionId);
  }

  /** Whether a version waits for the full-text index in the open transaction. */
  boolean isFullTextPending(String versionId) {
    return fullTextPending.contains(versionId);
  }

  /** Notes that a version's keys were stored or that it became active again: its keys wait for the key index. */
  void keysPending(String versionId) {
    keysPending.add(versionId);
  }

  /** Whether a version's keys wait for the key index in the open transaction. */
  boolean isKeysPending(String versionId) {
    return keysPending.contains(versionId);
  }

  /**
   * Indexes the versions waiting for the full-text index with one statement, and those whose keys wait
   * for the key index with another, and empties the lists; each statement runs only when its list has
   * versions, so a transaction that stored no keys and made no version active again runs no statement for
   * the key index. Runs just before {@code COMMIT}, before a search in the transaction, and before a
   * waiting version stops being active or is deleted (its triggers then take its terms out of the
   * indexes, which must hold them).
   */
  void flushFullText() throws SQLException {
    if (!fullTextPending.isEmpty()) {
      PreparedStatement ps = prepare(INDEX_PENDING);
      String pending = Codec.strings(List.copyOf(fullTextPending));
      ps.setString(1, pending);
      ps.executeUpdate();
      PreparedStatement counts = prepare(COUNT_PENDING_TERMS);
      counts.setString(1, pending);
      counts.executeUpdate();
      fullTextPending = new LinkedHashSet<>();
    }
    if (!keysPending.isEmpty()) {
      PreparedStatement ps = prepare(INDEX_PENDING_KEYS);
      ps.setString(1, Codec.strings(List.copyOf(keysPending)));
      ps.executeUpdate();
      keysPending = new LinkedHashSet<>();
    }
  }

  /** A savepoint began: rolling back to it restores the pending lists of this moment. */
  void savepointBegun() {
    savepoints.push(new Pending(new LinkedHashSet<>(fullTextPending), new LinkedHashSet<>(keysPending)));
  }

  /** The innermost savepoint was released: its pending versions now belong to the enclosing transaction. */
  void savepointReleased() {
    savepoints.pop();
  }

  /**
   * The innermost savepoint was rolled back: the versions it made active are gone, and a flush inside it
   * was undone with the rest, so the list is again what it was when the savepoint began.
   */
  void savepointRolledBack() {
    Pending before = savepoints.pop();
    fullTextPending = before.fullText();
    keysPending = before.keys();
  }

  /** Forgets the pending lists: the transaction was rolled back, and its versions and keys with it. */
  void rolledBack() {
    fullTextPending = new LinkedHashSet<>();
    keysPending = new LinkedHashSet<>();
    savepoints.clear();
  }

  /**
   * Indexes the active versions among a JSON array of version ids, in rowid order (FTS5 writes the terms
   * it holds out as a new segment whenever a rowid does not follow the previous one).
   */
  /**
   * Adds the versions {@link #INDEX_PENDING} indexed to the document frequencies of their scopes' terms
   * (schema 15): each distinct term of the indexed columns once per version.
   */
  static final String COUNT_PENDING_TERMS =
      "INSERT INTO term_counts (term, scope, df)"
          + " SELECT t.value, v.scope, count(*) FROM json_each(?) p CROSS JOIN versions v ON v.version_id = p.value"
          + " CROSS JOIN json_each(" + FtsTerms.SET_NAME + "(substr(v.content, 1, 262144),"
          + " (SELECT group_concat(value, ' ') FROM json_each(v.glossary)), v.disclosure,"
          + " (SELECT group_concat(value, ' ') FROM json_each(v.topics) WHERE value <> 'general'))) t"
          + " WHERE v.status = 'ACTIVE' GROUP BY t.value, v.scope"
          + " ON CONFLICT (term, scope) DO UPDATE SET df = df + excluded.df";

  static final String INDEX_PENDING =
      "INSERT INTO versions_fts (rowid, content, glossary, disclosure, topics, scope_key)"
          + " SELECT v.seq, engram_fts_terms(substr(v.content, 1, 262144)),"
          + " engram_fts_terms((SELECT group_concat(value, ' ') FROM json_each(v.glossary))),"
          + " engram_fts_terms(v.disclosure),"
          + " engram_fts_terms((SELECT group_concat(value, ' ') FROM json_each(v.topics) WHERE value <> 'general')),"
          + " 'k' || lower(hex(v.scope))"
          + " FROM json_each(?) p CROSS JOIN versions v ON v.version_id = p.value WHERE v.status = 'ACTIVE'"
          + " ORDER BY v.seq";

  /**
   * Indexes the keys of the active versions with keys among a JSON array of version ids, in rowid order:
   * their key document (the keys joined by a space, in their order) as {@link FtsTerms} analyses it, and
   * the scope's key. The triggers of schema version 13 remove exactly these terms.
   */
  static final String INDEX_PENDING_KEYS = "INSERT INTO version_keys_fts (rowid, keys, scope_key)"
      + " SELECT v.seq, engram_fts_terms((SELECT group_concat(j.value, ' ' ORDER BY j.key) FROM json_each(k.keys) j)),"
      + " 'k' || lower(hex(k.scope))"
      + " FROM json_each(?) p CROSS JOIN version_keys k ON k.version_id = p.value"
      + " CROSS JOIN versions v ON v.version_id = k.version_id WHERE v.status = 'ACTIVE' ORDER BY v.seq";

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
