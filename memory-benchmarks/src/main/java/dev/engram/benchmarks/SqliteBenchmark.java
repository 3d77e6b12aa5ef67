/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.benchmarks;

import dev.engram.Change;
import dev.engram.ChangeKind;
import dev.engram.Engram;
import dev.engram.EntryStatus;
import dev.engram.EntryType;
import dev.engram.EventKind;
import dev.engram.Grants;
import dev.engram.MemoryEntry;
import dev.engram.MemoryEvent;
import dev.engram.ReadOptions;
import dev.engram.Revision;
import dev.engram.WriteOptions;
import dev.engram.WriteRequest;
import dev.engram.WriteResult;
import dev.engram.BatchWriteResult;
import dev.engram.reasoner.DeterministicReasoner;
import dev.engram.store.sqlite.SqliteMemoryStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import org.sqlite.SQLiteConfig;
import org.sqlite.SQLiteDataSource;

/**
 * Throughput and latency of the SQLite store, in one run:
 *
 * <ol>
 *   <li>Engram writes per second through {@link Engram#write} (deterministic reasoner, every write its
 *       own transaction), against a raw JDBC single-row insert (autocommit) into a table with the columns
 *       and indexes of the store's {@code versions} table, on the same driver and settings, and the ratio;
 *   <li>{@link Engram#read} latency (p50, p99) with 10,000 and then 1,000,000 entries spread over
 *       10,000 scopes. The datasets are loaded through the store's transaction API, one transaction per
 *       scope, with a version, an event and a revision per entry, as writes would leave them.
 * </ol>
 *
 * <p>{@code java -jar memory-benchmarks.jar SqliteBenchmark [--dir DIR] [--writes 20000] [--warmup 3000]
 * [--scopes 10000] [--large 1000000] [--reads 20000] [--part all|writes|reads|pages] [--rounds 5]
 * [--page-types false] [--background-checkpoint true]}; {@code --part pages} counts the WAL frames a single
 * write commits, per table and index; {@code --background-checkpoint false} opens the measured stores
 * without the store thread that checkpoints the write-ahead log.
 *
 * <p>One program, one store's throughput table: its length is the phases of that table (loading, writes,
 * reads, page counts), each printed as its rows.
 */
public final class SqliteBenchmark {
  private SqliteBenchmark() {}

  private static final class Options {
    Path dir;
    int writes = 20_000;
    int warmup = 3_000;
    int scopes = 10_000;
    int large = 1_000_000;
    int reads = 20_000;
    int batch = 1_000;
    int batches = 20;
    int threads = 8;
    int rounds = 5;
    boolean pageTypes;
    boolean backgroundCheckpoint = true;
    String part = "all";

    static Options parse(String[] args) throws IOException {
      Options o = new Options();
      for (int i = 0; i < args.length; i++) {
        String value = i + 1 < args.length ? args[i + 1] : null;
        if (value == null) {
          throw new IllegalArgumentException("option " + args[i] + " needs a value");
        }
        switch (args[i]) {
          case "--dir" -> o.dir = Path.of(value);
          case "--writes" -> o.writes = Integer.parseInt(value);
          case "--warmup" -> o.warmup = Integer.parseInt(value);
          case "--scopes" -> o.scopes = Integer.parseInt(value);
          case "--large" -> o.large = Integer.parseInt(value);
          case "--reads" -> o.reads = Integer.parseInt(value);
          case "--batch" -> o.batch = Integer.parseInt(value);
          case "--batches" -> o.batches = Integer.parseInt(value);
          case "--threads" -> o.threads = Integer.parseInt(value);
          case "--part" -> o.part = value;
          case "--rounds" -> o.rounds = Integer.parseInt(value);
          case "--page-types" -> o.pageTypes = Boolean.parseBoolean(value);
          case "--background-checkpoint" -> o.backgroundCheckpoint = Boolean.parseBoolean(value);
          default -> throw new IllegalArgumentException("unknown option " + args[i]);
        }
        i++;
      }
      if (o.dir == null) {
        o.dir = Files.createTempDirectory("engram-sqlite-bench");
      }
      Files.createDirectories(o.dir);
      return o;
    }
  }

