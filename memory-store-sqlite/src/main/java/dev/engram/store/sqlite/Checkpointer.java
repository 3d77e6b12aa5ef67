/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.sqlite;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Copies committed pages from the write-ahead log into the database file off the writer's path, so
 * that the writer's {@code COMMIT} does not. SQLite's own checkpoint runs inside the commit that takes
 * the log past its bound and syncs both files there; this one runs {@code PRAGMA wal_checkpoint(PASSIVE)}
 * on its own connection after {@value #COMMITS} commits, or {@value #MAX_DELAY_MILLIS} ms after the first
 * commit it has not copied, whichever comes first. A passive checkpoint takes no lock that a writer or
 * reader waits for: it copies what it can and leaves the rest for the next one.
 *
 * <p>The checkpoints run as short tasks on a scheduler: the application's
 * ({@link SqliteMemoryStore.Builder#checkpointScheduler}), which the store never shuts down, or by default
 * one daemon thread of the store's own, {@value #THREAD_NAME}, started with the first commit and stopped by
 * {@link #close()}. At most one checkpoint runs at a time, whatever the scheduler's threads; a scheduler
 * that refuses a task (shut down, saturated) is logged at WARN, and the writer's bound still holds the log.
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
  /** The name of the default scheduler's thread. */
  static final String THREAD_NAME = "engram-sqlite-checkpoint";

  private final DataSource source;
  private final String database;
  private final ScheduledExecutorService scheduler;
  private final boolean ownsScheduler;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition idle = lock.newCondition();
  private int pending;
  private long firstPendingAt;
  private boolean running;
  private boolean closed;
  /** Checkpoints that failed in a row, for the log. */
  private long failures;
  /** Tasks the scheduler refused in a row, for the log. */
  private long refusals;
  /** Checkpoints run (passive checkpoints issued), for tests and diagnostics. */
  private long runs;
  private @Nullable Connection connection;
  /** The thread of the store's own scheduler, once it started. */
  private final AtomicReference<@Nullable Thread> thread = new AtomicReference<>();

  /**
   * @param scheduler where checkpoints run; null: a thread of this checkpointer's own, stopped by {@link #close()}
   */
  Checkpointer(DataSource source, String database, @Nullable ScheduledExecutorService scheduler) {
    this.source = source;
    this.database = database;
    if (scheduler == null) {
      ScheduledThreadPoolExecutor own = new ScheduledThreadPoolExecutor(1, task -> {
        Thread t = new Thread(task, THREAD_NAME);
        t.setDaemon(true);
        thread.set(t);
        return t;
      });
      own.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
      own.setRemoveOnCancelPolicy(true);
      this.scheduler = own;
      this.ownsScheduler = true;
    } else {
      this.scheduler = scheduler;
      this.ownsScheduler = false;
    }
  }

  /** A write transaction committed: its pages wait in the log. */
  void committed() {
    lock.lock();
    try {
      if (closed) {
        return;
      }
      if (pending++ == 0) {
        firstPendingAt = System.nanoTime();
        schedule(MAX_DELAY_MILLIS);
      }
      if (pending == COMMITS) {
        schedule(0);
      }
    } finally {
      lock.unlock();
    }
  }

  /** Checkpoints run so far. */
  long runs() {
    lock.lock();
    try {
      return runs;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Waits until every commit so far is in the database file: no commit waits and no checkpoint runs, and
   * at least one ran. False when {@code timeout} passes first (a scheduler that refused the task, say).
   */
  boolean awaitCopied(java.time.Duration timeout) throws InterruptedException {
    long left = timeout.toNanos();
    lock.lock();
    try {
      while (pending > 0 || running || runs == 0) {
        if (left <= 0) {
          return false;
        }
        left = idle.awaitNanos(left);
      }
      return true;
    } finally {
      lock.unlock();
    }
  }

  /**
   * Runs {@code work} (a full checkpoint of the writer's: the wipe after an erasure) while no background
   * checkpoint runs. SQLite runs one checkpoint at a time and answers a second with {@code SQLITE_BUSY}, so
   * the work waits for a checkpoint that is running and holds the next ones off until it returns. When it
   * reports that it copied the whole log, the commits waiting for a background checkpoint are copied too;
   * otherwise they are scheduled again.
   */
  boolean exclusively(java.util.function.BooleanSupplier work) {
    lock.lock();
    try {
      while (running) {
        idle.awaitUninterruptibly();
      }
      running = true;
    } finally {
      lock.unlock();
    }
    boolean copiedAll = false;
    try {
      copiedAll = work.getAsBoolean();
      return copiedAll;
    } finally {
      lock.lock();
      try {
        running = false;
        if (copiedAll) {
          pending = 0;
        } else if (!closed && pending > 0) {
          schedule(0);
        }
        idle.signalAll();
      } finally {
        lock.unlock();
      }
    }
  }

  /** Asks the scheduler for a run in {@code delayMillis}; called with the lock held. */
  private void schedule(long delayMillis) {
    try {
      scheduler.schedule(this::run, delayMillis, TimeUnit.MILLISECONDS);
      if (refusals > 0) {
        LOG.info("{}: the checkpoint scheduler takes tasks again after {} refusals", database, refusals);
        refusals = 0;
      }
    } catch (RejectedExecutionException e) {
      refusals++;
      if (Long.bitCount(refusals) == 1) {
        LOG.warn("{}: the checkpoint scheduler refused a background checkpoint ({} in a row); the writer's own"
            + " checkpoint still bounds the log", database, refusals);
      }
    }
  }

  /**
   * One scheduled run: checkpoints when commits wait and no other run is checkpointing; afterwards asks
   * for the next run when commits arrived meanwhile.
   */
  private void run() {
    lock.lock();
    try {
      if (closed || running || pending == 0) {
        return;
      }
      long left = firstPendingAt + TimeUnit.MILLISECONDS.toNanos(MAX_DELAY_MILLIS) - System.nanoTime();
      if (pending < COMMITS && left > 0) {
        return; // an early run (of a batch already copied): the delayed one is still to come
      }
      pending = 0;
      running = true;
    } finally {
      lock.unlock();
    }
    try {
      checkpoint();
    } finally {
      lock.lock();
      try {
        running = false;
        runs++;
        if (!closed && pending > 0) {
          long left = firstPendingAt + TimeUnit.MILLISECONDS.toNanos(MAX_DELAY_MILLIS) - System.nanoTime();
          schedule(pending >= COMMITS ? 0 : Math.max(0, TimeUnit.NANOSECONDS.toMillis(left)));
        }
        idle.signalAll();
      } finally {
        lock.unlock();
      }
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

  /**
   * Stops checkpointing after the checkpoint that may be running, closes the connection and stops the
   * store's own thread (never an application's scheduler); commits still waiting are copied by SQLite on
   * close.
   */
  @Override
  public void close() {
    boolean interrupted = false;
    lock.lock();
    try {
      closed = true;
      while (running) {
        idle.awaitUninterruptibly();
      }
    } finally {
      lock.unlock();
    }
    closeConnection();
    if (ownsScheduler) {
      scheduler.shutdownNow();
      Thread t = thread.get();
      while (t != null && t.isAlive()) {
        try {
          t.join();
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }
}
