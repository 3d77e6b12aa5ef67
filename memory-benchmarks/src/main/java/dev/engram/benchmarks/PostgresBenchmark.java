/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.benchmarks;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
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
import dev.engram.store.postgres.PostgresMemoryStore;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * Throughput and latency of the PostgreSQL store, in one run:
 *
 * <ol>
 *   <li>Engram writes per second through {@link Engram#write} (deterministic reasoner, every write its
 *       own transaction) on a pool of one connection and with four threads on a pool of four, each
 *       against raw JDBC single-row inserts (autocommit) into a table shaped like {@code versions}, with
 *       the same connection count;
 *   <li>{@link Engram#read} latency (p50, p99) with 10,000 and then 1,000,000 entries spread over
 *       10,000 scopes, next to the same rows fetched with one hand-written JDBC query on one connection
 *       (the newest 20 active versions of the topic in the three visible scopes). The datasets are loaded
 *       through the store's transaction API, one transaction per scope, with a version, an event and a
 *       revision per entry, as writes would leave them.
 * </ol>
 *
 * <p>The server is the one named by {@code --url} or {@code ENGRAM_PG_URL}, or else an embedded
 * PostgreSQL 14 (Maven Central binaries) in a temporary directory.
 *
 * <p>{@code java -jar memory-benchmarks.jar PostgresBenchmark [--url JDBC_URL] [--writes 10000]
 * [--warmup 2000] [--threads 4] [--scopes 10000] [--large 1000000] [--reads 20000]}
 *
 * <p>One program, one store's throughput table: its length is the phases of that table (loading, writes,
 * reads), each printed as its rows.
 */
public final class PostgresBenchmark {
  private PostgresBenchmark() {}

  private static final class Options {
    @Nullable String url = System.getenv("ENGRAM_PG_URL");
    int writes = 10_000;
    int warmup = 2_000;
    int threads = 4;
    int scopes = 10_000;
    int large = 1_000_000;
    int reads = 20_000;
    int batch = 1_000;
    int batches = 10;
    String part = "all";

    static Options parse(String[] args) {
      Options o = new Options();
      for (int i = 0; i < args.length; i++) {
        String value = i + 1 < args.length ? args[i + 1] : null;
        if (value == null) {
          throw new IllegalArgumentException("option " + args[i] + " needs a value");
        }
        switch (args[i]) {
          case "--url" -> o.url = value;
          case "--writes" -> o.writes = Integer.parseInt(value);
          case "--warmup" -> o.warmup = Integer.parseInt(value);
          case "--threads" -> o.threads = Integer.parseInt(value);
          case "--scopes" -> o.scopes = Integer.parseInt(value);
          case "--large" -> o.large = Integer.parseInt(value);
          case "--reads" -> o.reads = Integer.parseInt(value);
          case "--batch" -> o.batch = Integer.parseInt(value);
          case "--batches" -> o.batches = Integer.parseInt(value);
          case "--part" -> o.part = value;
          default -> throw new IllegalArgumentException("unknown option " + args[i]);
        }
        i++;
      }
      return o;
    }
  }

  public static void main(String[] args) throws Exception {
    Options o = Options.parse(args);
    EmbeddedPostgres embedded = null;
    String url = o.url;
    if (url == null || url.isBlank()) {
      embedded = EmbeddedPostgres.builder().start();
      url = embedded.getJdbcUrl("postgres", "postgres");
    }
    try {
      run(o, url, embedded != null);
    } finally {
      if (embedded != null) {
        embedded.close();
      }
    }
  }

