/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.sqlite;

import dev.engram.StoreException;
import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import org.jspecify.annotations.Nullable;

/**
 * SQLite's one write lock, taken deliberately. {@code BEGIN IMMEDIATE} takes it up front, so a
 * transaction never fails half-way because another writer got there first. While another process
 * holds it, SQLite's busy timeout waits; when that runs out the attempt is repeated with a short random
 * pause until the store's write-lock timeout, and only then a {@link StoreException} is thrown. A raw
 * {@code SQLITE_BUSY} never reaches the caller.
 */
final class WriteLock {
  private WriteLock() {}

  @FunctionalInterface
  interface SqlAction {
    void run() throws SQLException;
  }

  static void begin(Session s, String database, Duration timeout) throws SQLException {
    withBusyRetry(database, "take the write lock", timeout, () -> s.executePrepared("BEGIN IMMEDIATE"));
  }

  static void commit(Session s, String database, Duration timeout) throws SQLException {
    withBusyRetry(database, "commit", timeout, () -> s.executePrepared("COMMIT"));
  }

  /**
   * Rolls back if a transaction is open, recording a failure to do so on {@code cause} when there is one.
   * After a failed statement (a full disk, an I/O error) the driver may have finalized the cached
   * {@code ROLLBACK}; the rollback is then repeated on a fresh statement, so the connection never stays
   * inside a dead transaction.
   */
  static void rollbackQuietly(Session s, @Nullable Throwable cause) {
    try {
      s.executePrepared("ROLLBACK");
    } catch (SQLException e) {
      if (noTransaction(e)) {
        return;
      }
      try {
        s.execute("ROLLBACK");
      } catch (SQLException again) {
        if (cause != null && !noTransaction(again)) {
          cause.addSuppressed(e);
          cause.addSuppressed(again);
        }
      }
    }
  }

  private static boolean noTransaction(SQLException e) {
    return String.valueOf(e.getMessage()).contains("no transaction is active");
  }

  /** Runs {@code action}, repeating it while SQLite reports the database busy, up to {@code timeout}. */
  static void withBusyRetry(String database, String what, Duration timeout, SqlAction action) throws SQLException {
    long deadline = System.nanoTime() + timeout.toNanos();
    int attempt = 0;
    while (true) {
      try {
        action.run();
        return;
      } catch (SQLException e) {
        if (!SqliteErrors.isBusy(e)) {
          throw e;
        }
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          throw StoreException.unavailable(database + " stayed locked by another connection for "
              + timeout.toMillis() + " ms; could not " + what, e);
        }
        attempt++;
        long pauseMillis = Math.min(Math.min(50, 1L << Math.min(attempt, 5)), Math.max(1, left / 1_000_000));
        try {
          Thread.sleep(ThreadLocalRandom.current().nextLong(1, pauseMillis + 1));
        } catch (InterruptedException ie) {
          Thread.currentThread().interrupt();
          throw StoreException.unavailable("interrupted while waiting for the write lock of " + database, e);
        }
      }
    }
  }
}
