/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.benchmarks.search;

import dev.engram.Engram;
import dev.engram.Grants;
import dev.engram.SearchHit;
import dev.engram.SearchMode;
import dev.engram.SearchRequest;
import dev.engram.SearchResult;
import dev.engram.VectorCacheStats;
import dev.engram.WriteResult;
import dev.engram.embeddings.minilm.MiniLmEmbedder;
import dev.engram.reasoner.DeterministicReasoner;
import dev.engram.spi.Embedder;
import dev.engram.spi.EmbeddingProfile;
import dev.engram.spi.MemoryStore;
import dev.engram.store.inmemory.InMemoryMemoryStore;
import dev.engram.store.postgres.PostgresMemoryStore;
import dev.engram.store.sqlite.SqliteMemoryStore;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * {@code vectors}: the vector channel's cost cliffs, each a ratio within one run.
 *
 * <ul>
 *   <li>{@code after-write}: at N entries in one scope (default 20,000), a vector search right after a
 *       write into that scope vs a vector search with nothing changed, alternating, on the in-memory,
 *       SQLite and (embedded) PostgreSQL stores. Only the searches are timed.
 *   <li>{@code quantized}: at N entries (default 100,000), the vector channel with the one-bit two-pass scan
 *       vs the exact float scan (two engines over one store), p50 and recall@10 of quantized vs exact.
 *   <li>{@code scopes}: S scopes (default 5,000) of five entries each written by one engine, then every
 *       scope searched twice by an engine with a 16 MiB and by one with a 256 MiB cache bound; heap after
 *       a full GC before and after, and the block cache's size against its bound.
 * </ul>
 */
public final class VectorCommand {
  public static final String SUMMARY = "vector cache and scan: search after write vs unchanged, quantized vs exact"
      + " scan (recall@10), heap with many scopes: [--part after-write|quantized|scopes|all]";

  private VectorCommand() {}

  record Options(String part, int afterWriteEntries, int quantizedEntries, int scopes, int measured, int warmup,
      int pool, long seed, String stores) {}