  private static void run(Options o, String url, boolean embedded) throws Exception {
    System.out.println("# PostgreSQL store benchmark");
    System.out.println("java " + System.getProperty("java.version") + " (" + System.getProperty("java.vm.name")
        + "), " + Runtime.getRuntime().availableProcessors() + " processors, max heap "
        + Runtime.getRuntime().maxMemory() / (1 << 20) + " MiB, server: "
        + (embedded ? "embedded PostgreSQL" : "external") + " " + serverVersion(url));

    double engramOne = engramWrites(o, url, 1);
    double storeOne = storeWrites(o, url, 1);
    double rawOne = rawInserts(o, url, 1);
    System.out.printf(Locale.ROOT, "writes, 1 connection: Engram %.0f/s, store %.0f/s, raw JDBC insert %.0f/s%n",
        engramOne, storeOne, rawOne);
    double engramN = engramWrites(o, url, o.threads);
    double storeN = storeWrites(o, url, o.threads);
    double rawN = rawInserts(o, url, o.threads);
    System.out.printf(Locale.ROOT, "writes, %d threads: Engram %.0f/s, store %.0f/s, raw JDBC insert %.0f/s%n",
        o.threads, engramN, storeN, rawN);
    double engramBatch = engramBatches(o, url);
    double rawBatch = rawBatches(o, url);
    System.out.printf(Locale.ROOT, "writeAll of %d: Engram %.0f entries/s, raw batched insert %.0f/s%n",
        o.batch, engramBatch, rawBatch);
    if (o.part.equals("writes")) {
      double[] alternating = alternatingWrites(o, url);
      double[] alternatingBatches = alternatingBatches(o, url);
      System.out.println();
      System.out.println("| measure | Engram | raw JDBC | ratio |");
      System.out.println("|---|---|---|---|");
      System.out.printf(Locale.ROOT, "| Engram.write/s, 1 connection (one transaction per write) | %,.0f | %,.0f | %.2f |%n",
          engramOne, rawOne, engramOne / rawOne);
      System.out.printf(Locale.ROOT, "| Engram.write/s, %d threads on %d connections | %,.0f | %,.0f | %.2f |%n",
          o.threads, o.threads, engramN, rawN, engramN / rawN);
      System.out.printf(Locale.ROOT, "| `writeAll` of %,d entries, entries/s, 1 connection | %,.0f | %,.0f | %.2f |%n",
          o.batch, engramBatch, rawBatch, engramBatch / rawBatch);
      System.out.printf(Locale.ROOT, "| store write transactions/s, 1 connection | %,.0f | %,.0f | %.2f |%n",
          storeOne, rawOne, storeOne / rawOne);
      System.out.printf(Locale.ROOT, "| store write transactions/s, %d threads on %d connections | %,.0f | %,.0f | %.2f |%n",
          o.threads, o.threads, storeN, rawN, storeN / rawN);
      System.out.printf(Locale.ROOT, "| Engram.write/s, 1 connection, alternating with raw in %d rounds | %,.0f | %,.0f | %.2f |%n",
          ROUNDS, alternating[0], alternating[1], alternating[0] / alternating[1]);
      System.out.printf(Locale.ROOT, "| `writeAll` of %,d entries, entries/s, alternating with raw batch by batch | %,.0f | %,.0f | %.2f |%n",
          o.batch, alternatingBatches[0], alternatingBatches[1], alternatingBatches[0] / alternatingBatches[1]);
      // the inverse of the median latencies, so the ratio reads like the throughput ratios above
      System.out.printf(Locale.ROOT, "| Engram.write, 1 connection, alternating: median latency µs (raw / Engram) | %,.0f | %,.0f | %.2f |%n",
          alternating[2] / 1e3, alternating[3] / 1e3, alternating[3] / alternating[2]);
      return;
    }

    String schema = "bench_reads_" + System.currentTimeMillis();
    long seedStart = System.nanoTime();
    seed(url, schema, o.scopes, 1, 0, o.threads);
    System.out.printf(Locale.ROOT, "loaded %,d entries in %.1f s%n", o.scopes, secondsSince(seedStart));
    double[][] small = reads(url, schema, o);
    int perScope = Math.max(1, o.large / o.scopes);
    seedStart = System.nanoTime();
    seed(url, schema, o.scopes, perScope - 1, 1, o.threads);
    System.out.printf(Locale.ROOT, "loaded %,d more entries in %.1f s%n", (long) o.scopes * (perScope - 1),
        secondsSince(seedStart));
    analyze(url, schema);
    double[][] big = reads(url, schema, o);

    System.out.println();
    System.out.println("| measure | Engram | raw JDBC | ratio |");
    System.out.println("|---|---|---|---|");
    System.out.printf(Locale.ROOT, "| Engram.write/s, 1 connection (one transaction per write) | %,.0f | %,.0f | %.2f |%n",
        engramOne, rawOne, engramOne / rawOne);
    System.out.printf(Locale.ROOT, "| Engram.write/s, %d threads on %d connections | %,.0f | %,.0f | %.2f |%n",
        o.threads, o.threads, engramN, rawN, engramN / rawN);
    System.out.printf(Locale.ROOT, "| store write transactions/s, 1 connection | %,.0f | %,.0f | %.2f |%n",
        storeOne, rawOne, storeOne / rawOne);
    System.out.printf(Locale.ROOT, "| store write transactions/s, %d threads on %d connections | %,.0f | %,.0f | %.2f |%n",
        o.threads, o.threads, storeN, rawN, storeN / rawN);
    System.out.printf(Locale.ROOT, "| read(topic) p50 / p99, %,d entries in %,d scopes | %.3f / %.3f ms | %.3f / %.3f ms | |%n",
        o.scopes, o.scopes, small[0][0], small[0][1], small[1][0], small[1][1]);
    System.out.printf(Locale.ROOT, "| read(topic) p50 / p99, %,d entries in %,d scopes | %.3f / %.3f ms | %.3f / %.3f ms | |%n",
        (long) o.scopes * perScope, o.scopes, big[0][0], big[0][1], big[1][0], big[1][1]);
  }

