/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.sqlite;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import org.sqlite.SQLiteConnection;

/**
 * Borrows connections from a {@link DataSource} and pairs each physical SQLite connection with its
 * {@link Session}. The first time a physical connection is seen, the store's per-connection settings
 * (busy timeout, foreign keys, synchronous; no generated-key lookups after each insert; the
 * {@link FtsTerms} function the full-text triggers call) are applied to it, so a caller's own pool behaves the same as the one the store builds.
 */
final class Connections {
  private final DataSource dataSource;
  private final List<String> pragmas;
  /** The sessions' full-text bound ({@code fullTextCandidates}). */
  private final int fullTextCandidates;
  private final Map<Connection, Session> sessions = new IdentityHashMap<>();

  /** The store's cache of ranked versions' term frequencies, shared by its sessions. */
  private final BoundedFullText.Cache fullTextCache;

  Connections(DataSource dataSource, List<String> pragmas, int fullTextCandidates,
      BoundedFullText.Cache fullTextCache) {
    this.dataSource = dataSource;
    this.pragmas = List.copyOf(pragmas);
    this.fullTextCandidates = fullTextCandidates;
    this.fullTextCache = fullTextCache;
  }

  /** A borrowed connection; closing it returns the connection to its pool. */
  static final class Lease implements AutoCloseable {
    private final Connection pooled;
    private final Session session;

    Lease(Connection pooled, Session session) {
      this.pooled = pooled;
      this.session = session;
    }

    Session session() {
      return session;
    }

    @Override
    public void close() throws SQLException {
      pooled.close();
    }
  }

  Lease borrow() throws SQLException {
    Connection pooled = dataSource.getConnection();
    try {
      if (!pooled.getAutoCommit()) {
        pooled.setAutoCommit(true);
      }
      return new Lease(pooled, session(physical(pooled)));
    } catch (SQLException | RuntimeException e) {
      try {
        pooled.close();
      } catch (SQLException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    }
  }

  private static Connection physical(Connection pooled) throws SQLException {
    if (pooled instanceof SQLiteConnection) {
      return pooled;
    }
    if (pooled.isWrapperFor(SQLiteConnection.class)) {
      return pooled.unwrap(SQLiteConnection.class);
    }
    throw new SQLException("the DataSource hands out " + pooled.getClass().getName()
        + ", not an org.sqlite.SQLiteConnection; SqliteMemoryStore needs the xerial sqlite-jdbc driver");
  }

  private Session session(Connection physical) throws SQLException {
    synchronized (sessions) {
      Session s = sessions.get(physical);
      if (s != null) {
        return s;
      }
    }
    Session created = new Session(physical, fullTextCandidates, fullTextCache);
    ((SQLiteConnection) physical).getConnectionConfig().setGetGeneratedKeys(false);
    FtsTerms.register(physical);
    for (String pragma : pragmas) {
      created.execute(pragma);
    }
    synchronized (sessions) {
      List<Connection> gone = new ArrayList<>();
      sessions.forEach((c, s) -> {
        if (s.isClosed()) {
          gone.add(c);
        }
      });
      gone.forEach(sessions::remove);
      sessions.put(physical, created);
    }
    return created;
  }

  /** Closes every cached statement; used when the store closes. */
  void closeSessions() {
    synchronized (sessions) {
      sessions.values().forEach(Session::closeStatements);
      sessions.clear();
    }
  }
}