  public static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
    Options o;
    try {
      o = parse(args);
    } catch (IllegalArgumentException e) {
      err.println("vectors: " + e.getMessage());
      err.println("usage: vectors [--part after-write|quantized|scopes|all] [--entries 20000] [--large 100000]"
          + " [--scopes 5000] [--measured 300] [--warmup 50] [--pool 1000] [--seed 42]"
          + " [--stores memory,sqlite,postgres]");
      return 2;
    }
    out.printf(Locale.ROOT, "machine: %d processors, %s %s, max heap %d MB, load average %.2f%n",
        Runtime.getRuntime().availableProcessors(), System.getProperty("java.vm.name"),
        System.getProperty("java.version"), Runtime.getRuntime().maxMemory() >> 20, SearchCommand.loadAverage());
    if (o.part().equals("all") || o.part().equals("after-write")) {
      afterWrite(o, out);
    }
    if (o.part().equals("all") || o.part().equals("quantized")) {
      quantized(o, out);
    }
    if (o.part().equals("all") || o.part().equals("scopes")) {
      scopes(o, out);
    }
    return 0;
  }

  static Options parse(String[] args) {
    Map<String, String> a = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      if (!args[i].startsWith("--") || i + 1 >= args.length) {
        throw new IllegalArgumentException("expected --option value, got '" + args[i] + "'");
      }
      a.put(args[i].substring(2), args[++i]);
    }
    Set<String> known = Set.of("part", "entries", "large", "scopes", "measured", "warmup", "pool", "seed", "stores");
    for (String k : a.keySet()) {
      if (!known.contains(k)) {
        throw new IllegalArgumentException("unknown option --" + k);
      }
    }
    String part = a.getOrDefault("part", "all");
    if (!Set.of("all", "after-write", "quantized", "scopes").contains(part)) {
      throw new IllegalArgumentException("--part must be after-write, quantized, scopes or all, was '" + part + "'");
    }
    return new Options(part, number(a, "entries", 20_000), number(a, "large", 100_000), number(a, "scopes", 5_000),
        number(a, "measured", 300), number(a, "warmup", 50), number(a, "pool", 1000), number(a, "seed", 42),
        a.getOrDefault("stores", "memory,sqlite,postgres"));
  }

  private static int number(Map<String, String> a, String key, int def) {
    String v = a.get(key);
    if (v == null) {
      return def;
    }
    try {
      int n = Integer.parseInt(v.strip());
      if (n < 0) {
        throw new IllegalArgumentException("--" + key + " must be >= 0, was " + n);
      }
      return n;
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--" + key + " must be a whole number, was '" + v + "'");
    }
  }

  /**
   * A deterministic embedder for the cache runs: each text's vector is one of 256 seeded centres (by
   * the text's hash) plus seeded noise, 384 values. Cheap, so only the engine is measured.
   */
  static final class SyntheticEmbedder implements Embedder {
    private final EmbeddingProfile profile = new EmbeddingProfile("bench-synthetic", 384);
    private final float[][] centres = new float[256][];

    SyntheticEmbedder(long seed) {
      java.util.Random random = new java.util.Random(seed);
      for (int c = 0; c < centres.length; c++) {
        centres[c] = gaussian(random, 384, 1);
      }
    }

    @Override
    public EmbeddingProfile profile() {
      return profile;
    }

    @Override
    public List<float[]> embed(List<String> texts) {
      List<float[]> out = new ArrayList<>(texts.size());
      for (String t : texts) {
        java.util.Random random = new java.util.Random(t.hashCode());
        float[] c = centres[Math.floorMod(t.hashCode(), centres.length)];
        float[] noise = gaussian(random, 384, 0.8f);
        for (int d = 0; d < 384; d++) {
          noise[d] += c[d];
        }
        out.add(noise);
      }
      return out;
    }

    private static float[] gaussian(java.util.Random random, int dim, float sigma) {
      float[] x = new float[dim];
      for (int d = 0; d < dim; d++) {
        x[d] = (float) random.nextGaussian() * sigma;
      }
      return x;
    }
  }

  // ---- search after write

  private static void afterWrite(Options o, PrintStream out) throws Exception {
    int n = o.afterWriteEntries();
    out.printf(Locale.ROOT, "%n## vector search after a write vs unchanged, %,d entries in one scope%n", n);
    Corpus corpus = new Corpus(o.seed());
    List<String> texts = corpus.texts(n + o.warmup() + o.measured());
    Set<String> taken = new HashSet<>(texts);
    List<String> queries = corpus.questions(2 * (o.warmup() + o.measured()), taken);
    List<String> table = new ArrayList<>();
    table.add("| store | entries | unchanged p50 | unchanged p99 | after a write p50 | after a write p99 | ratio p50 |"
        + " blocks loaded / updated / current |");
    table.add("|---|--:|--:|--:|--:|--:|--:|---|");
    for (String kind : o.stores().split(",")) {
      Path work = Files.createTempDirectory("engram-bench-vectors");
      EmbeddedPostgres pg = null;
      try {
        MemoryStore store;
        switch (kind.strip()) {
          case "memory" -> store = new InMemoryMemoryStore();
          case "sqlite" -> store = new SqliteMemoryStore(work.resolve("bench.db"));
          case "postgres" -> {
            pg = EmbeddedPostgres.builder().start();
            store = PostgresMemoryStore.builder().jdbcUrl(pg.getJdbcUrl("postgres", "postgres")).build();
          }
          default -> throw new IllegalArgumentException("unknown store " + kind);
        }
        Grants grants = Grants.of(SearchCommand.SCOPE);
        try (Engram engram = Engram.builder().store(store).reasoner(new DeterministicReasoner())
            .embedder(new SyntheticEmbedder(o.seed())).build()) {
          long t0 = System.nanoTime();
          BulkLoad.load(engram, grants, SearchCommand.SCOPE, texts.subList(0, n), work, false);
          out.printf(Locale.ROOT, "  %s: %,d entries imported and embedded in %.1f s%n", kind, n,
              (System.nanoTime() - t0) / 1e9);
          engram.search(grants, vector(queries.get(0)));
          Latencies unchanged = new Latencies(o.measured());
          Latencies written = new Latencies(o.measured());
          VectorCacheStats before = null;
          int next = n;
          for (int i = 0; i < o.warmup() + o.measured(); i++) {
            if (i == o.warmup()) {
              before = engram.operator().vectorCacheStats();
            }
            boolean measure = i >= o.warmup();
            long t = System.nanoTime();
            SearchResult r = engram.search(grants, vector(queries.get(2 * i)));
            long dt = System.nanoTime() - t;
            sink(r);
            if (measure) {
              unchanged.add(dt);
            }
            WriteResult w = engram.write(grants, texts.get(next++));
            if (w.outcome() != WriteResult.Outcome.APPENDED || w.vectorsMissing()) {
              throw new IllegalStateException("write " + next + " was " + w.outcome() + " " + w.warnings());
            }
            t = System.nanoTime();
            r = engram.search(grants, vector(queries.get(2 * i + 1)));
            dt = System.nanoTime() - t;
            sink(r);
            if (measure) {
              written.add(dt);
            }
          }
          VectorCacheStats after = engram.operator().vectorCacheStats();
          String cache = (after.loads() - before.loads()) + " / " + (after.updates() - before.updates()) + " / "
              + (after.hits() - before.hits());
          out.printf(Locale.ROOT, "  %s: unchanged p50 %.2f ms p99 %.2f ms | after a write p50 %.2f ms p99 %.2f ms"
                  + " | ratio %.2f | cache loads/updates/hits %s%n", kind, unchanged.p50(), unchanged.p99(),
              written.p50(), written.p99(), written.p50() / unchanged.p50(), cache);
          table.add(String.format(Locale.ROOT, "| %s | %,d | %.2f ms | %.2f ms | %.2f ms | %.2f ms | %.2f | %s |",
              kind, n, unchanged.p50(), unchanged.p99(), written.p50(), written.p99(),
              written.p50() / unchanged.p50(), cache));
        }
      } finally {
        if (pg != null) {
          pg.close();
        }
        deleteTree(work);
      }
    }
    out.println();
    table.forEach(out::println);
  }

  private static SearchRequest vector(String q) {
    return SearchRequest.builder(q).mode(SearchMode.VECTOR).limit(10).build();
  }

  private static long sinkCount;

  private static void sink(SearchResult r) {
    sinkCount += r.hits().size();
  }

  // ---- quantized vs exact

  private static void quantized(Options o, PrintStream out) throws Exception {
    int n = o.quantizedEntries();
    out.printf(Locale.ROOT, "%n## vector channel, one-bit two-pass scan vs exact float scan, %,d entries in one scope%n",
        n);
    Corpus corpus = new Corpus(o.seed());
    List<String> texts = corpus.texts(n);
    int queriesWanted = o.warmup() + o.measured();
    List<String> queries = corpus.questions(queriesWanted, new HashSet<>(texts));
    ExecutorService threads = Executors.newFixedThreadPool(Runtime.getRuntime().availableProcessors());
    Path work = Files.createTempDirectory("engram-bench-quantized");
    try {
      MiniLmEmbedder model = new MiniLmEmbedder(threads);
      long t0 = System.nanoTime();
      List<float[]> pool = embedAll(model, texts.subList(0, Math.min(o.pool(), n)));
      List<float[]> queryVectors = embedAll(model, queries);
      out.printf(Locale.ROOT, "  embedded %,d pool texts and %,d queries with MiniLM in %.1f s%n", pool.size(),
          queries.size(), (System.nanoTime() - t0) / 1e9);
      float[][] vectors = SearchCommand.derive(pool, n, o.seed());
      PrecomputedVectorsEmbedder embedder = new PrecomputedVectorsEmbedder(model.profile(), null);
      for (int i = 0; i < n; i++) {
        embedder.put(texts.get(i), vectors[i]);
      }
      for (int i = 0; i < queries.size(); i++) {
        embedder.put(queries.get(i), queryVectors.get(i));
      }
      Grants grants = Grants.of(SearchCommand.SCOPE);
      InMemoryMemoryStore store = new InMemoryMemoryStore();
      // a 100,000 x 384 block is about 250 MB, near the default bound: give both engines room for the block
      long cacheBytes = Math.max(1L << 30, 8L * vectors[0].length * n);
      try (Engram quick = Engram.builder().borrowedStore(store).reasoner(new DeterministicReasoner())
              .embedder(embedder).vectorCacheBytes(cacheBytes).build();
          Engram exact = Engram.builder().borrowedStore(store).reasoner(new DeterministicReasoner())
              .embedder(embedder).quantizedVectorScan(false).vectorCacheBytes(cacheBytes).build()) {
        t0 = System.nanoTime();
        BulkLoad.load(quick, grants, SearchCommand.SCOPE, texts, work, false);
        out.printf(Locale.ROOT, "  %,d entries imported and embedded in %.1f s%n", n, (System.nanoTime() - t0) / 1e9);
        quick.search(grants, vector(queries.get(0)));
        exact.search(grants, vector(queries.get(0)));
        Latencies q = new Latencies(o.measured());
        Latencies e = new Latencies(o.measured());
        int found = 0;
        int wanted = 0;
        for (int i = 0; i < queriesWanted; i++) {
          boolean measure = i >= o.warmup();
          SearchResult[] r = new SearchResult[2];
          for (int step = 0; step < 2; step++) {
            boolean quickFirst = (i & 1) == 0;
            boolean isQuick = (step == 0) == quickFirst;
            long t = System.nanoTime();
            SearchResult res = (isQuick ? quick : exact).search(grants, vector(queries.get(i)));
            long dt = System.nanoTime() - t;
            r[isQuick ? 0 : 1] = res;
            if (measure) {
              (isQuick ? q : e).add(dt);
            }
          }
          Set<String> top = new HashSet<>();
          for (SearchHit h : r[1].hits()) {
            top.add(h.entry().versionId());
          }
          wanted += top.size();
          for (SearchHit h : r[0].hits()) {
            if (top.contains(h.entry().versionId())) {
              found++;
            }
          }
        }
        double recall = wanted == 0 ? 1 : (double) found / wanted;
        out.println("  cache, two-pass engine: " + quick.operator().vectorCacheStats());
        out.println("  cache, exact engine: " + exact.operator().vectorCacheStats());
        out.printf(Locale.ROOT, "  quantized p50 %.2f ms p99 %.2f ms | exact p50 %.2f ms p99 %.2f ms | ratio p50 %.2f"
            + " | recall@10 %.4f over %d queries%n", q.p50(), q.p99(), e.p50(), e.p99(), q.p50() / e.p50(), recall,
            queriesWanted);
        out.println();
        out.println("| entries | quantized p50 | quantized p99 | exact p50 | exact p99 | ratio p50 | recall@10 |");
        out.println("|--:|--:|--:|--:|--:|--:|--:|");
        out.printf(Locale.ROOT, "| %,d | %.2f ms | %.2f ms | %.2f ms | %.2f ms | %.2f | %.4f |%n", n, q.p50(), q.p99(),
            e.p50(), e.p99(), q.p50() / e.p50(), recall);
      }
    } finally {
      threads.shutdownNow();
      deleteTree(work);
    }
  }

  private static List<float[]> embedAll(Embedder model, List<String> texts) {
    List<float[]> out = new ArrayList<>(texts.size());
    for (int i = 0; i < texts.size(); i += 64) {
      out.addAll(model.embed(texts.subList(i, Math.min(texts.size(), i + 64))));
    }
    return out;
  }

  // ---- many scopes

  private static void scopes(Options o, PrintStream out) {
    int scopes = o.scopes();
    int per = 5;
    out.printf(Locale.ROOT, "%n## heap with %,d scopes searched (%d entries each, in-memory store)%n", scopes, per);
    Corpus corpus = new Corpus(o.seed());
    List<String> texts = corpus.texts(scopes * per);
    List<String> queries = corpus.questions(scopes, new HashSet<>(texts));
    List<String> table = new ArrayList<>();
    table.add("| cache bound | heap, store only | heap after searching every scope | growth | blocks held | cache bytes |"
        + " evictions | hit rate |");
    table.add("|--:|--:|--:|--:|--:|--:|--:|--:|");
    InMemoryMemoryStore store = new InMemoryMemoryStore();
    try (Engram writer = Engram.builder().borrowedStore(store).reasoner(new DeterministicReasoner())
        .embedder(new SyntheticEmbedder(o.seed())).build()) {
      for (int s = 0; s < scopes; s++) {
        Grants g = Grants.of("app/user/u" + s);
        for (int i = 0; i < per; i++) {
          writer.write(g, texts.get(s * per + i));
        }
      }
    }
    for (long bound : new long[] {16L << 20, 256L << 20}) {
      long before = usedHeapAfterGc();
      try (Engram engram = Engram.builder().borrowedStore(store).reasoner(new DeterministicReasoner())
          .embedder(new SyntheticEmbedder(o.seed())).vectorCacheBytes(bound).build()) {
        for (int round = 0; round < 2; round++) {
          for (int s = 0; s < scopes; s++) {
            sink(engram.search(Grants.of("app/user/u" + s), vector(queries.get(s))));
          }
        }
        long after = usedHeapAfterGc();
        VectorCacheStats stats = engram.operator().vectorCacheStats();
        out.printf(Locale.ROOT, "  bound %d MiB: heap %.1f -> %.1f MiB (+%.1f), %s%n", bound >> 20,
            before / 1048576.0, after / 1048576.0, (after - before) / 1048576.0, stats);
        table.add(String.format(Locale.ROOT, "| %d MiB | %.1f MiB | %.1f MiB | %+.1f MiB | %,d | %.1f MiB | %,d | %.2f |",
            bound >> 20, before / 1048576.0, after / 1048576.0, (after - before) / 1048576.0, stats.blocks(),
            stats.bytes() / 1048576.0, stats.evictions(), stats.hitRate()));
      }
    }
    out.println();
    table.forEach(out::println);
  }

  private static long usedHeapAfterGc() {
    Runtime rt = Runtime.getRuntime();
    for (int i = 0; i < 3; i++) {
      System.gc();
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    return rt.totalMemory() - rt.freeMemory();
  }

  private static void deleteTree(Path dir) throws IOException {
    try (var paths = Files.walk(dir)) {
      for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.delete(p);
      }
    }
  }
}
