/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.sqlite;

import dev.engram.test.HashingEmbedder;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.engram.Engram;
import dev.engram.ErrorCode;
import dev.engram.Grants;
import dev.engram.InvalidInputException;
import dev.engram.MemoryEntry;
import dev.engram.Revision;
import dev.engram.StoreException;
import dev.engram.WriteOptions;
import dev.engram.reasoner.DeterministicReasoner;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteDataSource;

/** What the SQLite store adds to the contract: durability, locking, settings, its own codecs. */
class SqliteMemoryStoreTest {
  private static final Grants U1 = Grants.of("app/user/u1");

  @TempDir Path dir;

  private static Engram engram(SqliteMemoryStore store) {
    return Engram.builder().store(store).reasoner(new DeterministicReasoner()).build();
  }

  @Test
  void sourcesByTimeRangeReadThroughTheEventTimeIndexAndKeepNanosecondBounds() throws Exception {
    Path db = dir.resolve("sources.db");
    Instant t0 = Instant.parse("2026-03-01T10:00:00Z");
    try (SqliteMemoryStore store = new SqliteMemoryStore(db); Engram e = engram(store)) {
      List<dev.engram.SourceRecord> turns = new ArrayList<>();
      for (int i = 0; i < 300; i++) {
        turns.add(dev.engram.SourceRecord.of("s" + (i % 7), "user", "turn " + i).at(t0.plusSeconds(i).plusNanos(i % 3))
            .id("t" + i));
      }
      e.captureAll(U1, turns);
      Instant from = t0.plusSeconds(100).plusNanos(2);
      Instant to = t0.plusSeconds(103).plusNanos(2);
      assertThat(e.sources(U1, dev.engram.SourceQuery.between(from, to))).extracting(dev.engram.CapturedSource::id)
          .as("t100 (+100 s 1 ns) is before from, t103 (+103 s 1 ns) before to").containsExactly("t101", "t102", "t103");
      assertThat(e.sources(U1, dev.engram.SourceQuery.builder().between(from, to).session("s4").build()))
          .extracting(dev.engram.CapturedSource::id).containsExactly("t102");
    }
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement st = c.createStatement()) {
      for (dev.engram.spi.SourceFilter f : List.of(
          new dev.engram.spi.SourceFilter(0, null, Instant.EPOCH, Instant.now(), 10),
          new dev.engram.spi.SourceFilter(0, null, Instant.EPOCH, null, 10),
          new dev.engram.spi.SourceFilter(0, "s1", null, Instant.now(), 10))) {
        StringBuilder plan = new StringBuilder();
        try (java.sql.ResultSet rs = st.executeQuery("EXPLAIN QUERY PLAN " + Queries.sourcesSql(f))) {
          while (rs.next()) {
            plan.append(rs.getString("detail")).append('\n');
          }
        }
        assertThat(plan.toString()).as("plan of %s", f).contains("USING INDEX sources_occurred (scope=?");
      }
    }
  }

  @Test
  void memorySurvivesReopeningInADirectoryWithSpacesAndAccents() {
    Path db = dir.resolve("my notes ü/memory.db");
    MemoryEntry written;
    try (Engram e = engram(new SqliteMemoryStore(db))) {
      written = e.write(U1, "Prefers window seats.", WriteOptions.builder().topicsHint("travel").build()).entry();
    }
    try (Engram e = engram(new SqliteMemoryStore(db))) {
      assertThat(e.read(U1, "travel")).containsExactly(written);
      assertThat(e.revision(U1, "app/user/u1")).isEqualTo(1);
    }
  }

  @Test
  void twoStoresOnOneFileInOneProcessSerializeTheirWriters() throws Exception {
    Path db = dir.resolve("two.db");
    try (SqliteMemoryStore first = new SqliteMemoryStore(db); SqliteMemoryStore second = new SqliteMemoryStore(db);
        Engram a = engram(first); Engram b = engram(second)) {
      ExecutorService pool = Executors.newFixedThreadPool(4);
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        Engram e = t % 2 == 0 ? a : b;
        int thread = t;
        done.add(pool.submit(() -> {
          for (int i = 0; i < 40; i++) {
            e.write(U1, "Thread " + thread + " note " + i, WriteOptions.builder().topicsHint("notes").build());
          }
        }));
      }
      for (Future<?> f : done) {
        f.get(120, TimeUnit.SECONDS);
      }
      pool.shutdown();
      List<Revision> revisions = first.revisions("app/user/u1", 0, 1000);
      assertThat(revisions).extracting(Revision::revision)
          .containsExactlyElementsOf(java.util.stream.LongStream.rangeClosed(1, 160).boxed().toList());
      assertThat(a.read(U1, List.of("notes"), dev.engram.ReadOptions.limit(1000))).hasSize(160);
    }
  }

  @Test
  void twoStoresOnOneFileNeverLeaveTwoActiveEntriesWithOneContent() throws Exception {
    Path db = dir.resolve("dedupe.db");
    List<String> pool = List.of("Shared fact one", "Shared fact two", "Shared fact three");
    try (SqliteMemoryStore first = new SqliteMemoryStore(db); SqliteMemoryStore second = new SqliteMemoryStore(db);
        Engram a = engram(first); Engram b = engram(second)) {
      ExecutorService threads = Executors.newFixedThreadPool(4);
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        Engram e = t % 2 == 0 ? a : b;
        java.util.Random random = new java.util.Random(17L * t + 3);
        done.add(threads.submit(() -> {
          for (int i = 0; i < 40; i++) {
            String content = pool.get(random.nextInt(pool.size()));
            try {
              List<MemoryEntry> all = e.list(U1, dev.engram.ListOptions.builder().includeRetired(true).build());
              MemoryEntry some = all.isEmpty() ? null : all.get(random.nextInt(all.size()));
              switch (random.nextInt(3)) {
                case 0 -> e.write(U1, content, WriteOptions.builder().build());
                case 1 -> {
                  if (some != null) {
                    e.correct(U1, some.entryId(), content);
                  }
                }
                default -> {
                  if (some != null && some.isActive()) {
                    e.retire(U1, some.citation(), "churn");
                  } else if (some != null) {
                    e.reactivate(U1, some.citation(), "churn");
                  }
                }
              }
            } catch (dev.engram.MemoryException lostTheRace) {
              // stale citations and dedupe refusals are the expected outcome of racing changes
            }
          }
        }));
      }
      for (Future<?> f : done) {
        f.get(120, TimeUnit.SECONDS);
      }
      threads.shutdown();
      List<MemoryEntry> active = a.list(U1);
      assertThat(active).extracting(MemoryEntry::contentHash).doesNotHaveDuplicates();
      assertThat(b.list(U1)).isEqualTo(active);
    }
  }

  @Test
  void aWriteLockHeldTooLongByAnotherConnectionIsATypedFailureNotSqliteBusy() throws Exception {
    Path db = dir.resolve("locked.db");
    try (SqliteMemoryStore store = SqliteMemoryStore.builder(db)
            .busyTimeout(Duration.ofMillis(50)).writeLockTimeout(Duration.ofMillis(300)).build();
        Engram e = engram(store)) {
      e.write(U1, "Before the lock.", WriteOptions.builder().build());
      try (Connection other = DriverManager.getConnection("jdbc:sqlite:" + db); Statement s = other.createStatement()) {
        s.execute("BEGIN IMMEDIATE");
        assertThatThrownBy(() -> e.write(U1, "While locked.", WriteOptions.builder().build()))
            .isInstanceOfSatisfying(StoreException.class, x -> assertThat(x.code()).isEqualTo(ErrorCode.STORE_UNAVAILABLE))
            .hasMessageContaining("locked").hasMessageContaining("300 ms");
        assertThat(e.read(U1, "general")).extracting(MemoryEntry::content).containsExactly("Before the lock.");
        s.execute("ROLLBACK");
      }
      e.write(U1, "After the lock.", WriteOptions.builder().build());
      assertThat(e.revision(U1, "app/user/u1")).isEqualTo(2);
    }
  }

  /**
   * Another connection holds the write lock; the write waits instead of failing. The lock is released only
   * once the writer's stack shows it was refused and is pausing before its next attempt
   * ({@code WriteLock.withBusyRetry} in {@code Thread.sleep}), so the wait is proven, not assumed.
   */
  @Test
  void aWriterWaitsForAShortLockInsteadOfFailing() throws Exception {
    Path db = dir.resolve("wait.db");
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try (SqliteMemoryStore store = SqliteMemoryStore.builder(db).busyTimeout(Duration.ofMillis(20)).build();
        Engram e = engram(store);
        Connection other = DriverManager.getConnection("jdbc:sqlite:" + db);
        Statement s = other.createStatement()) {
      s.execute("BEGIN IMMEDIATE");
      java.util.concurrent.atomic.AtomicReference<Thread> writer = new java.util.concurrent.atomic.AtomicReference<>();
      Future<?> write = pool.submit(() -> {
        writer.set(Thread.currentThread());
        return e.write(U1, "Written once the lock is free.", WriteOptions.builder().build());
      });
      long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
      while (!pausingBetweenAttempts(writer.get())) {
        assertThat(write.isDone()).as("the write finished while the lock was held").isFalse();
        assertThat(System.nanoTime()).as("the writer never retried the lock").isLessThan(deadline);
        java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
      }
      assertThat(e.revision(U1, "app/user/u1")).isZero();
      s.execute("ROLLBACK");
      write.get(20, TimeUnit.SECONDS);
      assertThat(e.revision(U1, "app/user/u1")).isEqualTo(1);
    } finally {
      pool.shutdownNow();
    }
  }

  /** Whether {@code t} is in the pause of {@code WriteLock.withBusyRetry} between two attempts at the lock. */
  private static boolean pausingBetweenAttempts(@Nullable Thread t) {
    if (t == null) {
      return false;
    }
    StackTraceElement[] stack = t.getStackTrace();
    boolean sleeping = false;
    for (StackTraceElement f : stack) {
      if (f.getClassName().equals(Thread.class.getName()) && f.getMethodName().startsWith("sleep")) {
        sleeping = true;
      } else if (f.getClassName().equals(WriteLock.class.getName()) && f.getMethodName().equals("withBusyRetry")) {
        return sleeping;
      } else if (!f.getClassName().startsWith("java.")) {
        sleeping = false;
      }
    }
    return false;
  }

  @Test
  void aCallersDataSourceGetsTheStoresSettingsAndStaysOpen() throws Exception {
    SQLiteDataSource sqlite = new SQLiteDataSource();
    sqlite.setUrl("jdbc:sqlite:" + dir.resolve("ds.db"));
    HikariConfig config = new HikariConfig();
    config.setDataSource(sqlite);
    config.setMaximumPoolSize(1);
    try (HikariDataSource pool = new HikariDataSource(config)) {
      try (SqliteMemoryStore store = SqliteMemoryStore.builder(pool)
              .synchronous(SqliteMemoryStore.Synchronous.FULL).busyTimeout(Duration.ofMillis(1234)).build();
          Engram e = engram(store)) {
        e.write(U1, "Kept with a full sync.", WriteOptions.builder().build());
      }
      assertThat(pool.isClosed()).isFalse();
      try (Connection c = pool.getConnection(); Statement s = c.createStatement()) {
        assertThat(OpeningTest.single(s, "PRAGMA synchronous")).isEqualTo("2");
        assertThat(OpeningTest.single(s, "PRAGMA busy_timeout")).isEqualTo("1234");
        assertThat(OpeningTest.single(s, "PRAGMA foreign_keys")).isEqualTo("1");
        assertThat(OpeningTest.single(s, "SELECT count(*) FROM versions")).isEqualTo("1");
      }
    }
  }

  @Test
  void aTransactionThatThrowsLeavesNothingAndNestedOnesAreSavepoints() {
    try (SqliteMemoryStore store = new SqliteMemoryStore(dir.resolve("tx.db"))) {
      Instant now = Instant.parse("2025-01-02T03:04:05.123456Z");
      assertThatThrownBy(() -> store.inTransaction("s", tx -> {
        tx.appendRevision(new Revision("s", 1, List.of(), now));
        throw new IllegalArgumentException("boom");
      })).isInstanceOf(IllegalArgumentException.class).hasMessage("boom");
      assertThat(store.headRevision("s")).isZero();

      store.inTransaction("s", tx -> {
        tx.appendRevision(new Revision("s", 1, List.of(), now));
        assertThatThrownBy(() -> store.inTransaction("t", inner -> {
          inner.appendRevision(new Revision("t", 1, List.of(), now));
          throw new IllegalStateException("inner");
        })).hasMessage("inner");
        store.inTransaction("t", inner -> {
          inner.appendRevision(new Revision("t", 1, List.of(), now));
          return null;
        });
        return null;
      });
      assertThat(store.headRevision("s")).isEqualTo(1);
      assertThat(store.headRevision("t")).isEqualTo(1);
      assertThat(store.revisions("t", 0, 10)).singleElement().extracting(Revision::at).isEqualTo(now);
    }
  }

  @Test
  void aTransactionCannotBeUsedAfterItEnds() {
    try (SqliteMemoryStore store = new SqliteMemoryStore(dir.resolve("late.db"))) {
      dev.engram.spi.StoreTransaction[] kept = new dev.engram.spi.StoreTransaction[1];
      store.inTransaction("s", tx -> kept[0] = tx);
      assertThatThrownBy(() -> kept[0].headRevision("s")).isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("closed");
    }
  }

  @Test
  void aClosedStoreSaysSoAndClosingTwiceIsFine() {
    SqliteMemoryStore store = new SqliteMemoryStore(dir.resolve("closed.db"));
    store.close();
    store.close();
    assertThatThrownBy(() -> store.headRevision("s")).isInstanceOfSatisfying(StoreException.class,
        e -> assertThat(e.code()).isEqualTo(ErrorCode.STORE_CLOSED)).hasMessageContaining("closed");
  }

  @Test
  void builderSettingsAreCheckedAndGivenOnce() {
    SqliteMemoryStore.Builder b = SqliteMemoryStore.builder(dir.resolve("b.db"));
    b.readPoolSize(2);
    assertThatThrownBy(() -> b.readPoolSize(3)).isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("readPoolSize");
    assertThatThrownBy(() -> b.busyTimeout(Duration.ofHours(1))).isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("busyTimeout");
    assertThatThrownBy(() -> b.writeLockTimeout(Duration.ZERO)).isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("writeLockTimeout");
    assertThatThrownBy(() -> SqliteMemoryStore.builder((Path) null)).isInstanceOf(NullPointerException.class);
    b.build().close();
    assertThatThrownBy(b::build).isInstanceOf(IllegalStateException.class);
  }

  @Test
  void versionsComeBackExactlyWhateverTheirText() {
    try (SqliteMemoryStore store = new SqliteMemoryStore(dir.resolve("exact.db"))) {
      Instant at = Instant.parse("2025-06-07T08:09:10.000000001Z");
      List<MemoryEntry> written = List.of(
          new MemoryEntry("e1", "v1", 1, null, "s", "unit\u001fseparator and \u001e record", List.of("a\u001fb"),
              dev.engram.EntryType.DECISION, 0, "", List.of("", "x\\y", "q\"uote"), "", "", List.of("ev"),
              "h1", dev.engram.EntryStatus.ACTIVE, null, at.minusSeconds(3600), at, at, 1),
          new MemoryEntry("e2", "v2", 3, "v1", "s", "plain", List.of("general"), dev.engram.EntryType.FACT, 7,
              "When asked", List.of(), "a/b", "agent", List.of(), "h2", dev.engram.EntryStatus.SUPERSEDED, "v3",
              null, Instant.MIN, Instant.MAX, 2));
      store.inTransaction("s", tx -> {
        written.forEach(tx::insertVersion);
        return null;
      });
      assertThat(store.version("v1")).contains(written.get(0));
      assertThat(store.version("v2")).contains(written.get(1));
      assertThat(store.activeByTopic(List.of("s"), "a\u001fb", 5)).containsExactly(written.get(0));
      assertThat(store.versionsIn(List.of("s"), java.util.EnumSet.allOf(dev.engram.EntryStatus.class)))
          .containsExactlyInAnyOrderElementsOf(written);
    }
  }

  @Test
  void codecRoundTripsListsAndInstantsExactly() {
    for (List<String> list : List.of(List.<String>of(), List.of("a"), List.of("general", "core"),
        List.of("quote \" inside", "back\\slash"), List.of("ünï", "日本"), List.of("", "x"))) {
      assertThat(Codec.strings(Codec.strings(list))).isEqualTo(list);
    }
    java.util.Random random = new java.util.Random(7);
    for (int i = 0; i < 2000; i++) {
      Instant at = Instant.ofEpochSecond(random.nextLong() % 100_000_000_000L, random.nextInt(1_000_000_000));
      if (i % 3 == 0) {
        at = Instant.ofEpochSecond(at.getEpochSecond(), at.getNano() / 1000 * 1000);
      }
      if (i % 5 == 0) {
        at = Instant.ofEpochSecond(at.getEpochSecond());
      }
      assertThat(Codec.instant(Codec.instant(at))).isEqualTo(at);
    }
    assertThat(Codec.instant(Codec.instant(Instant.MAX))).isEqualTo(Instant.MAX);
    assertThat(Codec.instant(Codec.instant(Instant.MIN))).isEqualTo(Instant.MIN);
  }

  /**
   * With the one version lacking vectors, these many more make a scope lack more than a search completes
   * itself (the engine completes up to 16).
   */
  private static final int MORE_THAN_A_SEARCH_REPAIRS = 16;

  /**
   * Two engines over two store instances on the same SQLite file: vectors one stores by reindex (no
   * revision moves) are seen by the other's next search through the store's vector epoch.
   */
  @Test
  void aReindexInOneEngineIsSeenByAnotherOnTheSameSqliteFile() {
    dev.engram.test.HashingEmbedder writerEmbedder = new dev.engram.test.HashingEmbedder();
    Grants u1 = Grants.of("app/user/u1");
    try (SqliteMemoryStore a = new SqliteMemoryStore(dir.resolve("shared.db"));
        SqliteMemoryStore b = new SqliteMemoryStore(dir.resolve("shared.db"));
        Engram writer = Engram.builder().store(a).reasoner(new DeterministicReasoner()).embedder(writerEmbedder).build();
        Engram reader = Engram.builder().store(b).reasoner(new DeterministicReasoner())
            .embedder(new dev.engram.test.HashingEmbedder()).backgroundVectorCompletion(false).build()) {
      writer.write(u1, "The team meets every Tuesday morning for planning.");
      writerEmbedder.failing(true);
      assertThat(writer.write(u1, "Quarterly taxes are filed by the accountant.").vectorsMissing()).isTrue();
      // more versions without vectors than a search completes itself, so only a reindex completes them
      for (int i = 0; i < MORE_THAN_A_SEARCH_REPAIRS; i++) {
        assertThat(writer.write(u1, "Receipt number " + i + " is kept in the blue folder.").vectorsMissing()).isTrue();
      }
      writerEmbedder.failing(false);
      dev.engram.SearchResult before = reader.search(u1, dev.engram.SearchRequest.of("taxes accountant"));
      assertThat(before.used()).isEqualTo(dev.engram.SearchMode.FTS);
      assertThat(before.fallbackReason()).contains("incomplete");

      assertThat(writer.operator().reindex(u1)).isEqualTo(1 + MORE_THAN_A_SEARCH_REPAIRS);
      dev.engram.SearchResult after = reader.search(u1, dev.engram.SearchRequest.of("taxes accountant"));
      assertThat(after.used()).isEqualTo(dev.engram.SearchMode.HYBRID);
      assertThat(after.hits().get(0).matchedBy()).contains(dev.engram.SearchChannel.VECTOR);
    }
  }
}