  public static void main(String[] args) throws Exception {
    Options o = Options.parse(args);
    System.out.println("# SQLite store benchmark");
    System.out.println("java " + System.getProperty("java.version") + " (" + System.getProperty("java.vm.name")
        + "), " + Runtime.getRuntime().availableProcessors() + " processors, max heap "
        + Runtime.getRuntime().maxMemory() / (1 << 20) + " MiB, files in " + o.dir);

    if (o.part.equals("pages")) {
      pages(o);
      return;
    }
    if (!o.part.equals("reads")) {
      double[] single = {engramWrites(o), rawInserts(o)};
      System.out.printf(Locale.ROOT, "writes: Engram %.0f/s, raw JDBC insert %.0f/s, ratio %.2f%n", single[0],
          single[1], single[0] / single[1]);
      double[] batched = {engramBatches(o), rawBatches(o)};
      System.out.printf(Locale.ROOT, "writeAll of %d: Engram %.0f entries/s, raw batched insert %.0f/s, ratio %.2f%n",
          o.batch, batched[0], batched[1], batched[0] / batched[1]);
      double[] threaded = {engramThreads(o), rawThreads(o)};
      System.out.printf(Locale.ROOT, "%d threads: Engram %.0f writes/s, raw %.0f/s, ratio %.2f%n", o.threads,
          threaded[0], threaded[1], threaded[0] / threaded[1]);
      System.out.println();
      System.out.println("| measure | Engram | raw JDBC | ratio |");
      System.out.println("|---|---|---|---|");
      System.out.printf(Locale.ROOT, "| single writes/s, 1 thread, one transaction each | %,.0f | %,.0f | %.2f |%n",
          single[0], single[1], single[0] / single[1]);
      System.out.printf(Locale.ROOT, "| `writeAll` of %,d entries, entries/s | %,.0f | %,.0f | %.2f |%n",
          o.batch, batched[0], batched[1], batched[0] / batched[1]);
      System.out.printf(Locale.ROOT, "| single writes/s, %d threads | %,.0f | %,.0f | %.2f |%n",
          o.threads, threaded[0], threaded[1], threaded[0] / threaded[1]);
      if (o.part.equals("writes")) {
        return;
      }
    }
    Path db = o.dir.resolve("reads.db");
    deleteDatabase(db);
    long seedStart = System.nanoTime();
    seed(db, o.scopes, 0, 1);
    System.out.printf(Locale.ROOT, "loaded %,d entries in %.1f s%n", o.scopes, secondsSince(seedStart));
    double[] small = reads(db, o);
    int perScope = Math.max(1, o.large / o.scopes);
    seedStart = System.nanoTime();
    seed(db, o.scopes, 1, perScope);
    System.out.printf(Locale.ROOT, "loaded %,d more entries in %.1f s (file %,d MiB)%n",
        (long) o.scopes * (perScope - 1), secondsSince(seedStart), Files.size(db) >> 20);
    double[] big = reads(db, o);

    System.out.println();
    System.out.println("| measure | result |");
    System.out.println("|---|---|");
    long total = (long) o.scopes * perScope;
    System.out.printf(Locale.ROOT, "| read(topic) p50 / p99, %,d entries in %,d scopes (1 entry returned) | %.3f ms / %.3f ms |%n",
        o.scopes, o.scopes, small[0], small[1]);
    System.out.printf(Locale.ROOT, "| read(topic) p50 / p99, %,d entries in %,d scopes (%d entries returned) | %.3f ms / %.3f ms |%n",
        total, o.scopes, Math.min(perScope, ReadOptions.DEFAULT_LIMIT), big[0], big[1]);
    System.out.printf(Locale.ROOT, "| read(topic, limit 1) p50 / p99, %,d entries | %.3f ms / %.3f ms |%n",
        o.scopes, small[2], small[3]);
    System.out.printf(Locale.ROOT, "| read(topic, limit 1) p50 / p99, %,d entries | %.3f ms / %.3f ms |%n",
        total, big[2], big[3]);
  }