  // ---- writes

  private static PostgresMemoryStore store(String url, String schema, int connections) {
    return PostgresMemoryStore.builder().jdbcUrl(url).schema(schema).maximumPoolSize(connections).build();
  }

  /** Engram writes per second with {@code threads} writers, each on its own 25 user scopes. */
  private static double engramWrites(Options o, String url, int threads) throws Exception {
    String schema = "bench_writes_" + threads + "_" + System.currentTimeMillis();
    try (Engram engram = Engram.builder()
        .store(store(url, schema, threads))
        .reasoner(new DeterministicReasoner())
        .build()) {
      WriteOptions options = WriteOptions.builder().topicsHint("general").build();
      parallel(threads, o.warmup, (t, i) -> engram.write(Grants.of("app/user/t" + t + "u" + (i % 25)),
          "Warm-up note " + i + " of writer " + t + " about the weekly planning.", options));
      long start = System.nanoTime();
      parallel(threads, o.writes, (t, i) -> engram.write(Grants.of("app/user/t" + t + "u" + (i % 25)),
          "Note " + i + " of writer " + t + " about the weekly planning and its owner.", options));
      return o.writes / secondsSince(start);
    }
  }

  /**
   * Store write transactions per second: the transaction of an appending {@link Engram#write} (head
   * lock, version, revision, event, topics) without the engine's reads and reasoner around it.
   */
  private static double storeWrites(Options o, String url, int threads) throws Exception {
    String schema = "bench_store_" + threads + "_" + System.currentTimeMillis();
    Instant now = Instant.now();
    try (PostgresMemoryStore store = store(url, schema, threads)) {
      MessageDigest[] digests = new MessageDigest[threads];
      for (int t = 0; t < threads; t++) {
        digests[t] = sha256();
      }
      Step write = (t, i) -> {
        String scope = "app/user/t" + t + "u" + (i % 25);
        String content = "Note " + i + " of writer " + t + " about the weekly planning and its owner.";
        String hash = HexFormat.of().formatHex(digests[t].digest(content.getBytes(StandardCharsets.UTF_8)));
        store.inTransaction(scope, tx -> {
          long rev = tx.headRevision(scope) + 1;
          MemoryEntry e = new MemoryEntry(id(), id(), 1, null, scope, content, List.of("general"), EntryType.FACT, 2,
              null, List.of(), null, "bench", List.of(), hash, EntryStatus.ACTIVE, null, null, now, now, rev);
          tx.insertVersion(e);
          tx.appendRevision(new Revision(scope, rev, List.of(new Change(ChangeKind.APPEND, e.entryId(),
              e.versionId())), now));
          tx.appendEvent(new MemoryEvent(id(), scope, e.entryId(), EventKind.CREATE, null, e, "bench", null, rev, now, null));
          tx.markTopicsWritten(scope, e.topics(), rev, now);
          return null;
        });
      };
      parallel(threads, o.warmup, write);
      long start = System.nanoTime();
      parallel(threads, o.writes, (t, i) -> write.run(t, o.warmup + i));
      return o.writes / secondsSince(start);
    }
  }

