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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The store's thread copies the write-ahead log into the database file, so the writer's commits do not,
 * and the log stays bounded under steady writes. What the thread copied is read from the wal-index
 * (the {@code -shm} file): its header holds the frames in the log ({@code mxFrame}, offset 16) and its
 * checkpoint record the frames copied into the file ({@code nBackfill}, offset 96), in the machine's
 * byte order.
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

  @Test
  void theStoreThreadCopiesTheLogThatTheWriterLeftBelowItsBound() throws Exception {
    Path db = dir.resolve("bg.db");
    try (SqliteMemoryStore store = new SqliteMemoryStore(db);
        Engram e = Engram.builder().store(store).reasoner(new DeterministicReasoner()).build()) {
      write(e, 0, 40);
      long deadline = System.nanoTime() + 10_000_000_000L;
      int[] wal = walIndex(db);
      while ((wal[0] == 0 || wal[1] < wal[0]) && System.nanoTime() < deadline) {
        Thread.sleep(20);
        wal = walIndex(db);
      }
      assertThat(wal[0]).as("frames in the log, below the writer's own bound").isPositive()
          .isLessThan(SqliteMemoryStore.WAL_BOUND_FRAMES);
      assertThat(wal[1]).as("frames copied into the database file").isEqualTo(wal[0]);
    }
  }

  @Test
  void turnedOffTheLogWaitsForTheWritersOwnCheckpoint() throws Exception {
    Path db = dir.resolve("off.db");
    try (SqliteMemoryStore store = SqliteMemoryStore.builder(db).backgroundCheckpoint(false).build();
        Engram e = Engram.builder().store(store).reasoner(new DeterministicReasoner()).build()) {
      // about 21 frames a write: 25 writes stay well below the 1,000 frames at which SQLite checkpoints
      write(e, 0, 25);
      Thread.sleep(2 * Checkpointer.MAX_DELAY_MILLIS + 300);
      int[] wal = walIndex(db);
      assertThat(wal[0]).as("frames in the log, below SQLite's default bound").isPositive().isLessThan(1_000);
      assertThat(wal[1]).as("frames copied into the database file").isLessThan(wal[0]);
    }
  }

  /** A passive checkpoint copies only what was committed when it began; the writer's bound restarts the log. */
  @Test
  void steadyWritesKeepTheLogBoundedAndEveryWriteIsThereAfterReopening() throws Exception {
    Path db = dir.resolve("steady.db");
    int writes = 2_500;
    try (SqliteMemoryStore store = new SqliteMemoryStore(db);
        Engram e = Engram.builder().store(store).reasoner(new DeterministicReasoner()).build()) {
      write(e, 0, writes);
      // without any checkpoint the log would hold about twenty frames per write
      long frame = 24 + 4096;
      assertThat(Files.size(Path.of(db + "-wal"))).as("bytes of the write-ahead log")
          .isLessThan(32 + frame * (SqliteMemoryStore.WAL_BOUND_FRAMES + 2_000L));
    }
    try (SqliteMemoryStore store = new SqliteMemoryStore(db);
        Engram e = Engram.builder().store(store).reasoner(new DeterministicReasoner()).build()) {
      assertThat(e.read(U1, "general", ReadOptions.limit(ReadOptions.MAX_LIMIT))).hasSize(ReadOptions.MAX_LIMIT);
      for (int i : new int[] {0, writes / 2, writes - 1}) {
        assertThat(e.search(U1, SearchRequest.builder("\"Checkpoint note " + i + " about\"").mode(SearchMode.FTS).build())
            .hits()).as("write %d", i).extracting(h -> h.entry().content())
            .contains("Checkpoint note " + i + " about the weekly planning.");
      }
    }
  }

  @Test
  void closeStopsTheThread() {
    Path db = dir.resolve("close.db");
    long before = checkpointThreads();
    SqliteMemoryStore store = new SqliteMemoryStore(db);
    assertThat(checkpointThreads()).isEqualTo(before + 1);
    store.close();
    assertThat(checkpointThreads()).isEqualTo(before);
    try (SqliteMemoryStore off = SqliteMemoryStore.builder(dir.resolve("off.db")).backgroundCheckpoint(false).build()) {
      assertThat(checkpointThreads()).isEqualTo(before);
    }
  }

  @Test
  void theSettingIsGivenOnce() {
    SqliteMemoryStore.Builder b = SqliteMemoryStore.builder(dir.resolve("x.db")).backgroundCheckpoint(false);
    assertThatThrownBy(() -> b.backgroundCheckpoint(true)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("backgroundCheckpoint");
  }

  private static long checkpointThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.isAlive() && t.getName().equals("engram-sqlite-checkpoint")).count();
  }
}
