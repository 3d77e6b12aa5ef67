/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.benchmarks;

import dev.engram.BatchWriteResult;
import dev.engram.ContextRequest;
import dev.engram.Engram;
import dev.engram.Grants;
import dev.engram.VectorCacheStats;
import dev.engram.WriteOptions;
import dev.engram.WriteRequest;
import dev.engram.benchmarks.search.Latencies;
import dev.engram.reasoner.DeterministicReasoner;
import dev.engram.spi.Embedder;
import dev.engram.spi.EmbeddingProfile;
import dev.engram.spi.MemoryStore;
import dev.engram.store.postgres.PostgresMemoryStore;
import dev.engram.store.sqlite.SqliteMemoryStore;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code server}: a server-shaped run. Many tenants (one scope each, {@code app/user/u_N}, under a shared
 * {@code app} scope) loaded through {@link Engram#writeAll}, then worker threads for a fixed time, each
 * operation on a random tenant: searches (AUTO) and prepared contexts make up {@code --reads} of the
 * operations, writes the rest. Reported per operation kind: count, throughput, p50/p99; and the heap after
 * a GC before and after the run, and the vector cache's hit rate and size against its bound.
 *
 * <p>The embedder is a hashed bag of words (384 values, unit length): a stand-in for a model's cost,
 * never its quality, so the run measures the engine, the store and the cache, not ONNX.
 */
public final class ServerCommand {
  public static final String SUMMARY =
      "server-shaped run: [--stores sqlite,postgres] [--scopes 10000] [--per-scope 100] [--threads 8]"
          + " [--seconds 60] [--reads 0.8] [--cache-mib 256] [--dir DIR] [--url JDBC_URL]";

  private ServerCommand() {}

  /** Words hashed into 384 signed buckets, normalized: deterministic, cheap, and shared words score. */
  static final class HashedWordsEmbedder implements Embedder {
    private static final int DIMENSION = 384;
    private static final EmbeddingProfile PROFILE = new EmbeddingProfile("bench-hashed-words", DIMENSION, 0.1);

    @Override
    public EmbeddingProfile profile() {
      return PROFILE;
    }

    @Override
    public List<float[]> embed(List<String> texts) {
      List<float[]> out = new ArrayList<>(texts.size());
      for (String text : texts) {
        float[] v = new float[DIMENSION];
        for (String word : text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
          if (word.isEmpty()) {
            continue;
          }
          int h = Arrays.hashCode(word.getBytes(StandardCharsets.UTF_8));
          v[Math.floorMod(h, DIMENSION)] += (h & 0x10000) == 0 ? 1 : -1;
        }
        double norm = 0;
        for (float x : v) {
          norm += x * x;
        }
        if (norm == 0) {
          v[0] = 1;
        } else {
          float inv = (float) (1 / Math.sqrt(norm));
          for (int i = 0; i < DIMENSION; i++) {
            v[i] *= inv;
          }
        }
        out.add(v);
      }
      return out;
    }
  }

  private static final class Options {
    List<String> stores = List.of("sqlite", "postgres");
    int scopes = 10_000;
    int perScope = 100;
    int threads = 8;
    int seconds = 60;
    double reads = 0.8;
    long cacheMib = 256;
    Path dir;
    String url = System.getenv("ENGRAM_PG_URL");
  }

  public static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
    Options o = new Options();
    for (int i = 0; i < args.length; i++) {
      String v = i + 1 < args.length ? args[i + 1] : null;
      if (v == null) {
        err.println(args[i] + " needs a value; " + SUMMARY);
        return 2;
      }
      switch (args[i]) {
        case "--stores" -> o.stores = Arrays.asList(v.split(","));
        case "--scopes" -> o.scopes = Integer.parseInt(v);
        case "--per-scope" -> o.perScope = Integer.parseInt(v);
        case "--threads" -> o.threads = Integer.parseInt(v);
        case "--seconds" -> o.seconds = Integer.parseInt(v);
        case "--reads" -> o.reads = Double.parseDouble(v);
        case "--cache-mib" -> o.cacheMib = Long.parseLong(v);
        case "--dir" -> o.dir = Path.of(v);
        case "--url" -> o.url = v;
        default -> {
          err.println("unknown option " + args[i] + "; " + SUMMARY);
          return 2;
        }
      }
      i++;
    }
    if (o.scopes < 1 || o.perScope < 1 || o.threads < 1 || o.seconds < 1 || o.reads < 0 || o.reads > 1) {
      err.println("scopes, per-scope, threads and seconds must be positive and reads within [0, 1]");
      return 2;
    }
    out.printf(Locale.ROOT, "# Server-shaped run: %,d scopes × %d entries, %d threads, %d s, %.0f %% reads"
            + " (half search, half prepareContext), vector cache bound %d MiB%n", o.scopes, o.perScope, o.threads,
        o.seconds, o.reads * 100, o.cacheMib);
    out.println("java " + System.getProperty("java.version") + ", " + Runtime.getRuntime().availableProcessors()
        + " processors, max heap " + Runtime.getRuntime().maxMemory() / (1 << 20) + " MiB");
    for (String name : o.stores) {
      EmbeddedPostgres embedded = null;
      try {
        MemoryStore store;
        switch (name.trim()) {
          case "sqlite" -> {
            Path base = o.dir != null ? o.dir : Files.createTempDirectory("engram-server");
            Files.createDirectories(base);
            store = new SqliteMemoryStore(base.resolve("server-" + System.nanoTime() + ".db"));
          }
          case "postgres" -> {
            String jdbc = o.url;
            if (jdbc == null || jdbc.isBlank()) {
              embedded = EmbeddedPostgres.builder().start();
              jdbc = embedded.getJdbcUrl("postgres", "postgres");
            }
            store = PostgresMemoryStore.builder().jdbcUrl(jdbc).schema("bench_server_" + System.nanoTime())
                .maximumPoolSize(Math.max(2, o.threads)).build();
          }
          default -> {
            err.println("unknown store " + name);
            return 2;
          }
        }
        try (Engram engram = Engram.builder().store(store).reasoner(new DeterministicReasoner())
            .embedder(new HashedWordsEmbedder()).vectorCacheBytes(o.cacheMib << 20).build()) {
          runOne(name.trim(), engram, o, out);
        }
      } finally {
        if (embedded != null) {
          embedded.close();
        }
      }
    }
    return 0;
  }

  private static void runOne(String name, Engram engram, Options o, PrintStream out) throws Exception {
    long loadStart = System.nanoTime();
    Random random = new Random(7);
    engram.writeAll(Grants.of("app"), List.of(WriteRequest.of("The application answers in the user's language.",
        WriteOptions.builder().topicsHint(List.of("core")).build())));
    AtomicLong rejected = new AtomicLong();
    ExecutorService pool = Executors.newFixedThreadPool(o.threads);
    try {
      List<Future<?>> loads = new ArrayList<>();
      int slice = (o.scopes + o.threads - 1) / o.threads;
      for (int t = 0; t < o.threads; t++) {
        int from = t * slice;
        int to = Math.min(o.scopes, from + slice);
        long seed = random.nextLong();
        loads.add(pool.submit(() -> {
          Random r = new Random(seed);
          for (int s = from; s < to; s++) {
            List<WriteRequest> batch = new ArrayList<>(o.perScope);
            for (int i = 0; i < o.perScope; i++) {
              batch.add(WriteRequest.of(sentence(r, s * o.perScope + i),
                  WriteOptions.builder().topicsHint(List.of(TOPICS[r.nextInt(TOPICS.length)])).build()));
            }
            BatchWriteResult result = engram.writeAll(grants(s), batch);
            rejected.addAndGet(result.rejected().size());
          }
          return null;
        }));
      }
      for (Future<?> f : loads) {
        f.get();
      }
      double loadSeconds = (System.nanoTime() - loadStart) / 1e9;
      long entries = (long) o.scopes * o.perScope;
      long heapLoaded = heapAfterGc();
      out.println();
      out.printf(Locale.ROOT, "## %s: loaded %,d entries in %.1f s (%,.0f entries/s, %d rejected), heap after GC"
          + " %,d MiB%n", name, entries, loadSeconds, entries / loadSeconds, rejected.get(), heapLoaded >> 20);

      Latencies search = new Latencies(1 << 16);
      Latencies context = new Latencies(1 << 16);
      Latencies write = new Latencies(1 << 14);
      long end = System.nanoTime() + o.seconds * 1_000_000_000L;
      AtomicLong failures = new AtomicLong();
      List<Future<?>> workers = new ArrayList<>();
      for (int t = 0; t < o.threads; t++) {
        workers.add(pool.submit(() -> {
          ThreadLocalRandom r = ThreadLocalRandom.current();
          Latencies s = new Latencies(1 << 12);
          Latencies c = new Latencies(1 << 12);
          Latencies w = new Latencies(1 << 10);
          while (System.nanoTime() < end) {
            int scope = r.nextInt(o.scopes);
            double pick = r.nextDouble();
            long t0 = System.nanoTime();
            try {
              if (pick < o.reads / 2) {
                engram.search(grants(scope), query(r));
                s.add(System.nanoTime() - t0);
              } else if (pick < o.reads) {
                engram.prepareContext(grants(scope), ContextRequest.of(query(r), 2_000));
                c.add(System.nanoTime() - t0);
              } else {
                engram.write(grants(scope), sentence(new Random(r.nextLong()), r.nextInt(1 << 30)),
                    WriteOptions.builder().topicsHint(List.of(TOPICS[r.nextInt(TOPICS.length)])).build());
                w.add(System.nanoTime() - t0);
              }
            } catch (RuntimeException e) {
              failures.incrementAndGet();
            }
          }
          synchronized (search) {
            search.addAll(s);
            context.addAll(c);
            write.addAll(w);
          }
          return null;
        }));
      }
      for (Future<?> f : workers) {
        f.get();
      }
      long heapAfter = heapAfterGc();
      VectorCacheStats cache = engram.operator().vectorCacheStats();
      int ops = search.size() + context.size() + write.size();
      out.println();
      out.println("| operation | count | per second | p50 ms | p99 ms |");
      out.println("|---|---:|---:|---:|---:|");
      row(out, "search (AUTO)", search, o.seconds);
      row(out, "prepareContext", context, o.seconds);
      row(out, "write", write, o.seconds);
      out.printf(Locale.ROOT, "| all | %,d | %,.0f | | |%n", ops, ops / (double) o.seconds);
      out.println();
      out.printf(Locale.ROOT, "failures %d; heap after GC %,d MiB (after loading %,d MiB); vector cache: hit rate"
              + " %.3f (%,d hits, %,d updated, %,d loads, %,d evictions), %,d blocks, %,d of %,d MiB%n",
          failures.get(), heapAfter >> 20, heapLoaded >> 20, cache.hitRate(), cache.hits(), cache.updates(),
          cache.loads(), cache.evictions(), cache.blocks(), cache.bytes() >> 20, cache.maxBytes() >> 20);
    } finally {
      pool.shutdownNow();
    }
  }

  private static final String[] TOPICS = {"travel", "food", "work", "health", "family", "music", "money", "home"};

  private static Grants grants(int scope) {
    return Grants.of("app/user/u_" + scope, "app");
  }

  private static void row(PrintStream out, String name, Latencies l, int seconds) {
    if (l.size() == 0) {
      out.printf(Locale.ROOT, "| %s | 0 | 0 | | |%n", name);
      return;
    }
    out.printf(Locale.ROOT, "| %s | %,d | %,.0f | %.2f | %.2f |%n", name, l.size(), l.size() / (double) seconds,
        l.percentileMillis(0.50), l.percentileMillis(0.99));
  }

  private static String query(ThreadLocalRandom r) {
    return word(r.nextInt(3000)) + " " + word(r.nextInt(3000)) + " " + word(r.nextInt(3000));
  }

  /** Ten words out of 3,000 and a number. */
  private static String sentence(Random random, int n) {
    StringBuilder b = new StringBuilder();
    for (int w = 0; w < 10; w++) {
      b.append(word(random.nextInt(3000))).append(' ');
    }
    return b.append(n).append('.').toString();
  }

  /** A pronounceable word for {@code i}: consonant-vowel pairs, so full-text stemming leaves it whole. */
  private static String word(int i) {
    String consonants = "bdfgklmnprstvz";
    String vowels = "aeiou";
    StringBuilder b = new StringBuilder();
    int x = i + 3000;
    while (x > 0) {
      b.append(consonants.charAt(x % consonants.length()));
      x /= consonants.length();
      b.append(vowels.charAt(x % vowels.length()));
      x /= vowels.length();
    }
    return b.toString();
  }

  private static long heapAfterGc() {
    for (int i = 0; i < 3; i++) {
      System.gc();
    }
    return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
  }
}
