/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.Engram;
import dev.engram.Grants;
import dev.engram.ReadOptions;
import dev.engram.SearchMode;
import dev.engram.SearchRequest;
import dev.engram.reasoner.DeterministicReasoner;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Delayed;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The background checkpoint copies the write-ahead log into the database file, so the writer's commits do
 * not, and the log stays bounded under steady writes. What was copied is read from the wal-index (the
 * {@code -shm} file): its header holds the frames in the log ({@code mxFrame}, offset 16) and its
 * checkpoint record the frames copied into the file ({@code nBackfill}, offset 96), in the machine's byte
 * order. Every wait here ends on the checkpointer's own signal ({@code awaitCheckpointed}) or runs the
 * scheduled tasks on the test's thread; none sleeps.
 */
class BackgroundCheckpointTest {
  private static final Grants U1 = Grants.of("app/user/u1");

  @TempDir
  Path dir;

  /** Frames in the log and frames of it already copied into the database file. */
  private static int[] walIndex(Path db) throws Exception {
    ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(Path.of(db + "-shm"))).order(ByteOrder.nativeOrder());
    return new int[] {b.getInt(16), b.getInt(96)};
  }

  private static void write(Engram e, int from, int count) {
    for (int i = from; i < from + count; i++) {
      e.write(U1, "Checkpoint note " + i + " about the weekly planning.");
    }
  }

  private static Engram engram(SqliteMemoryStore store) {
    return Engram.builder().store(store).reasoner(new DeterministicReasoner()).build();
  }

  /**
   * A scheduler that keeps what it is given and runs it when the test says so, on the test's thread: the
   * delays it was asked for are recorded, nothing runs by itself.
   */
  private static final class ManualScheduler extends ScheduledThreadPoolExecutor {
    final List<Runnable> queued = new ArrayList<>();
    final List<Long> delays = new ArrayList<>();

    ManualScheduler() {
      super(1);
    }

    @Override
    public synchronized ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
      queued.add(command);
      delays.add(unit.toMillis(delay));
      return new Queued(unit.toNanos(delay));
    }

    /** Runs what was scheduled so far (and what those runs schedule), delays or not. */
    void runAll() {
      while (true) {
        List<Runnable> now;
        synchronized (this) {
          if (queued.isEmpty()) {
            return;
          }
          now = new ArrayList<>(queued);
          queued.clear();
        }
        now.forEach(Runnable::run);
      }
    }

    private record Queued(long delayNanos) implements ScheduledFuture<Object> {
      @Override
      public long getDelay(TimeUnit unit) {
        return unit.convert(delayNanos, TimeUnit.NANOSECONDS);
      }

      @Override
      public int compareTo(Delayed o) {
        return Long.compare(getDelay(TimeUnit.NANOSECONDS), o.getDelay(TimeUnit.NANOSECONDS));
      }

      @Override
      public boolean cancel(boolean interrupt) {
        return false;
      }

      @Override
      public boolean isCancelled() {
        return false;
      }

      @Override
      public boolean isDone() {
        return false;
      }

      @Override
      public Object get() {
        throw new UnsupportedOperationException("a queued test task");
      }

      @Override
      public Object get(long timeout, TimeUnit unit) {
        throw new UnsupportedOperationException("a queued test task");
      }
    }
  }

  @Test
  void theStoresOwnThreadCopiesTheLogThatTheWriterLeftBelowItsBound() throws Exception {
    Path db = dir.resolve("bg.db");
    try (SqliteMemoryStore store = new SqliteMemoryStore(db); Engram e = engram(store)) {
      write(e, 0, 40);
      assertThat(store.awaitCheckpointed(Duration.ofSeconds(20))).as("every commit copied by the store's thread")
          .isTrue();
      int[] wal = walIndex(db);
      assertThat(wal[0]).as("frames in the log, below the writer's own bound").isPositive()
          .isLessThan(SqliteMemoryStore.WAL_BOUND_FRAMES);
      assertThat(wal[1]).as("frames copied into the database file").isEqualTo(wal[0]);
      assertThat(store.checkpointRuns()).isPositive();
    }
  }

  /** The application's scheduler runs the checkpoints: a run after 32 commits and one 200 ms after the first. */
  @Test
  void checkpointsRunOnTheApplicationsSchedulerWhichTheStoreLeavesRunning() throws Exception {
    Path db = dir.resolve("app.db");
    ManualScheduler scheduler = new ManualScheduler();
    try {
      long threads = checkpointThreads();
      try (SqliteMemoryStore store = SqliteMemoryStore.builder(db).checkpointScheduler(scheduler).build();
          Engram e = engram(store)) {
        write(e, 0, 40);
        assertThat(scheduler.delays).containsExactly(Checkpointer.MAX_DELAY_MILLIS, 0L);
        assertThat(checkpointThreads()).as("no thread of the store's own").isEqualTo(threads);
        int[] before = walIndex(db);
        assertThat(before[1]).as("nothing copied before the scheduler ran a task").isLessThan(before[0]);

        scheduler.runAll();
        assertThat(store.checkpointRuns()).isEqualTo(1);
        assertThat(store.awaitCheckpointed(Duration.ZERO)).isTrue();
        int[] after = walIndex(db);
        assertThat(after[1]).as("frames copied into the database file").isEqualTo(after[0]).isEqualTo(before[0]);
      }
      assertThat(scheduler.isShutdown()).as("the application's scheduler is the application's").isFalse();
    } finally {
      scheduler.shutdownNow();
    }
  }

  @Test
  void turnedOffNothingIsScheduledAndTheLogWaitsForTheWritersOwnCheckpoint() throws Exception {
    Path db = dir.resolve("off.db");
    long threads = checkpointThreads();
    try (SqliteMemoryStore store = SqliteMemoryStore.builder(db).backgroundCheckpoint(false).build();
        Engram e = engram(store)) {
      // about 21 frames a write: 25 writes stay well below the 1,000 frames at which SQLite checkpoints
      write(e, 0, 25);
      // no checkpointer exists, so nothing can copy the log later: what is not copied now stays so
      assertThat(store.checkpointRuns()).isZero();
      assertThat(store.awaitCheckpointed(Duration.ZERO)).isFalse();
      assertThat(checkpointThreads()).isEqualTo(threads);
      int[] wal = walIndex(db);
      assertThat(wal[0]).as("frames in the log, below SQLite's default bound").isPositive().isLessThan(1_000);
      assertThat(wal[1]).as("frames copied into the database file").isLessThan(wal[0]);
    }
  }

  /**
   * Steady writes with the checkpoints keeping up (the scheduler's tasks run on the test's thread after
   * every 32 writes) keep the log at the frames of those writes, far below the writer's bound; every write
   * is there after reopening.
   */
  @Test
  void steadyWritesKeepTheLogBoundedAndEveryWriteIsThereAfterReopening() throws Exception {
    Path db = dir.resolve("steady.db");
    int writes = 2_500;
    ManualScheduler scheduler = new ManualScheduler();
    try (SqliteMemoryStore store = SqliteMemoryStore.builder(db).checkpointScheduler(scheduler).build();
        Engram e = engram(store)) {
      for (int i = 0; i < writes; i += Checkpointer.COMMITS) {
        write(e, i, Math.min(Checkpointer.COMMITS, writes - i));
        scheduler.runAll();
      }
      assertThat(store.checkpointRuns()).isGreaterThanOrEqualTo(writes / Checkpointer.COMMITS);
      // without any checkpoint the log would hold about twenty frames per write
      long frame = 24 + 4096;
      assertThat(Files.size(Path.of(db + "-wal"))).as("bytes of the write-ahead log")
          .isLessThan(32 + frame * 4L * 21 * Checkpointer.COMMITS);
    } finally {
      scheduler.shutdownNow();
    }
    try (SqliteMemoryStore store = new SqliteMemoryStore(db); Engram e = engram(store)) {
      assertThat(e.read(U1, "general", ReadOptions.limit(ReadOptions.MAX_LIMIT))).hasSize(ReadOptions.MAX_LIMIT);
      for (int i : new int[] {0, writes / 2, writes - 1}) {
        assertThat(e.search(U1, SearchRequest.builder("\"Checkpoint note " + i + " about\"").mode(SearchMode.FTS).build())
            .hits()).as("write %d", i).extracting(h -> h.entry().content())
            .contains("Checkpoint note " + i + " about the weekly planning.");
      }
    }
  }

  /** The store's own thread starts with the first commit and stops with the store. */
  @Test
  void closeStopsTheThread() {
    Path db = dir.resolve("close.db");
    long before = checkpointThreads();
    SqliteMemoryStore store = new SqliteMemoryStore(db);
    Engram e = engram(store);
    assertThat(checkpointThreads()).as("no thread before the first commit").isEqualTo(before);
    write(e, 0, 1);
    assertThat(checkpointThreads()).isEqualTo(before + 1);
    e.close();
    assertThat(checkpointThreads()).isEqualTo(before);
  }

  @Test
  void theSettingsAreGivenOnceAndASchedulerNeedsBackgroundCheckpoints() {
    SqliteMemoryStore.Builder b = SqliteMemoryStore.builder(dir.resolve("x.db")).backgroundCheckpoint(false);
    assertThatThrownBy(() -> b.backgroundCheckpoint(true)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("backgroundCheckpoint");
    ManualScheduler scheduler = new ManualScheduler();
    try {
      b.checkpointScheduler(scheduler);
      assertThatThrownBy(() -> b.checkpointScheduler(scheduler)).isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("checkpointScheduler");
      assertThatThrownBy(b::build).isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("checkpointScheduler").hasMessageContaining("backgroundCheckpoint is false");
      assertThat(Files.exists(dir.resolve("x.db"))).isFalse();
    } finally {
      scheduler.shutdownNow();
    }
  }

  /** A scheduler that refuses every task: the writes go on, nothing is copied in the background. */
  @Test
  void aRefusingSchedulerLeavesTheLogToTheWriter() throws Exception {
    Path db = dir.resolve("refused.db");
    AtomicInteger refused = new AtomicInteger();
    ScheduledThreadPoolExecutor refusing = new ScheduledThreadPoolExecutor(1) {
      @Override
      public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
        refused.incrementAndGet();
        throw new java.util.concurrent.RejectedExecutionException("shut down");
      }
    };
    try (SqliteMemoryStore store = SqliteMemoryStore.builder(db).checkpointScheduler(refusing).build();
        Engram e = engram(store)) {
      write(e, 0, 40);
      assertThat(refused).as("a run asked for after the first commit and after 32").hasValue(2);
      assertThat(store.checkpointRuns()).isZero();
      assertThat(e.read(U1, "general", ReadOptions.limit(100))).hasSize(40);
    } finally {
      refusing.shutdownNow();
    }
  }

  private static long checkpointThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.isAlive() && t.getName().equals(Checkpointer.THREAD_NAME)).count();
  }

  /**
   * SQLite lets one checkpoint run at a time and answers a second with SQLITE_BUSY: the writer's full
   * checkpoint after an erasure (the wipe) waits for a background checkpoint that is running, and is then
   * the only one. The background checkpoint here is held while it opens its connection; the events of both
   * are recorded in order.
   */
  @Test
  void theWipeAfterAnErasureWaitsForARunningBackgroundCheckpoint() throws Exception {
    Path db = dir.resolve("wipe.db");
    try (SqliteMemoryStore store = new SqliteMemoryStore(db); Engram e = engram(store)) {
      write(e, 0, 1); // the file exists, in WAL mode
    }
    java.util.concurrent.CountDownLatch entered = new java.util.concurrent.CountDownLatch(1);
    java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
    List<String> events = java.util.Collections.synchronizedList(new ArrayList<>());
    org.sqlite.SQLiteDataSource real = new org.sqlite.SQLiteDataSource();
    real.setUrl("jdbc:sqlite:" + db);
    javax.sql.DataSource held = (javax.sql.DataSource) java.lang.reflect.Proxy.newProxyInstance(
        getClass().getClassLoader(), new Class<?>[] {javax.sql.DataSource.class}, (proxy, method, args) -> {
          if (!method.getName().equals("getConnection")) {
            return method.invoke(real, args);
          }
          entered.countDown();
          release.await();
          events.add("background checkpoint");
          return real.getConnection();
        });
    ManualScheduler scheduler = new ManualScheduler();
    Checkpointer checkpointer = new Checkpointer(held, db.toString(), scheduler);
    try {
      for (int i = 0; i < Checkpointer.COMMITS; i++) {
        checkpointer.committed();
      }
      Thread background = new Thread(scheduler::runAll, "test-background-checkpoint");
      background.start();
      entered.await();
      Thread wipe = new Thread(() -> checkpointer.exclusively(() -> {
        events.add("wipe");
        return true;
      }), "test-wipe");
      wipe.start();
      while (wipe.getState() != Thread.State.WAITING && wipe.isAlive()) {
        Thread.onSpinWait();
      }
      assertThat(events).as("the wipe waits while a background checkpoint runs").isEmpty();
      release.countDown();
      background.join();
      wipe.join();
      assertThat(events).containsExactly("background checkpoint", "wipe");

      checkpointer.committed();
      assertThat(checkpointer.exclusively(() -> true)).isTrue();
      assertThat(checkpointer.awaitCopied(Duration.ZERO)).as("a wipe that emptied the log copied the commits that"
          + " waited").isTrue();
    } finally {
      release.countDown();
      checkpointer.close();
    }
  }
}