  /** Raw JDBC single-row inserts per second, autocommit, one connection per thread. */
  private static double rawInserts(Options o, String url, int threads) throws Exception {
    String table = "bench_raw_" + threads + "_" + System.currentTimeMillis();
    try (HikariDataSource pool = pool(url, threads)) {
      try (Connection c = pool.getConnection()) {
        createRawTable(c, table);
      }
      String sql = rawInsert(table);
      Connection[] connections = new Connection[threads];
      for (int t = 0; t < threads; t++) {
        connections[t] = pool.getConnection();
      }
      Insert insert = (t, i, content) -> {
        Connection c = connections[t];
        try (PreparedStatement ps = c.prepareStatement(sql)) {
          bindRaw(c, ps, "app/user/t" + t + "u" + (i % 25), content);
          ps.executeUpdate();
        }
      };
      try {
        parallel(threads, o.warmup, (t, i) -> insert.run(t, i, "Warm-up note " + i + " of writer " + t + "."));
        long start = System.nanoTime();
        parallel(threads, o.writes, (t, i) -> insert.run(t, i, "Note " + i + " of writer " + t + " about planning."));
        return o.writes / secondsSince(start);
      } finally {
        for (Connection c : connections) {
          c.close();
        }
      }
    }
  }

  /** Rounds of {@link #alternatingWrites}. */
  private static final int ROUNDS = 20;

  private static void createRawTable(Connection c, String table) throws SQLException {
    try (Statement s = c.createStatement()) {
      s.execute("CREATE TABLE " + table + " (note_id text COLLATE \"C\" PRIMARY KEY, scope text COLLATE \"C\""
          + " NOT NULL, content text NOT NULL, topics text[] NOT NULL, type text NOT NULL, priority integer NOT NULL,"
          + " content_hash text NOT NULL, status text NOT NULL, created_at text NOT NULL, updated_at text NOT NULL)");
      s.execute("CREATE INDEX " + table + "_scope ON " + table + " (scope, status, note_id)");
    }
  }

  private static String rawInsert(String table) {
    return "INSERT INTO " + table + " (note_id, scope, content, topics, type, priority, content_hash, status,"
        + " created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
  }

  /** Binds one row of the raw table, as every raw baseline writes it. */
  private static void bindRaw(Connection c, PreparedStatement ps, String scope, String content) throws SQLException {
    String now = Instant.now().toString();
    ps.setString(1, UUID.randomUUID().toString());
    ps.setString(2, scope);
    ps.setString(3, content);
    ps.setArray(4, c.createArrayOf("text", new Object[] {"general"}));
    ps.setString(5, "fact");
    ps.setInt(6, 2);
    ps.setString(7, Integer.toHexString(content.hashCode()));
    ps.setString(8, "ACTIVE");
    ps.setString(9, now);
    ps.setString(10, now);
  }

