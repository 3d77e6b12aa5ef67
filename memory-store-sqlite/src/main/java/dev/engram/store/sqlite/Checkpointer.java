/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.sqlite;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Copies committed pages from the write-ahead log into the database file on a thread of its own, so
 * that the writer's {@code COMMIT} does not. SQLite's own checkpoint runs inside the commit that takes
 * the log past its bound and syncs both files there; this one runs {@code PRAGMA wal_checkpoint(PASSIVE)}
 * on its own connection after {@value #COMMITS} commits, or {@value #MAX_DELAY_MILLIS} ms after the first
 * commit it has not copied, whichever comes first. A passive checkpoint takes no lock that a writer or
 * reader waits for: it copies what it can and leaves the rest for the next one.
 *
 * <p>What a commit guarantees does not change: a commit is in the log when it returns, and the log is
 * synced before its pages are copied, as with SQLite's own checkpoint. The writer keeps SQLite's
 * checkpoint as a bound ({@link SqliteMemoryStore#WAL_BOUND_FRAMES}): a log that writes keep growing
 * while a passive checkpoint copies (it only copies what was committed when it began) is copied whole
 * and restarted by the writer when it reaches the bound. A checkpoint that fails is logged, and the
 * bound still holds the log.
 */
final class Checkpointer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Checkpointer.class);
  /** Commits after which a checkpoint runs. */
  static final int COMMITS = 32;
  /** The longest a commit waits to be copied, in milliseconds. */
  static final long MAX_DELAY_MILLIS = 200;

  private final DataSource source;
  private final String database;
  private final Thread thread;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition due = lock.newCondition();
  private int pending;
  private long firstPendingAt;
  private boolean closed;
  /** Checkpoints that failed in a row, for the log. */
  private long failures;
  private @Nullable Connection connection;

  Checkpointer(DataSource source, String database) {
    this.source = source;
    this.database = database;
    this.thread = new Thread(this::run, "engram-sqlite-checkpoint");
    thread.setDaemon(true);
    thread.start();
  }

  /** A write transaction committed: its pages wait in the log. */
  void committed() {
    lock.lock();
    try {
      if (pending++ == 0) {
        firstPendingAt = System.nanoTime();
      }
      if (pending >= COMMITS) {
        due.signal();
      }
    } finally {
      lock.unlock();
    }
  }

  private void run() {
    lock.lock();
    try {
      while (!closed) {
        if (pending == 0) {
          due.awaitUninterruptibly();
          continue;
        }
        long left = firstPendingAt + TimeUnit.MILLISECONDS.toNanos(MAX_DELAY_MILLIS) - System.nanoTime();
        if (pending < COMMITS && left > 0) {
          due.awaitNanos(left);
          continue;
        }
        pending = 0;
        lock.unlock();
        try {
          checkpoint();
        } finally {
          lock.lock();
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      lock.unlock();
      closeConnection();
    }
  }

  /** One passive checkpoint; a failure is logged (the first, then at the 2nd, 4th, 8th … in a row). */
  private void checkpoint() {
    try {
      Connection c = connection;
      if (c == null) {
        c = source.getConnection();
        connection = c;
      }
      try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("PRAGMA wal_checkpoint(PASSIVE)")) {
        rs.next();
      }
      if (failures > 0) {
        LOG.info("{}: background checkpoint of the write-ahead log works again after {} failures", database, failures);
        failures = 0;
      }
    } catch (SQLException | RuntimeException e) {
      failures++;
      if (Long.bitCount(failures) == 1) {
        LOG.warn("{}: background checkpoint of the write-ahead log failed ({} in a row): {}; the writer's own"
            + " checkpoint still bounds the log", database, failures, e.getMessage());
      }
      closeConnection();
    }
  }

  private void closeConnection() {
    Connection c = connection;
    connection = null;
    if (c != null) {
      try {
        c.close();
      } catch (SQLException e) {
        LOG.debug("{}: closing the checkpoint connection: {}", database, e.getMessage());
      }
    }
  }

  /** Stops the thread after the checkpoint it may be running; commits still waiting are copied by SQLite on close. */
  @Override
  public void close() {
    lock.lock();
    try {
      closed = true;
      due.signal();
    } finally {
      lock.unlock();
    }
    boolean interrupted = false;
    while (thread.isAlive()) {
      try {
        thread.join();
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
