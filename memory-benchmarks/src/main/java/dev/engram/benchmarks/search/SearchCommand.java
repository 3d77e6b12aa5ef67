/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.benchmarks.search;

import dev.engram.Engram;
import dev.engram.EngramBuilder;
import dev.engram.Grants;
import dev.engram.SearchHit;
import dev.engram.SearchMode;
import dev.engram.SearchRequest;
import dev.engram.SearchResult;
import dev.engram.WriteResult;
import dev.engram.embeddings.minilm.MiniLmEmbedder;
import dev.engram.reasoner.DeterministicReasoner;
import dev.engram.spi.Embedder;
import dev.engram.store.inmemory.InMemoryMemoryStore;
import dev.langchain4j.data.embedding.Embedding;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.store.embedding.EmbeddingMatch;
import dev.langchain4j.store.embedding.EmbeddingSearchRequest;
import dev.langchain4j.store.embedding.inmemory.InMemoryEmbeddingStore;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.Stream;

/**
 * {@code search}: search latency of the engine next to established libraries, in one JVM, over the
 * same data. For each size, the same generated texts go into an {@link Engram} on the in-memory store
 * (through {@link Engram#write}) and into a Lucene index; the same vectors go into the engine (through
 * a {@link PrecomputedVectorsEmbedder} on the write path) and into LangChain4j's
 * {@link InMemoryEmbeddingStore}. Then each channel runs warm-up and measured queries, the engine and
 * its baseline alternating query by query, each call timed with {@link System#nanoTime}.
 *
 * <p>Vectors: a pool of texts is embedded with all-MiniLM-L6-v2; every further text gets a vector
 * derived deterministically from two pool vectors plus seeded noise (unit length, same model space).
 * Query vectors of the vector channel are real MiniLM embeddings computed before timing. The hybrid
 * channel embeds every query live with MiniLM inside the timed call (its queries are all distinct, so
 * the engine's query-vector cache never hits), alternating with MiniLM embedding the same query alone.
 * A second engine over the same store with {@code quantizedVectorScan(false)} is the baseline of the
 * default two-pass vector channel, and the reference of its recall@limit. One benchmark, search latency per
 * channel; its length is the options and the per-channel measuring loops.
 */
public final class SearchCommand {
  public static final String SUMMARY =
      "search latency vs Lucene BM25 and LangChain4j in-memory vectors: [--sizes 10000,100000] [--measured 1000]";

  static final String SCOPE = "benchmark";
  /** Queries (untimed) over which recall@limit of the two-pass vector scan against the exact one is taken. */
  static final int RECALL_QUERIES = 300;

  private SearchCommand() {}

  record Options(
      List<Integer> sizes, int warmup, int measured, int pool, long seed, int limit, int threads, String load,
      Path markdown, boolean keys) {}