  /**
   * {@link Engram#write} and the raw single-row insert on one connection each, measured in
   * {@value #ROUNDS} alternating rounds of {@code writes / ROUNDS} operations, so both see the same
   * load of a shared machine. Returns operations per second, Engram's first, then the median nanoseconds of one
   * operation, Engram's first.
   */
  private static double[] alternatingWrites(Options o, String url) throws Exception {
    String schema = "bench_alt_" + System.currentTimeMillis();
    String table = "bench_alt_raw_" + System.currentTimeMillis();
    try (Engram engram = Engram.builder().store(store(url, schema, 1)).reasoner(new DeterministicReasoner()).build();
        HikariDataSource pool = pool(url, 1); Connection c = pool.getConnection()) {
      createRawTable(c, table);
      WriteOptions options = WriteOptions.builder().topicsHint("general").build();
      String insert = rawInsert(table);
      int chunk = Math.max(1, o.writes / ROUNDS);
      long engramNanos = 0;
      long rawNanos = 0;
      long[] engramEach = new long[chunk * ROUNDS];
      long[] rawEach = new long[chunk * ROUNDS];
      int n = 0;
      int measured = 0;
      for (int round = -1; round < ROUNDS; round++) {
        int count = round < 0 ? o.warmup : chunk;
        long t0 = System.nanoTime();
        for (int i = 0; i < count; i++) {
          long s0 = System.nanoTime();
          engram.write(Grants.of("app/user/a" + (n + i) % 25), "Alternating note " + (n + i)
              + " about the weekly planning and its owner.", options);
          if (round >= 0) {
            engramEach[measured + i] = System.nanoTime() - s0;
          }
        }
        long t1 = System.nanoTime();
        for (int i = 0; i < count; i++) {
          long s0 = System.nanoTime();
          try (PreparedStatement ps = c.prepareStatement(insert)) {
            bindRaw(c, ps, "app/user/a" + (n + i) % 25, "Alternating note " + (n + i) + " about planning.");
            ps.executeUpdate();
          }
          if (round >= 0) {
            rawEach[measured + i] = System.nanoTime() - s0;
          }
        }
        long t2 = System.nanoTime();
        if (round >= 0) {
          engramNanos += t1 - t0;
          rawNanos += t2 - t1;
          measured += count;
        }
        n += count;
      }
      double total = (double) chunk * ROUNDS;
      java.util.Arrays.sort(engramEach);
      java.util.Arrays.sort(rawEach);
      return new double[] {total / (engramNanos / 1e9), total / (rawNanos / 1e9), engramEach[engramEach.length / 2],
          rawEach[rawEach.length / 2]};
    }
  }

  /**
   * {@link Engram#writeAll} of {@code batch} entries and the raw batched insert of as many rows, one
   * after the other batch by batch on one connection each. Returns entries per second, Engram's first.
   */
  private static double[] alternatingBatches(Options o, String url) throws Exception {
    String schema = "bench_alt_batches_" + System.currentTimeMillis();
    String table = "bench_alt_raw_batches_" + System.currentTimeMillis();
    try (Engram engram = Engram.builder().store(store(url, schema, 1)).reasoner(new DeterministicReasoner()).build();
        HikariDataSource pool = pool(url, 1); Connection c = pool.getConnection()) {
      createRawTable(c, table);
      WriteOptions options = WriteOptions.builder().topicsHint("general").build();
      int warmup = Math.max(1, o.batches / 5);
      long engramNanos = 0;
      long rawNanos = 0;
      c.setAutoCommit(false);
      try (PreparedStatement ps = c.prepareStatement(rawInsert(table))) {
        for (int b = 0; b < warmup + o.batches; b++) {
          List<WriteRequest> requests = new ArrayList<>(o.batch);
          for (int i = 0; i < o.batch; i++) {
            requests.add(WriteRequest.of("Batch " + b + " note " + i + " about the weekly planning and its owner.",
                options));
          }
          long t0 = System.nanoTime();
          BatchWriteResult r = engram.writeAll(Grants.of("app/user/u" + (b % 10)), requests);
          long t1 = System.nanoTime();
          if (r.count(WriteResult.Outcome.APPENDED) != o.batch) {
            throw new IllegalStateException("batch " + b + " appended " + r.count(WriteResult.Outcome.APPENDED));
          }
          for (int i = 0; i < o.batch; i++) {
            bindRaw(c, ps, "app/user/u" + (b % 10), "Batch " + b + " note " + i + " about the weekly planning and its owner.");
            ps.addBatch();
          }
          ps.executeBatch();
          c.commit();
          long t2 = System.nanoTime();
          if (b >= warmup) {
            engramNanos += t1 - t0;
            rawNanos += t2 - t1;
          }
        }
      } finally {
        c.setAutoCommit(true);
      }
      double total = (double) o.batches * o.batch;
      return new double[] {total / (engramNanos / 1e9), total / (rawNanos / 1e9)};
    }
  }