  // ---- writes

  private static double engramWrites(Options o) throws IOException {
    Path db = o.dir.resolve("writes.db");
    deleteDatabase(db);
    try (Engram engram = Engram.builder()
        .store(store(o, db))
        .reasoner(new DeterministicReasoner())
        .build()) {
      List<Grants> users = new ArrayList<>();
      for (int u = 0; u < 100; u++) {
        users.add(Grants.of("app/user/u" + u));
      }
      WriteOptions options = WriteOptions.builder().topicsHint("general").build();
      for (int i = 0; i < o.warmup; i++) {
        engram.write(users.get(i % users.size()), "Warm-up note " + i + " about the weekly planning.", options);
      }
      long start = System.nanoTime();
      long cpu = cpuNanos();
      for (int i = 0; i < o.writes; i++) {
        engram.write(users.get(i % users.size()), "Note " + i + " about the weekly planning and its owner.", options);
      }
      double rate = o.writes / secondsSince(start);
      cpu("Engram single write", cpu, o.writes);
      return rate;
    }
  }

  /**
   * Which b-trees a single write changes: after a warm-up, {@code --rounds} times: the WAL is emptied
   * ({@code wal_checkpoint(TRUNCATE)}), {@code --writes} writes (at most 30, so that no automatic checkpoint
   * restarts the WAL) are made, and the page number of each WAL frame is mapped to its table or index through
   * {@code dbstat} (and, with {@code --page-types true}, to its kind of page: leaf, internal, overflow). The
   * figures are means over all rounds. The raw single-row insert gets the same count.
   */
  private static void pages(Options o) throws Exception {
    int n = Math.min(30, o.writes);
    Path db = o.dir.resolve("pages.db");
    deleteDatabase(db);
    FrameCount engramFrames = new FrameCount();
    // no background checkpoint: it could restart the log in the middle of a counted round
    SqliteMemoryStore store = SqliteMemoryStore.builder(db).backgroundCheckpoint(false).build();
    try (Engram engram = Engram.builder().store(store).reasoner(new DeterministicReasoner())
        .build()) {
      WriteOptions options = WriteOptions.builder().topicsHint("general").build();
      for (int i = 0; i < o.warmup; i++) {
        engram.write(Grants.of("app/user/u" + i % 100), "Warm-up note " + i + " about the weekly planning.", options);
      }
      int w = 0;
      for (int round = 0; round < o.rounds; round++) {
        truncateWal(db);
        for (int i = 0; i < n; i++, w++) {
          engram.write(Grants.of("app/user/u" + w % 100), "Note " + w + " about the weekly planning and its owner.",
              options);
        }
        engramFrames.add(db, n, o.pageTypes);
      }
    }
    engramFrames.print("Engram.write");
    Path raw = o.dir.resolve("raw-pages.db");
    FrameCount rawFrames = new FrameCount();
    try (Connection c = rawTable(raw)) {
      try (PreparedStatement insert = c.prepareStatement(RAW_INSERT)) {
        for (int i = 0; i < o.warmup; i++) {
          insert(insert, i, "Warm-up note " + i + " about the weekly planning.");
        }
        int w = 0;
        for (int round = 0; round < o.rounds; round++) {
          truncateWal(raw);
          for (int i = 0; i < n; i++, w++) {
            insert(insert, o.warmup + w, "Note " + w + " about the weekly planning and its owner.");
          }
          rawFrames.add(raw, n, o.pageTypes);
        }
      }
    }
    rawFrames.print("raw single-row insert");
  }