  public static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
    Options o;
    try {
      if (List.of(args).contains("--help") || List.of(args).contains("-h")) {
        usage(out);
        return 0;
      }
      o = parse(args);
    } catch (IllegalArgumentException e) {
      err.println("search: " + e.getMessage());
      usage(err);
      return 2;
    }
    new Run(o, out).run();
    return 0;
  }

  private static void usage(PrintStream to) {
    to.println("usage: java -jar memory-benchmarks.jar search [options]");
    to.println();
    to.println("  --sizes N,N,...   entries in the one scope, one run per size (default 10000,100000)");
    to.println("  --warmup N        warm-up queries per channel and system, not measured (default 200)");
    to.println("  --measured N      measured queries per channel and system (default 1000)");
    to.println("  --pool N          texts embedded with MiniLM; the rest get derived vectors (default 2000)");
    to.println("  --seed N          seed of texts, questions and derived vectors (default 42)");
    to.println("  --limit N         hits per search (default 10)");
    to.println("  --threads N       threads for embedding the pool before timing (default: processors)");
    to.println("  --load HOW        import (default: Engram.importFrom of an export stream, then Engram.reindex)");
    to.println("                    or write (Engram.write per text; slow at 100k on the in-memory store)");
    to.println("  --keys on|off     import every entry with a retrieval key (the text before it and its own,");
    to.println("                    as the capture path makes them), searched as extra arms (default on)");
    to.println("  --markdown FILE   also write the results table as Markdown (default: none)");
  }

  static Options parse(String[] args) {
    Map<String, String> a = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      String key = args[i];
      if (!key.startsWith("--") || i + 1 >= args.length) {
        throw new IllegalArgumentException("expected --option value, got '" + key + "'");
      }
      a.put(key.substring(2), args[++i]);
    }
    Set<String> known = Set.of("sizes", "warmup", "measured", "pool", "seed", "limit", "threads", "load", "markdown",
        "keys");
    for (String k : a.keySet()) {
      if (!known.contains(k)) {
        throw new IllegalArgumentException("unknown option --" + k);
      }
    }
    List<Integer> sizes = new ArrayList<>();
    for (String s : a.getOrDefault("sizes", "10000,100000").split(",")) {
      sizes.add(number("sizes", s, 100, 2_000_000));
    }
    sizes.sort(Comparator.naturalOrder());
    int threads = number("threads", a.getOrDefault("threads", "" + Runtime.getRuntime().availableProcessors()), 1, 256);
    String md = a.get("markdown");
    String load = a.getOrDefault("load", "import");
    if (!load.equals("import") && !load.equals("write")) {
      throw new IllegalArgumentException("--load must be import or write, was '" + load + "'");
    }
    return new Options(sizes,
        number("warmup", a.getOrDefault("warmup", "200"), 0, 100_000),
        number("measured", a.getOrDefault("measured", "1000"), 10, 100_000),
        number("pool", a.getOrDefault("pool", "2000"), 10, 2_000_000),
        number("seed", a.getOrDefault("seed", "42"), 0, Integer.MAX_VALUE),
        number("limit", a.getOrDefault("limit", "10"), 1, SearchRequest.MAX_LIMIT),
        threads,
        load,
        md == null ? null : Path.of(md),
        switch (a.getOrDefault("keys", "on")) {
          case "on" -> true;
          case "off" -> false;
          default -> throw new IllegalArgumentException("--keys must be on or off, was '" + a.get("keys") + "'");
        });
  }

  private static int number(String key, String v, int min, int max) {
    int n;
    try {
      n = Integer.parseInt(v.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException("--" + key + " must be a whole number, was '" + v + "'");
    }
    if (n < min || n > max) {
      throw new IllegalArgumentException("--" + key + " must be between " + min + " and " + max + ", was " + n);
    }
    return n;
  }

  /** One row of the results table. */
  record Row(int entries, String channel, Latencies engram, String baseline, Latencies base) {}

  private static final class Run {
    private final Options o;
    private final PrintStream log;
    private final List<Row> rows = new ArrayList<>();
    private final Map<Integer, Double> recalls = new LinkedHashMap<>();

    Run(Options o, PrintStream log) {
      this.o = o;
      this.log = log;
    }

    void run() throws Exception {
      int max = o.sizes().get(o.sizes().size() - 1);
      int queries = o.warmup() + o.measured();
      log.printf(Locale.ROOT, "machine: %d processors, %s %s, max heap %d MB, load average %.2f%n",
          Runtime.getRuntime().availableProcessors(), System.getProperty("java.vm.name"),
          System.getProperty("java.version"), Runtime.getRuntime().maxMemory() >> 20, loadAverage());
      log.println("jvm args: " + ManagementFactory.getRuntimeMXBean().getInputArguments());

      long t0 = System.nanoTime();
      Corpus corpus = new Corpus(o.seed());
      List<String> texts = corpus.texts(max);
      Set<String> taken = new HashSet<>(texts);
      List<String> textQueries = corpus.questions(queries, taken);
      taken.addAll(textQueries);
      List<String> vectorQueries = corpus.questions(queries, taken);
      taken.addAll(vectorQueries);
      List<String> hybridQueries = corpus.questions(queries, taken);
      log.printf(Locale.ROOT, "generated %,d texts and 3 x %,d distinct questions in %.1f s%n",
          texts.size(), queries, secondsSince(t0));

      ExecutorService pool = Executors.newFixedThreadPool(o.threads());
      try {
        t0 = System.nanoTime();
        MiniLmEmbedder parallel = new MiniLmEmbedder(pool);
        MiniLmEmbedder live = new MiniLmEmbedder();
        int poolSize = Math.min(o.pool(), max);
        List<float[]> poolVectors = embedAll(parallel, texts.subList(0, poolSize));
        List<float[]> queryVectors = embedAll(parallel, vectorQueries);
        List<float[]> hybridVectors = embedAll(parallel, hybridQueries);
        log.printf(Locale.ROOT, "embedded %,d pool texts and %,d questions with MiniLM in %.1f s%n",
            poolSize, vectorQueries.size() + hybridQueries.size(), secondsSince(t0));
        float[][] vectors = derive(poolVectors, max, o.seed());

        for (int n : o.sizes()) {
          runSize(n, texts.subList(0, n), vectors, vectorQueries, queryVectors, hybridQueries, hybridVectors,
              textQueries, live);
        }
      } finally {
        pool.shutdownNow();
      }
      String table = table();
      log.println();
      log.print(table);
      if (o.markdown() != null) {
        Files.writeString(o.markdown(), table);
        log.println("wrote " + o.markdown());
      }
    }

    private void runSize(
        int n, List<String> texts, float[][] vectors, List<String> vectorQueries, List<float[]> queryVectors,
        List<String> hybridQueries, List<float[]> hybridVectors, List<String> textQueries, Embedder live)
        throws IOException {
      log.printf(Locale.ROOT, "%n== %,d entries in one scope (load average %.2f) ==%n", n, loadAverage());
      PrecomputedVectorsEmbedder embedder = new PrecomputedVectorsEmbedder(live.profile(), live);
      for (int i = 0; i < n; i++) {
        embedder.put(texts.get(i), vectors[i]);
        if (o.keys() && i > 0 && i < n) {
          embedder.put(BulkLoad.key(texts, i), BulkLoad.sum(vectors[i - 1], vectors[i]));
        }
      }
      for (int i = 0; i < vectorQueries.size(); i++) {
        embedder.put(vectorQueries.get(i), queryVectors.get(i));
        embedder.put(hybridQueries.get(i), hybridVectors.get(i));
      }
      Grants grants = Grants.of(SCOPE);
      Path work = Files.createTempDirectory("engram-bench-search");
      // the scope's block (floats, bits, bookkeeping) must fit the cache bound, or every search reloads it
      // (with retrieval keys the scope has a second block, of its keys' vectors, as large as the first)
      long cacheBytes = Math.max(EngramBuilder.DEFAULT_VECTOR_CACHE_BYTES,
          (o.keys() ? 2 : 1) * 8L * live.profile().dimension() * n);
      InMemoryMemoryStore store = new InMemoryMemoryStore();
      try (store;
          Engram engram = Engram.builder()
              .borrowedStore(store)
              .reasoner(new DeterministicReasoner())
              .embedder(embedder)
              .vectorCacheBytes(cacheBytes)
              .build();
          Engram exact = Engram.builder()
              .borrowedStore(store)
              .reasoner(new DeterministicReasoner())
              .embedder(embedder)
              .vectorCacheBytes(cacheBytes)
              .quantizedVectorScan(false)
              .build();
          // the channels over the entries' own texts alone, for the agreement check with the baselines
          Engram contentOnly = Engram.builder()
              .borrowedStore(store)
              .reasoner(new DeterministicReasoner())
              .embedder(embedder)
              .vectorCacheBytes(cacheBytes)
              .searchSettings(dev.engram.SearchSettings.builder().keyWeights(0, 0).build())
              .build();
          LuceneBaseline lucene = build(n, texts, work.resolve("lucene"))) {
        long t0 = System.nanoTime();
        String how;
        if (o.load().equals("write")) {
          how = "Engram.write";
          for (int i = 0; i < n; i++) {
            WriteResult r = engram.write(grants, texts.get(i));
            if (r.outcome() != WriteResult.Outcome.APPENDED) {
              throw new IllegalStateException("text " + i + " was " + r.outcome() + ", expected APPENDED");
            }
            if ((i + 1) % 10_000 == 0) {
              log.printf(Locale.ROOT, "  engram: %,d written (%.1f s)%n", i + 1, secondsSince(t0));
            }
          }
        } else {
          how = "Engram.importFrom + Engram.reindex";
          int embedded = BulkLoad.load(engram, grants, SCOPE, texts, work, o.keys());
          if (embedded != n + (o.keys() ? n - 1 : 0)) {
            throw new IllegalStateException("reindex embedded " + embedded + " versions, expected " + n);
          }
        }
        double engramLoad = secondsSince(t0);
        if (embedder.served() != n + (o.keys() && o.load().equals("import") ? n - 1 : 0) || embedder.delegated() != 0) {
          throw new IllegalStateException("expected one precomputed vector per entry (" + n + "), served "
              + embedder.served() + ", embedded live " + embedder.delegated());
        }
        log.printf(Locale.ROOT, "  engram: %,d entries loaded through %s in %.1f s%n", n, how, engramLoad);

        t0 = System.nanoTime();
        InMemoryEmbeddingStore<TextSegment> lc4j = new InMemoryEmbeddingStore<>();
        List<String> ids = new ArrayList<>(n);
        List<Embedding> embeddings = new ArrayList<>(n);
        List<TextSegment> segments = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
          ids.add("t" + i);
          embeddings.add(Embedding.from(vectors[i]));
          segments.add(TextSegment.from(texts.get(i)));
        }
        lc4j.addAll(ids, embeddings, segments);
        log.printf(Locale.ROOT, "  langchain4j: %,d embeddings added in %.1f s%n", n, secondsSince(t0));

        // the first search loads the scope's vector block; keep it out of the series
        t0 = System.nanoTime();
        engram.search(grants, request(vectorQueries.get(0), SearchMode.VECTOR));
        log.printf(Locale.ROOT, "  engram: first vector search (loads the vector block) %.0f ms%n", secondsSince(t0) * 1e3);

        checkAgreement(contentOnly, grants, lucene, lc4j, textQueries, vectorQueries, queryVectors);

        Latencies[] fts = alternate(textQueries,
            q -> engram.search(grants, request(q, SearchMode.FTS)),
            q -> lucene.search(q, o.limit()));
        rows.add(new Row(n, "fts", fts[0], "Lucene BM25", fts[1]));
        report(n, "fts", fts[0], "lucene", fts[1]);

        Map<String, EmbeddingSearchRequest> lcRequests = new LinkedHashMap<>();
        for (int i = 0; i < vectorQueries.size(); i++) {
          lcRequests.put(vectorQueries.get(i), lcRequest(queryVectors.get(i)));
        }
        Latencies[] vec = alternate(vectorQueries,
            q -> engram.search(grants, request(q, SearchMode.VECTOR)),
            q -> lc4j.search(lcRequests.get(q)));
        rows.add(new Row(n, "vector", vec[0], "LangChain4j InMemoryEmbeddingStore", vec[1]));
        report(n, "vector", vec[0], "langchain4j", vec[1]);

        t0 = System.nanoTime();
        exact.search(grants, request(vectorQueries.get(0), SearchMode.VECTOR));
        log.printf(Locale.ROOT, "  engram, exact scan: first vector search (loads its own block) %.0f ms%n",
            secondsSince(t0) * 1e3);
        Latencies[] twoPass = alternate(vectorQueries,
            q -> engram.search(grants, request(q, SearchMode.VECTOR)),
            q -> exact.search(grants, request(q, SearchMode.VECTOR)));
        rows.add(new Row(n, "vector (one-bit first pass, the default)", twoPass[0],
            "Engram exact float scan (`quantizedVectorScan(false)`)", twoPass[1]));
        report(n, "vector two-pass vs exact", twoPass[0], "engram-exact", twoPass[1]);
        recalls.put(n, recall(engram, exact, grants, vectorQueries));
        log.printf(Locale.ROOT, "  recall@%d of the two-pass scan against the exact one: %.4f over %d queries%n",
            o.limit(), recalls.get(n), Math.min(vectorQueries.size(), RECALL_QUERIES));

        Latencies[] hybridPre = alternate(hybridQueries,
            q -> engram.search(grants, request(q, SearchMode.HYBRID)),
            q -> engram.search(grants, request(q, SearchMode.VECTOR)));
        rows.add(new Row(n, "hybrid, query vector precomputed", hybridPre[0], "Engram vector channel alone",
            hybridPre[1]));
        report(n, "hybrid (precomputed query vector)", hybridPre[0], "engram-vector", hybridPre[1]);

        long delegatedBefore = embedder.delegated();
        Latencies[] hybrid = alternate(textQueries,
            q -> engram.search(grants, request(q, SearchMode.HYBRID)), q -> live.embed(List.of(q)));
        if (embedder.delegated() - delegatedBefore != textQueries.size()) {
          throw new IllegalStateException("hybrid queries were not all embedded live: "
              + (embedder.delegated() - delegatedBefore) + " of " + textQueries.size());
        }
        rows.add(new Row(n, "hybrid, MiniLM query embedding included", hybrid[0], "MiniLM embedding alone",
            hybrid[1]));
        report(n, "hybrid (live MiniLM query embedding)", hybrid[0], "minilm-alone", hybrid[1]);

        log.printf(Locale.ROOT, "  load average after the series: %.2f%n", loadAverage());
      } finally {
        deleteTree(work);
      }
    }

    /** The share of the exact scan's top hits that the two-pass scan returns, over the first queries. */
    private double recall(Engram quick, Engram exact, Grants grants, List<String> queries) {
      int found = 0;
      int wanted = 0;
      for (String q : queries.subList(0, Math.min(queries.size(), RECALL_QUERIES))) {
        Set<String> top = new HashSet<>();
        for (SearchHit h : exact.search(grants, request(q, SearchMode.VECTOR)).hits()) {
          top.add(h.entry().versionId());
        }
        wanted += top.size();
        for (SearchHit h : quick.search(grants, request(q, SearchMode.VECTOR)).hits()) {
          if (top.contains(h.entry().versionId())) {
            found++;
          }
        }
      }
      return wanted == 0 ? 1 : (double) found / wanted;
    }

    private LuceneBaseline build(int n, List<String> texts, Path dir) throws IOException {
      long t0 = System.nanoTime();
      LuceneBaseline lucene = new LuceneBaseline(dir, texts);
      log.printf(Locale.ROOT, "  lucene: %,d documents indexed and merged in %.1f s%n", n, secondsSince(t0));
      return lucene;
    }

    /**
     * The baseline's equivalent of the engine's request: the same number of hits and the engine's
     * default cosine floor 0.3, which LangChain4j expresses as relevance (cosine + 1) / 2.
     */
    private EmbeddingSearchRequest lcRequest(float[] q) {
      return EmbeddingSearchRequest.builder()
          .queryEmbedding(Embedding.from(q)).maxResults(o.limit()).minScore((0.3 + 1) / 2).build();
    }

    private SearchRequest request(String q, SearchMode mode) {
      return SearchRequest.builder(q).mode(mode).limit(o.limit()).build();
    }

    /**
     * Sanity checks outside the timed series: the engine and LangChain4j must rank the same vectors the
     * same way; the two full-text engines should broadly agree on the best hits.
     */
    private void checkAgreement(
        Engram engram, Grants grants, LuceneBaseline lucene, InMemoryEmbeddingStore<TextSegment> lc4j,
        List<String> textQueries, List<String> vectorQueries, List<float[]> queryVectors) throws IOException {
      int checks = Math.min(50, vectorQueries.size());
      double vecOverlap = 0;
      double ftsOverlap = 0;
      for (int i = 0; i < checks; i++) {
        List<String> e = texts(engram.search(grants, request(vectorQueries.get(i), SearchMode.VECTOR)));
        List<String> l = new ArrayList<>();
        for (EmbeddingMatch<TextSegment> m : lc4j.search(lcRequest(queryVectors.get(i))).matches()) {
          l.add(m.embedded().text());
        }
        vecOverlap += overlap(e, l);
        String q = textQueries.get(i);
        ftsOverlap += overlap(texts(engram.search(grants, request(q, SearchMode.FTS))), lucene.search(q, o.limit()));
      }
      log.printf(Locale.ROOT, "  agreement on %d queries: vector top-%d overlap %.0f%%, fts top-%d overlap %.0f%%%n",
          checks, o.limit(), 100 * vecOverlap / checks, o.limit(), 100 * ftsOverlap / checks);
      if (vecOverlap / checks < 0.95) {
        throw new IllegalStateException("the engine and LangChain4j disagree on the same vectors");
      }
    }

    private static List<String> texts(SearchResult r) {
      List<String> out = new ArrayList<>();
      for (SearchHit h : r.hits()) {
        out.add(h.entry().content());
      }
      return out;
    }

    private static double overlap(List<String> a, List<String> b) {
      if (a.isEmpty() && b.isEmpty()) {
        return 1;
      }
      Set<String> s = new HashSet<>(a);
      int common = 0;
      for (String x : b) {
        if (s.contains(x)) {
          common++;
        }
      }
      return (double) common / Math.max(a.size(), b.size());
    }

    @FunctionalInterface
    interface Call {
      Object run(String query) throws IOException;
    }

    /**
     * Runs the warm-up then the measured queries, each query through {@code engine} then {@code
     * baseline} (the order flips every query), timing every call.
     */
    private Latencies[] alternate(List<String> queries, Call engine, Call baseline) throws IOException {
      Latencies e = new Latencies(o.measured());
      Latencies b = new Latencies(o.measured());
      long sink = 0;
      for (int i = 0; i < o.warmup() + o.measured(); i++) {
        String q = queries.get(i);
        boolean measure = i >= o.warmup();
        boolean engineFirst = (i & 1) == 0;
        for (int step = 0; step < 2; step++) {
          boolean isEngine = (step == 0) == engineFirst;
          Call c = isEngine ? engine : baseline;
          if (c == null) {
            continue;
          }
          long t = System.nanoTime();
          Object r = c.run(q);
          long dt = System.nanoTime() - t;
          sink += r == null ? 0 : 1;
          if (measure) {
            (isEngine ? e : b).add(dt);
          }
        }
      }
      if (sink < 0) {
        log.println(sink);
      }
      return new Latencies[] {e, b};
    }

    private void report(int n, String channel, Latencies engine, String baseline, Latencies base) {
      if (base == null) {
        log.printf(Locale.ROOT, "  %-36s engram p50 %7.2f ms  p99 %7.2f ms%n", channel, engine.p50(), engine.p99());
      } else {
        log.printf(Locale.ROOT, "  %-36s engram p50 %7.2f ms  p99 %7.2f ms | %s p50 %7.2f ms  p99 %7.2f ms"
            + " | ratio p50 %.2f  p99 %.2f%n", channel, engine.p50(), engine.p99(), baseline, base.p50(), base.p99(),
            engine.p50() / base.p50(), engine.p99() / base.p99());
      }
    }

    private String table() {
      StringBuilder sb = new StringBuilder();
      sb.append("| entries | channel | Engram p50 | Engram p99 | baseline | baseline p50 | baseline p99 | ratio p50 | ratio p99 |\n");
      sb.append("|--:|---|--:|--:|---|--:|--:|--:|--:|\n");
      for (Row r : rows) {
        boolean ratio = r.base() != null;
        sb.append(String.format(Locale.ROOT, "| %,d | %s | %.2f ms | %.2f ms | %s | %s | %s | %s | %s |%n",
            r.entries(), r.channel(), r.engram().p50(), r.engram().p99(),
            r.baseline().isEmpty() ? "–" : r.baseline(),
            r.base() == null ? "–" : String.format(Locale.ROOT, "%.2f ms", r.base().p50()),
            r.base() == null ? "–" : String.format(Locale.ROOT, "%.2f ms", r.base().p99()),
            ratio ? String.format(Locale.ROOT, "%.2f", r.engram().p50() / r.base().p50()) : "–",
            ratio ? String.format(Locale.ROOT, "%.2f", r.engram().p99() / r.base().p99()) : "–"));
      }
      sb.append('\n');
      recalls.forEach((n, r) -> sb.append(String.format(Locale.ROOT,
          "recall@%d of the one-bit first pass against the exact scan at %,d entries: %.4f%n", o.limit(), n, r)));
      return sb.toString();
    }
  }

  /** Embeds texts in batches of 64 (the model spreads each batch over its executor). */
  private static List<float[]> embedAll(Embedder model, List<String> texts) {
    List<float[]> out = new ArrayList<>(texts.size());
    for (int i = 0; i < texts.size(); i += 64) {
      out.addAll(model.embed(texts.subList(i, Math.min(texts.size(), i + 64))));
    }
    return out;
  }

  /**
   * Vectors for {@code n} texts: the pool's own MiniLM vectors first, then for every further text the
   * unit-length sum of one pool vector, half of another, and seeded Gaussian noise (sigma 0.02 per
   * value). Deterministic for a seed and pool.
   */
  static float[][] derive(List<float[]> pool, int n, long seed) {
    int dim = pool.get(0).length;
    float[][] out = new float[n][];
    Random random = new Random(seed * 31 + 7);
    for (int i = 0; i < n; i++) {
      if (i < pool.size()) {
        out[i] = pool.get(i);
        continue;
      }
      float[] a = pool.get(random.nextInt(pool.size()));
      float[] b = pool.get(random.nextInt(pool.size()));
      float[] v = new float[dim];
      double norm = 0;
      for (int d = 0; d < dim; d++) {
        v[d] = a[d] + 0.5f * b[d] + (float) (0.02 * random.nextGaussian());
        norm += (double) v[d] * v[d];
      }
      float inv = (float) (1 / Math.sqrt(norm));
      for (int d = 0; d < dim; d++) {
        v[d] *= inv;
      }
      out[i] = v;
    }
    return out;
  }

  /** The system load average over the last minute, or -1 where the platform has none. */
  static double loadAverage() {
    return ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
  }

  private static double secondsSince(long t0) {
    return (System.nanoTime() - t0) / 1e9;
  }

  private static void deleteTree(Path dir) {
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> {
        try {
          Files.delete(p);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      });
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