  /** {@link Engram#writeAll} of {@code batch} new entries into one scope per call, on one connection. */
  private static double engramBatches(Options o, String url) {
    String schema = "bench_batches_" + System.currentTimeMillis();
    try (Engram engram = Engram.builder()
        .store(store(url, schema, 1))
        .reasoner(new DeterministicReasoner())
        .build()) {
      WriteOptions options = WriteOptions.builder().topicsHint("general").build();
      int warmup = Math.max(1, o.batches / 5);
      long start = 0;
      for (int b = 0; b < warmup + o.batches; b++) {
        if (b == warmup) {
          start = System.nanoTime();
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
      return (double) o.batches * o.batch / secondsSince(start);
    }
  }

  /** The raw table of {@link #rawInserts}, {@code batch} rows per transaction (one JDBC batch), one connection. */
  private static double rawBatches(Options o, String url) throws SQLException {
    String table = "bench_raw_batches_" + System.currentTimeMillis();
    try (HikariDataSource pool = pool(url, 1); Connection c = pool.getConnection()) {
      createRawTable(c, table);
      c.setAutoCommit(false);
      try (PreparedStatement ps = c.prepareStatement(rawInsert(table))) {
        int warmup = Math.max(1, o.batches / 5);
        long start = 0;
        for (int b = 0; b < warmup + o.batches; b++) {
          if (b == warmup) {
            start = System.nanoTime();
          }
          for (int i = 0; i < o.batch; i++) {
            bindRaw(c, ps, "app/user/u" + (b % 10), "Batch " + b + " note " + i + " about the weekly planning and its owner.");
            ps.addBatch();
          }
          ps.executeBatch();
          c.commit();
        }
        return (double) o.batches * o.batch / secondsSince(start);
      } finally {
        c.setAutoCommit(true);
      }
    }
  }

  @FunctionalInterface
  private interface Insert {
    void run(int thread, int i, String content) throws SQLException;
  }

  @FunctionalInterface
  private interface Step {
    void run(int thread, int i) throws Exception;
  }

  /** Runs {@code total} steps split over {@code threads} threads and waits for all of them. */
  private static void parallel(int threads, int total, Step step) throws Exception {
    if (threads == 1) {
      for (int i = 0; i < total; i++) {
        step.run(0, i);
      }
      return;
    }
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> futures = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        int share = total / threads + (t < total % threads ? 1 : 0);
        futures.add(pool.submit(() -> {
          for (int i = 0; i < share; i++) {
            step.run(thread, i);
          }
          return null;
        }));
      }
      for (Future<?> f : futures) {
        f.get();
      }
    } finally {
      pool.shutdownNow();
    }
  }

  // ---- reads