  private static void truncateWal(Path db) throws SQLException {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement st = c.createStatement()) {
      st.execute("PRAGMA wal_checkpoint(TRUNCATE)");
    }
  }

  /** WAL frames per b-tree, summed over rounds. */
  private static final class FrameCount {
    final Map<String, Integer> byTree = new TreeMap<>();
    int frames;
    int commits;
    int writes;
    int pageSize;

    /** Adds the frames of the WAL of {@code db}, which holds {@code writes} writes. */
    void add(Path db, int writes, boolean pageTypes) throws Exception {
      byte[] wal = Files.readAllBytes(Path.of(db + "-wal"));
      java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(wal);
      pageSize = b.getInt(8);
      Map<Integer, Integer> perPage = new HashMap<>();
      for (int off = 32; off + 24 + pageSize <= wal.length; off += 24 + pageSize) {
        perPage.merge(b.getInt(off), 1, Integer::sum);
        frames++;
        if (b.getInt(off + 4) != 0) {
          commits++;
        }
      }
      Map<Integer, String> owner = new HashMap<>();
      try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement st = c.createStatement();
          ResultSet rs = st.executeQuery("SELECT name, pageno, pagetype FROM dbstat")) {
        while (rs.next()) {
          owner.put(rs.getInt(2), rs.getString(1) + (pageTypes ? " (" + rs.getString(3) + ")" : ""));
        }
      }
      perPage.forEach((page, count) -> byTree.merge(owner.getOrDefault(page, "(free or header)"), count, Integer::sum));
      this.writes += writes;
    }

    void print(String what) {
      System.out.printf(Locale.ROOT, "%s: %.1f WAL frames (pages of %d bytes) per write, over %d writes in %d commits%n",
          what, frames / (double) writes, pageSize, writes, commits);
      byTree.entrySet().stream().sorted((x, y) -> y.getValue() - x.getValue()).forEach(e ->
          System.out.printf(Locale.ROOT, "| %s | %.1f |%n", e.getKey(), e.getValue() / (double) writes));
    }
  }

  private static double rawInserts(Options o) throws SQLException, IOException {
    try (Connection c = rawTable(o.dir.resolve("raw.db"))) {
      try (PreparedStatement insert = c.prepareStatement(RAW_INSERT)) {
        for (int i = 0; i < o.warmup; i++) {
          insert(insert, i, "Warm-up note " + i + " about the weekly planning.");
        }
        long start = System.nanoTime();
        long cpu = cpuNanos();
        for (int i = 0; i < o.writes; i++) {
          insert(insert, o.warmup + i, "Note " + i + " about the weekly planning and its owner.");
        }
        double rate = o.writes / secondsSince(start);
        cpu("raw single-row insert", cpu, o.writes);
        return rate;
      }
    }
  }

  /** The store the Engram measures write to, with the checkpoint setting of the run. */
  private static SqliteMemoryStore store(Options o, Path db) {
    return SqliteMemoryStore.builder(db).backgroundCheckpoint(o.backgroundCheckpoint).build();
  }

  /** {@link Engram#writeAll} of {@code batch} new entries into one scope per call, scopes round-robin. */
  private static double engramBatches(Options o) throws IOException {
    Path db = o.dir.resolve("batches.db");
    deleteDatabase(db);
    try (Engram engram = Engram.builder()
        .store(store(o, db))
        .reasoner(new DeterministicReasoner())
        .build()) {
      WriteOptions options = WriteOptions.builder().topicsHint("general").build();
      int warmup = Math.max(1, o.batches / 5);
      long start = 0;
      long cpu = 0;
      for (int b = 0; b < warmup + o.batches; b++) {
        if (b == warmup) {
          start = System.nanoTime();
          cpu = cpuNanos();
        }
        List<WriteRequest> requests = new ArrayList<>(o.batch);
        for (int i = 0; i < o.batch; i++) {
          requests.add(WriteRequest.of("Batch " + b + " note " + i + " about the weekly planning and its owner.", options));
        }
        BatchWriteResult r = engram.writeAll(Grants.of("app/user/u" + (b % 10)), requests);
        if (r.count(WriteResult.Outcome.APPENDED) != o.batch) {
          throw new IllegalStateException("batch " + b + " appended " + r.count(WriteResult.Outcome.APPENDED));
        }
      }
      double rate = (double) o.batches * o.batch / secondsSince(start);
      cpu("Engram writeAll", cpu, o.batches * o.batch);
      return rate;
    }
  }

  /** The same rows inserted raw, {@code batch} rows per transaction (one prepared statement, JDBC batch). */
  private static double rawBatches(Options o) throws SQLException, IOException {
    try (Connection c = rawTable(o.dir.resolve("raw-batches.db"))) {
      c.setAutoCommit(false);
      try (PreparedStatement insert = c.prepareStatement(RAW_INSERT)) {
        int warmup = Math.max(1, o.batches / 5);
        long start = 0;
        long cpu = 0;
        int n = 0;
        for (int b = 0; b < warmup + o.batches; b++) {
          if (b == warmup) {
            start = System.nanoTime();
            cpu = cpuNanos();
          }
          for (int i = 0; i < o.batch; i++) {
            bind(insert, n++, "Batch " + b + " note " + i + " about the weekly planning and its owner.");
            insert.addBatch();
          }
          insert.executeBatch();
          c.commit();
        }
        double rate = (double) o.batches * o.batch / secondsSince(start);
        cpu("raw batched insert", cpu, o.batches * o.batch);
        return rate;
      }
    }
  }

  /** {@link Engram#write} from {@code threads} threads on one engine, each thread round-robin over its own 10 scopes. */
  private static double engramThreads(Options o) throws Exception {
    Path db = o.dir.resolve("threads.db");
    deleteDatabase(db);
    try (Engram engram = Engram.builder()
        .store(store(o, db))
        .reasoner(new DeterministicReasoner())
        .build()) {
      WriteOptions options = WriteOptions.builder().topicsHint("general").build();
      return threaded(o, (t, i) -> engram.write(Grants.of("app/user/t" + t + "s" + (i % 10)),
          "Thread " + t + " note " + i + " about the weekly planning and its owner.", options));
    }
  }

  /** Raw single-row autocommit inserts from {@code threads} threads, one connection each (SQLite's lock serializes them). */
  private static double rawThreads(Options o) throws Exception {
    Path db = o.dir.resolve("raw-threads.db");
    rawTable(db).close();
    List<Connection> connections = new ArrayList<>();
    List<PreparedStatement> statements = new ArrayList<>();
    try {
      for (int t = 0; t < o.threads; t++) {
        Connection c = rawSource(db).getConnection();
        connections.add(c);
        statements.add(c.prepareStatement(RAW_INSERT));
      }
      return threaded(o, (t, i) -> {
        try {
          bind(statements.get(t), t * 10_000_000 + i, "Thread " + t + " note " + i + " about the weekly planning.");
          statements.get(t).executeUpdate();
        } catch (SQLException e) {
          throw new IllegalStateException(e);
        }
      });
    } finally {
      for (Connection c : connections) {
        c.close();
      }
    }
  }

  @FunctionalInterface
  interface ThreadedWrite {
    void write(int thread, int i);
  }

  /** Runs {@code writes} writes spread over {@code threads} threads after a warm-up; writes per second. */
  static double threaded(Options o, ThreadedWrite write) throws Exception {
    int perThread = Math.max(1, o.writes / o.threads);
    int warm = Math.max(1, o.warmup / o.threads);
    java.util.concurrent.ExecutorService pool = java.util.concurrent.Executors.newFixedThreadPool(o.threads);
    try {
      java.util.concurrent.CyclicBarrier barrier = new java.util.concurrent.CyclicBarrier(o.threads + 1);
      List<java.util.concurrent.Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < o.threads; t++) {
        int thread = t;
        futures.add(pool.submit(() -> {
          for (int i = 0; i < warm; i++) {
            write.write(thread, i);
          }
          barrier.await();
          for (int i = warm; i < warm + perThread; i++) {
            write.write(thread, i);
          }
          return null;
        }));
      }
      barrier.await();
      long start = System.nanoTime();
      for (java.util.concurrent.Future<?> f : futures) {
        f.get();
      }
      return (double) perThread * o.threads / secondsSince(start);
    } finally {
      pool.shutdownNow();
    }
  }

  private static final String RAW_INSERT = "INSERT INTO notes (version_id, entry_id, version, scope,"
      + " content, topics, type, priority, content_hash, status, created_at, updated_at)"
      + " VALUES (?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

  private static SQLiteDataSource rawSource(Path db) {
    SQLiteConfig config = new SQLiteConfig();
    config.setJournalMode(SQLiteConfig.JournalMode.WAL);
    config.setSynchronous(SQLiteConfig.SynchronousMode.NORMAL);
    config.setBusyTimeout(30_000);
    config.enforceForeignKeys(true);
    config.setGetGeneratedKeys(false);
    SQLiteDataSource source = new SQLiteDataSource(config);
    source.setUrl("jdbc:sqlite:" + db);
    return source;
  }

  /** A fresh database with the raw {@code versions}-shaped table; the connection is open. */
  private static Connection rawTable(Path db) throws SQLException, IOException {
    deleteDatabase(db);
    Connection c = rawSource(db).getConnection();
    try (Statement s = c.createStatement()) {
      s.execute(RAW_TABLE);
      s.execute(RAW_SCOPE_INDEX);
      s.execute(RAW_HASH_INDEX);
    }
    return c;
  }

  private static final String RAW_TABLE = "CREATE TABLE notes (seq INTEGER PRIMARY KEY, version_id TEXT NOT NULL UNIQUE,"
      + " entry_id TEXT NOT NULL, version INTEGER NOT NULL, scope TEXT NOT NULL, content TEXT NOT NULL,"
      + " topics TEXT NOT NULL, type TEXT NOT NULL, priority INTEGER NOT NULL, content_hash TEXT NOT NULL,"
      + " status TEXT NOT NULL, created_at TEXT NOT NULL, updated_at TEXT NOT NULL,"
      + " UNIQUE (entry_id, version))";
  private static final String RAW_SCOPE_INDEX = "CREATE INDEX notes_scope ON notes (scope, status, version_id)";
  private static final String RAW_HASH_INDEX =
      "CREATE INDEX notes_hash ON notes (scope, content_hash, version_id) WHERE status = 'ACTIVE'";

  private static void bind(PreparedStatement insert, int i, String content) throws SQLException {
    String now = Instant.now().toString();
    insert.setString(1, UUID.randomUUID().toString());
    insert.setString(2, UUID.randomUUID().toString());
    insert.setString(3, "app/user/u" + (i % 100));
    insert.setString(4, content);
    insert.setString(5, "[\"general\"]");
    insert.setString(6, "fact");
    insert.setInt(7, 2);
    insert.setString(8, Integer.toHexString(content.hashCode()));
    insert.setString(9, "ACTIVE");
    insert.setString(10, now);
    insert.setString(11, now);
  }

  private static void insert(PreparedStatement insert, int i, String content) throws SQLException {
    String now = Instant.now().toString();
    insert.setString(1, UUID.randomUUID().toString());
    insert.setString(2, UUID.randomUUID().toString());
    insert.setString(3, "app/user/u" + (i % 100));
    insert.setString(4, content);
    insert.setString(5, "[\"general\"]");
    insert.setString(6, "fact");
    insert.setInt(7, 2);
    insert.setString(8, Integer.toHexString(content.hashCode()));
    insert.setString(9, "ACTIVE");
    insert.setString(10, now);
    insert.setString(11, now);
    insert.executeUpdate();
  }

  // ---- reads

  /**
   * p50 and p99 of {@link Engram#read} in ms over random scopes after a warm-up: first with the default
   * limit (20 entries per topic), then with limit 1, so datasets of different sizes are also compared
   * at the same result size.
   */
  private static double[] reads(Path db, Options o) {
    try (Engram engram = Engram.builder()
        .store(store(o, db))
        .reasoner(new DeterministicReasoner())
        .build()) {
      List<Grants> grants = new ArrayList<>(o.scopes);
      for (int s = 0; s < o.scopes; s++) {
        grants.add(Grants.of(scope(s)));
      }
      double[] out = new double[4];
      int i = 0;
      for (ReadOptions options : List.of(ReadOptions.defaults(), ReadOptions.limit(1))) {
        Random random = new Random(42);
        List<String> topics = List.of("general");
        long returned = 0;
        for (int w = 0; w < Math.min(o.reads, 5_000); w++) {
          engram.read(grants.get(random.nextInt(o.scopes)), topics, options);
        }
        long[] nanos = new long[o.reads];
        for (int r = 0; r < o.reads; r++) {
          Grants g = grants.get(random.nextInt(o.scopes));
          long t0 = System.nanoTime();
          returned += engram.read(g, topics, options).size();
          nanos[r] = System.nanoTime() - t0;
        }
        Arrays.sort(nanos);
        out[i++] = nanos[nanos.length / 2] / 1e6;
        out[i++] = nanos[(int) (nanos.length * 0.99)] / 1e6;
        System.out.printf(Locale.ROOT, "read(topic) limit %d: p50 %.3f ms, p99 %.3f ms (%.1f entries per read)%n",
            options.limit(), out[i - 2], out[i - 1], returned / (double) o.reads);
      }
      return out;
    }
  }

  private static String scope(int s) {
    return "app/user/u" + s;
  }

  /**
   * Adds entries {@code from..to-1} to each of {@code scopes} scopes with SQL inside SQLite, a few
   * hundred scopes per transaction: per entry a version, its CREATE event (with the snapshot as
   * {@code EntryJson} writes it) and a revision, and the topics marked written, as the engine's write
   * leaves them. The store's triggers maintain the topic index and the counts and queue the versions
   * for the full-text index, which is written before each commit as the store does.
   */
  private static void seed(Path db, int scopes, int from, int to) throws SQLException {
    new SqliteMemoryStore(db).close();
    SQLiteConfig config = new SQLiteConfig();
    config.setBusyTimeout(5000);
    config.setSynchronous(SQLiteConfig.SynchronousMode.NORMAL);
    SQLiteDataSource source = new SQLiteDataSource(config);
    source.setUrl("jdbc:sqlite:" + db);
    String now = Instant.now().toString();
    String entries = "WITH RECURSIVE s(n) AS (SELECT ?1 UNION ALL SELECT n + 1 FROM s WHERE n + 1 < ?2),"
        + " k(n) AS (SELECT ?3 UNION ALL SELECT n + 1 FROM k WHERE n + 1 < ?4),"
        + " e AS (SELECT 'app/user/u' || s.n AS scope, k.n AS k, k.n + 1 AS rev,"
        + " printf('%08x-0000-7000-8000-%012x', k.n, s.n) AS version_id,"
        + " printf('%08x-0000-7000-9000-%012x', k.n, s.n) AS entry_id,"
        + " json_array('general', (SELECT value FROM json_each('[\"work\",\"home\",\"travel\",\"health\"]')"
        + " WHERE key = k.n % 4)) AS topics,"
        + " 'Entry ' || k.n || ' of app/user/u' || s.n || ': the user mentioned item ' || k.n"
        + " || ' while planning the week.' AS content FROM s, k)";
    String versions = entries + " INSERT INTO versions (version_id, entry_id, version, previous_version_id, scope,"
        + " content, topics, type, priority, disclosure, glossary, path, source, evidence, content_hash, status,"
        + " superseded_by, created_at, updated_at, created_in_revision)"
        + " SELECT version_id, entry_id, 1, NULL, scope, content, topics, 'fact', 2, NULL, '[]', NULL, 'bench', '[]',"
        + " lower(hex(randomblob(32))), 'ACTIVE', NULL, ?5, ?5, rev FROM e ORDER BY scope, k";
    String events = entries + " INSERT INTO events (event_id, scope, entry_id, kind, before, after, actor, reason,"
        + " revision, at)"
        + " SELECT printf('%08x-0000-7000-a000-%012x', k, substr(scope, 11)), scope, entry_id, 'CREATE', NULL,"
        + " json_object('entryId', entry_id, 'versionId', version_id, 'version', 1, 'previousVersionId', NULL,"
        + " 'scope', scope, 'content', content, 'topics', json(topics), 'type', 'fact', 'priority', 2,"
        + " 'disclosure', NULL, 'glossary', json('[]'), 'path', NULL, 'source', 'bench', 'evidence', json('[]'),"
        + " 'contentHash', (SELECT content_hash FROM versions v WHERE v.version_id = e.version_id),"
        + " 'status', 'ACTIVE', 'supersededBy', NULL, 'createdAt', ?5, 'updatedAt', ?5, 'createdInRevision', rev),"
        + " 'bench', NULL, rev, ?5 FROM e";
    String revisions = entries + " INSERT INTO revisions (scope, revision, changes, at)"
        + " SELECT scope, rev, json_array(json_object('kind', 'APPEND', 'entryId', entry_id, 'versionId', version_id)),"
        + " ?5 FROM e";
    String topics = "WITH RECURSIVE s(n) AS (SELECT ?1 UNION ALL SELECT n + 1 FROM s WHERE n + 1 < ?2),"
        + " t(topic) AS (VALUES ('general'), ('work'), ('home'), ('travel'), ('health'))"
        + " INSERT INTO topics (scope, topic, last_write_revision, last_updated_at)"
        + " SELECT 'app/user/u' || s.n, t.topic, ?4, ?5 FROM s, t WHERE true"
        + " ON CONFLICT (scope, topic) DO UPDATE SET last_write_revision = excluded.last_write_revision,"
        + " last_updated_at = excluded.last_updated_at";
    int batch = Math.max(1, 50_000 / Math.max(1, to - from));
    try (Connection c = source.getConnection(); Statement st = c.createStatement()) {
      SqliteMemoryStore.registerSqlFunctions(c); // the store's triggers compute the full-text terms
      for (int first = 0; first < scopes; first += batch) {
        int last = Math.min(scopes, first + batch);
        st.execute("BEGIN IMMEDIATE");
        long seqBefore;
        try (ResultSet rs = st.executeQuery("SELECT coalesce(max(seq), 0) FROM versions")) {
          rs.next();
          seqBefore = rs.getLong(1);
        }
        for (String sql : List.of(versions, events, revisions, topics)) {
          try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setInt(1, first);
            ps.setInt(2, last);
            ps.setInt(3, from);
            ps.setInt(4, to);
            ps.setString(5, now);
            ps.executeUpdate();
          }
        }
        // what the store does before each commit: index the versions the transaction made active
        try (PreparedStatement ps = c.prepareStatement(INDEX_NEW)) {
          ps.setLong(1, seqBefore);
          ps.executeUpdate();
        }
        st.execute("COMMIT");
      }
    }
  }

  /** Indexes the active versions inserted after a seq, with the terms the store indexes. */
  private static final String INDEX_NEW =
      "INSERT INTO versions_fts (rowid, content, glossary, disclosure, topics, scope_key)"
          + " SELECT v.seq, engram_fts_terms(substr(v.content, 1, 262144)),"
          + " engram_fts_terms((SELECT group_concat(value, ' ') FROM json_each(v.glossary))),"
          + " engram_fts_terms(v.disclosure),"
          + " engram_fts_terms((SELECT group_concat(value, ' ') FROM json_each(v.topics) WHERE value <> 'general')),"
          + " 'k' || lower(hex(v.scope)) FROM versions v WHERE v.seq > ? AND v.status = 'ACTIVE' ORDER BY v.seq";

  /** CPU time of the current thread (Java and SQLite's native code run on it), in nanoseconds. */
  static long cpuNanos() {
    return java.lang.management.ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime();
  }

  /**
   * Prints the CPU time per item since {@code startCpu}: on a shared machine it moves less than the
   * wall-clock rate, which depends on how much of the CPUs the run got.
   */
  static void cpu(String what, long startCpu, long items) {
    System.out.printf(Locale.ROOT, "%s: %.1f us of CPU per entry%n", what, (cpuNanos() - startCpu) / 1e3 / items);
  }

  private static double secondsSince(long startNanos) {
    return (System.nanoTime() - startNanos) / 1e9;
  }

  private static void deleteDatabase(Path db) throws IOException {
    for (String suffix : List.of("", "-wal", "-shm", "-journal")) {
      Files.deleteIfExists(db.resolveSibling(db.getFileName() + suffix));
    }
  }
}