  /** p50 and p99 in ms of {@link Engram#read} ([0]) and of the raw JDBC query for the same rows ([1]). */
  private static double[][] reads(String url, String schema, Options o) throws SQLException {
    double[] engramLatency;
    try (Engram engram = Engram.builder()
        .store(store(url, schema, 2))
        .reasoner(new DeterministicReasoner())
        .build()) {
      Random random = new Random(42);
      List<String> topics = List.of("general");
      long[] returned = new long[1];
      engramLatency = measure(o.reads, () -> {
        Grants g = Grants.of(scope(random.nextInt(o.scopes)));
        returned[0] += engram.read(g, topics, ReadOptions.defaults()).size();
      });
      System.out.printf(Locale.ROOT, "read(topic): p50 %.3f ms, p99 %.3f ms (%.1f entries per read)%n",
          engramLatency[0], engramLatency[1], returned[0] / (double) (o.reads + Math.min(o.reads, 5_000)));
    }
    double[] rawLatency;
    try (HikariDataSource pool = pool(url, 1); Connection c = pool.getConnection();
        PreparedStatement ps = c.prepareStatement("SELECT v.* FROM " + schema + ".engram_versions v"
            + " WHERE v.scope = ANY (?::text[]) AND v.status = 'ACTIVE' AND 'general' = ANY (v.topics)"
            + " ORDER BY v.version_id DESC LIMIT " + ReadOptions.DEFAULT_LIMIT)) {
      Random random = new Random(42);
      rawLatency = measure(o.reads, () -> {
        String scope = scope(random.nextInt(o.scopes));
        ps.setArray(1, c.createArrayOf("text", new Object[] {scope, "app/user", "app"}));
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            rs.getString(6);
          }
        }
      });
      System.out.printf(Locale.ROOT, "raw JDBC query: p50 %.3f ms, p99 %.3f ms%n", rawLatency[0], rawLatency[1]);
    }
    return new double[][] {engramLatency, rawLatency};
  }

  @FunctionalInterface
  private interface Probe {
    void run() throws SQLException;
  }

  private static double[] measure(int count, Probe probe) throws SQLException {
    for (int i = 0; i < Math.min(count, 5_000); i++) {
      probe.run();
    }
    long[] nanos = new long[count];
    for (int i = 0; i < count; i++) {
      long t0 = System.nanoTime();
      probe.run();
      nanos[i] = System.nanoTime() - t0;
    }
    Arrays.sort(nanos);
    return new double[] {nanos[nanos.length / 2] / 1e6, nanos[(int) (nanos.length * 0.99)] / 1e6};
  }

  private static String scope(int s) {
    return "app/user/u" + s;
  }

  /**
   * Adds {@code perScope} entries to each of {@code scopes} scopes, one transaction per scope, spread
   * over {@code threads} loaders: version, CREATE event and revision per entry, and the topics marked
   * written, as the engine's write leaves them.
   */
  private static void seed(String url, String schema, int scopes, int perScope, int round, int threads)
      throws Exception {
    if (perScope < 1) {
      return;
    }
    Instant now = Instant.now();
    String[] extra = {"work", "home", "travel", "health"};
    AtomicInteger done = new AtomicInteger();
    try (PostgresMemoryStore store = store(url, schema, threads)) {
      parallel(threads, scopes, (t, i) -> {
        int s = i * threads + t;
        if (s >= scopes) {
          return;
        }
        String scope = scope(s);
        MessageDigest sha = sha256();
        store.inTransaction(scope, tx -> {
          long rev = tx.headRevision(scope);
          for (int k = 0; k < perScope; k++) {
            rev++;
            String content = "Entry " + round + "-" + k + " of " + scope + ": the user mentioned item " + k
                + " while planning the week.";
            String hash = HexFormat.of().formatHex(sha.digest(content.getBytes(StandardCharsets.UTF_8)));
            List<String> topics = List.of("general", extra[k % extra.length]);
            MemoryEntry e = new MemoryEntry(id(), id(), 1, null, scope, content, topics, EntryType.FACT, 2, null,
                List.of(), null, "bench", List.of(), hash, EntryStatus.ACTIVE, null, null, now, now, rev);
            tx.insertVersion(e);
            tx.appendRevision(new Revision(scope, rev, List.of(new Change(ChangeKind.APPEND, e.entryId(),
                e.versionId())), now));
            tx.appendEvent(new MemoryEvent(id(), scope, e.entryId(), EventKind.CREATE, null, e, "bench", null, rev, now, null));
          }
          tx.markTopicsWritten(scope, List.of("general", "work", "home", "travel", "health"), rev, now);
          return null;
        });
        int n = done.incrementAndGet();
        if (n % 1000 == 0) {
          System.out.printf(Locale.ROOT, "  %,d / %,d scopes%n", n, scopes);
        }
      });
    }
  }

  private static void analyze(String url, String schema) throws SQLException {
    try (HikariDataSource pool = pool(url, 1); Connection c = pool.getConnection(); Statement s = c.createStatement()) {
      s.execute("VACUUM ANALYZE " + schema + ".engram_versions");
      s.execute("VACUUM ANALYZE " + schema + ".engram_version_topics");
    }
  }

  private static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static HikariDataSource pool(String url, int size) {
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url);
    config.setMaximumPoolSize(size);
    config.setPoolName("bench-raw");
    return new HikariDataSource(config);
  }

  private static String serverVersion(String url) throws SQLException {
    try (HikariDataSource pool = pool(url, 1); Connection c = pool.getConnection(); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SHOW server_version")) {
      rs.next();
      return rs.getString(1);
    }
  }

  private static final Random ID_RANDOM = new Random();
  private static final Object ID_LOCK = new Object();
  private static long idCounter;

  /** Time-ordered ids in the UUID version 7 layout, strictly increasing within this run. */
  private static String id() {
    long stamp;
    synchronized (ID_LOCK) {
      stamp = Math.max(idCounter + 1, System.currentTimeMillis() << 12);
      idCounter = stamp;
    }
    long msb = ((stamp >>> 12) << 16) | (0x7L << 12) | (stamp & 0xFFF);
    long lsb = (ID_RANDOM.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
    return new UUID(msb, lsb).toString();
  }

  private static double secondsSince(long startNanos) {
    return (System.nanoTime() - startNanos) / 1e9;
  }
}
