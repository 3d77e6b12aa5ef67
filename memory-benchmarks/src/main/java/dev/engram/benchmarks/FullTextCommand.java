/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.benchmarks;

import dev.engram.Engram;
import dev.engram.Grants;
import dev.engram.WriteOptions;
import dev.engram.WriteRequest;
import dev.engram.benchmarks.search.Latencies;
import dev.engram.reasoner.DeterministicReasoner;
import dev.engram.reasoner.llm.LlmReasoner;
import dev.engram.reasoner.llm.ModelConfig;
import dev.engram.reasoner.llm.ModelUsage;
import dev.engram.spi.FullTextQuery;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.ScoredEntry;
import dev.engram.spi.TextAnalysis;
import dev.engram.store.postgres.PostgresMemoryStore;
import dev.engram.store.sqlite.SqliteMemoryStore;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import javax.sql.DataSource;

/**
 * Full-text cost against the size of one scope, on the durable stores: search p50 where the query's
 * terms are common (the bounded ranking against a store that ranks every hit, as the stores did before
 * the bound, on the same data) with the overlap of their top 10, and the write cost with a context-using
 * reasoner (the LLM reasoner against a loopback model that answers at once) as the scope grows.
 *
 * <pre>
 * java -jar memory-benchmarks.jar fulltext [--stores sqlite,postgres] [--part search|writes|all]
 *     [--sizes 10000,100000] [--queries 300] [--write-sizes 1000,4000,16000,64000] [--writes 200]
 *     [--candidates 0] [--url JDBC_URL]
 * </pre>
 *
 * <p>{@code --candidates} sets the stores' bound for the write series (0: rank every hit, the ranking as
 * it was before the bound); the search series always runs both.
 */
public final class FullTextCommand {
  /** One line for the command list. */
  public static final String SUMMARY = "full-text search p50 and context-reasoner write cost against scope size";

  private static final String SCOPE = "app/user/u1";
  private static final Grants GRANTS = Grants.of(SCOPE);
  /** The vocabulary of the LLM reasoner benchmark: every word is in about one sentence of nine. */
  private static final String[] WORDS = ("running cycling swimming piano guitar jazz blues coffee tea garden kettlebell "
      + "dumbbells bench marathon sunday monday tuesday dentist doctor sister brother daughter dog cat kitchen "
      + "office laptop train bus bicycle mountain lake river ocean book novel poetry chess football tennis rugby "
      + "bread pasta rice curry salad soup spring summer autumn winter morning evening night").split(" ");

  private FullTextCommand() {}

  private static final class Options {
    List<String> stores = List.of("sqlite", "postgres");
    String part = "all";
    List<Integer> sizes = List.of(10_000, 100_000);
    int queries = 300;
    List<Integer> writeSizes = List.of(1_000, 4_000, 16_000, 64_000);
    int writes = 200;
    int candidates = -1;
    String url = System.getenv("ENGRAM_PG_URL");
  }

  /** Runs the command; see the class comment for its options. */
  public static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
    Options o = new Options();
    for (int i = 0; i < args.length; i++) {
      if (args[i].equals("--help") || args[i].equals("-h")) {
        out.println("usage: fulltext [--stores sqlite,postgres] [--part search|writes|all] [--sizes 10000,100000]"
            + " [--queries 300] [--write-sizes 1000,4000,16000,64000] [--writes 200] [--candidates N] [--url JDBC]");
        return 0;
      }
      if (i + 1 >= args.length) {
        err.println("option " + args[i] + " needs a value");
        return 2;
      }
      String v = args[++i];
      switch (args[i - 1]) {
        case "--stores" -> o.stores = List.of(v.split(","));
        case "--part" -> o.part = v;
        case "--sizes" -> o.sizes = ints(v);
        case "--queries" -> o.queries = Integer.parseInt(v);
        case "--write-sizes" -> o.writeSizes = ints(v);
        case "--writes" -> o.writes = Integer.parseInt(v);
        case "--candidates" -> o.candidates = Integer.parseInt(v);
        case "--url" -> o.url = v;
        default -> {
          err.println("unknown option " + args[i - 1]);
          return 2;
        }
      }
    }
    EmbeddedPostgres embedded = null;
    try {
      if (o.stores.contains("postgres") && (o.url == null || o.url.isBlank())) {
        embedded = EmbeddedPostgres.builder().start();
        o.url = embedded.getJdbcUrl("postgres", "postgres");
      }
      out.println("# full-text cost against scope size");
      out.println("java " + System.getProperty("java.version") + ", " + Runtime.getRuntime().availableProcessors()
          + " processors, max heap " + Runtime.getRuntime().maxMemory() / (1 << 20) + " MiB");
      if (!o.part.equals("writes")) {
        out.println();
        out.println("| store | entries | query terms | bounded p50 | bounded p99 | every hit p50 | every hit p99"
            + " | top-10 overlap |");
        out.println("|---|--:|---|--:|--:|--:|--:|--:|");
        for (String kind : o.stores) {
          for (int size : o.sizes) {
            searchSeries(out, kind, o, size);
          }
        }
      }
      if (!o.part.equals("search")) {
        out.println();
        out.println("| store | candidates | entries in scope | write p50 | write mean | write p99"
            + " | write p50 without the model call |");
        out.println("|---|--:|--:|--:|--:|--:|--:|");
        for (String kind : o.stores) {
          writeSeries(out, kind, o);
        }
      }
      return 0;
    } finally {
      if (embedded != null) {
        embedded.close();
      }
    }
  }

  private static List<Integer> ints(String v) {
    List<Integer> out = new ArrayList<>();
    for (String s : v.split(",")) {
      out.add(Integer.parseInt(s.trim()));
    }
    return out;
  }

  /** A store of {@code kind} over one database, with the given bound (-1: the store's default). */
  private static MemoryStore store(String kind, Object db, int candidates) {
    if (kind.equals("sqlite")) {
      SqliteMemoryStore.Builder b = SqliteMemoryStore.builder((Path) db);
      if (candidates >= 0) {
        b.fullTextCandidates(candidates);
      }
      return b.build();
    }
    PostgresMemoryStore.Builder b = PostgresMemoryStore.builder().dataSource((DataSource) db)
        .schema("bench_" + Integer.toHexString(System.identityHashCode(db)));
    if (candidates >= 0) {
      b.fullTextCandidates(candidates);
    }
    return b.build();
  }

  /** A new, empty database of {@code kind}: a file, or a pool on a fresh schema of the server. */
  private static Object database(String kind, Options o) throws Exception {
    if (kind.equals("sqlite")) {
      return Files.createTempDirectory("engram-fulltext").resolve("bench.db");
    }
    if (!kind.equals("postgres")) {
      throw new IllegalArgumentException("--stores takes sqlite and postgres, was " + kind);
    }
    com.zaxxer.hikari.HikariConfig config = new com.zaxxer.hikari.HikariConfig();
    config.setJdbcUrl(o.url);
    config.setMaximumPoolSize(4);
    return new com.zaxxer.hikari.HikariDataSource(config);
  }

  private static void closeDatabase(Object db) {
    if (db instanceof AutoCloseable c) {
      try {
        c.close();
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }
  }

  /** A sentence of 60-120 characters from {@link #WORDS}, made unique by its number. */
  private static String sentence(Random r, int n) {
    StringBuilder s = new StringBuilder("The user mentioned");
    int words = 6 + r.nextInt(8);
    for (int i = 0; i < words; i++) {
      s.append(' ').append(WORDS[r.nextInt(WORDS.length)]);
    }
    return s.append(" (note ").append(n).append(").").toString();
  }

  private static String topic(int i) {
    return List.of("fitness", "music", "food", "family", "travel", "work", "hobbies", "health").get(i % 8);
  }

  /** Writes sentences {@code from} to {@code to} through the deterministic reasoner, in batches. */
  private static void load(Engram e, Random r, int from, int to) {
    for (int start = from; start < to; start += 1000) {
      List<WriteRequest> batch = new ArrayList<>();
      for (int i = start; i < Math.min(to, start + 1000); i++) {
        batch.add(WriteRequest.of(sentence(r, i), WriteOptions.builder().topicsHint(topic(i)).build()));
      }
      e.writeAll(GRANTS, batch);
    }
  }

  private static void searchSeries(PrintStream out, String kind, Options o, int size) throws Exception {
    Object db = database(kind, o);
    try (MemoryStore bounded = store(kind, db, -1);
        MemoryStore full = store(kind, db, 0);
        Engram e = Engram.builder().borrowedStore(bounded).reasoner(new DeterministicReasoner()).build()) {
      long t0 = System.nanoTime();
      load(e, new Random(7), 0, size);
      System.err.printf(Locale.ROOT, "%s: loaded %d entries in %.1f s%n", kind, size, (System.nanoTime() - t0) / 1e9);
      for (int terms : new int[] {2, 4}) {
        Random r = new Random(11 + terms);
        List<FullTextQuery> queries = new ArrayList<>();
        for (int q = 0; q < o.queries; q++) {
          StringBuilder text = new StringBuilder(terms == 2 ? "user" : "user mentioned");
          for (int w = 0; w < (terms == 2 ? 1 : 2); w++) {
            text.append(' ').append(WORDS[r.nextInt(WORDS.length)]);
          }
          queries.add(new FullTextQuery(TextAnalysis.queryTerms(text.toString(), FullTextQuery.MAX_TERMS), Set.of(),
              Set.of()));
        }
        for (FullTextQuery q : queries.subList(0, Math.min(50, queries.size()))) {
          bounded.searchFullText(List.of(SCOPE), q, 10);
          full.searchFullText(List.of(SCOPE), q, 10);
        }
        Latencies boundedTimes = new Latencies(queries.size());
        Latencies fullTimes = new Latencies(queries.size());
        double overlap = 0;
        for (int q = 0; q < queries.size(); q++) {
          FullTextQuery query = queries.get(q);
          List<ScoredEntry> a;
          List<ScoredEntry> b;
          if (q % 2 == 0) {
            long s = System.nanoTime();
            a = bounded.searchFullText(List.of(SCOPE), query, 10);
            boundedTimes.add(System.nanoTime() - s);
            s = System.nanoTime();
            b = full.searchFullText(List.of(SCOPE), query, 10);
            fullTimes.add(System.nanoTime() - s);
          } else {
            long s = System.nanoTime();
            b = full.searchFullText(List.of(SCOPE), query, 10);
            fullTimes.add(System.nanoTime() - s);
            s = System.nanoTime();
            a = bounded.searchFullText(List.of(SCOPE), query, 10);
            boundedTimes.add(System.nanoTime() - s);
          }
          Set<String> expected = new HashSet<>();
          for (ScoredEntry h : b) {
            expected.add(h.entry().versionId());
          }
          int shared = 0;
          for (ScoredEntry h : a) {
            shared += expected.contains(h.entry().versionId()) ? 1 : 0;
          }
          overlap += expected.isEmpty() ? 1 : shared / (double) expected.size();
        }
        out.printf(Locale.ROOT, "| %s | %,d | %s | %.2f ms | %.2f ms | %.2f ms | %.2f ms | %.0f %% |%n", kind, size,
            terms == 2 ? "2 (one in every entry, one in 1 of 9)" : "4 (two in every entry, two in 1 of 9)",
            boundedTimes.percentileMillis(0.5), boundedTimes.percentileMillis(0.99),
            fullTimes.percentileMillis(0.5), fullTimes.percentileMillis(0.99), 100 * overlap / queries.size());
        out.flush();
      }
    } finally {
      closeDatabase(db);
    }
  }

  private static void writeSeries(PrintStream out, String kind, Options o) throws Exception {
    Object db = database(kind, o);
    LlmReasonerBenchmark.InstantModel model = LlmReasonerBenchmark.InstantModel.start();
    List<ModelUsage> usage = new java.util.concurrent.CopyOnWriteArrayList<>();
    try (MemoryStore store = store(kind, db, o.candidates);
        Engram seed = Engram.builder().borrowedStore(store).reasoner(new DeterministicReasoner()).build();
        Engram e = Engram.builder().borrowedStore(store).reasoner(LlmReasoner.builder()
            .tagger(ModelConfig.openAiCompatible("bench-model").baseUrl(model.baseUrl()))
            .usageListener(usage::add).environment(Map.of()).build()).build()) {
      Random r = new Random(5);
      int have = 0;
      int n = 1_000_000;
      for (int size : o.writeSizes) {
        long t0 = System.nanoTime();
        load(seed, r, have, size);
        have = Math.max(have, size);
        System.err.printf(Locale.ROOT, "%s: scope at %d entries (%.1f s)%n", kind, have, (System.nanoTime() - t0) / 1e9);
        for (int i = 0; i < 50; i++) {
          e.write(GRANTS, sentence(r, n++), WriteOptions.builder().topicsHint(topic(i)).build());
        }
        Latencies times = new Latencies(o.writes);
        Latencies engine = new Latencies(o.writes);
        double total = 0;
        for (int i = 0; i < o.writes; i++) {
          String text = sentence(r, n++);
          usage.clear();
          long s = System.nanoTime();
          e.write(GRANTS, text, WriteOptions.builder().topicsHint(topic(i)).build());
          long elapsed = System.nanoTime() - s;
          long modelNanos = 0;
          for (ModelUsage u : usage) {
            modelNanos += u.latency().toNanos();
          }
          times.add(elapsed);
          engine.add(Math.max(0, elapsed - modelNanos));
          total += elapsed / 1e6;
        }
        have += o.writes + 50;
        out.printf(Locale.ROOT, "| %s | %s | %,d | %.2f ms | %.2f ms | %.2f ms | %.2f ms |%n", kind,
            o.candidates < 0 ? "default" : o.candidates == 0 ? "0 (every hit)" : String.valueOf(o.candidates), size,
            times.percentileMillis(0.5), total / o.writes, times.percentileMillis(0.99), engine.percentileMillis(0.5));
        out.flush();
      }
    } finally {
      model.close();
      closeDatabase(db);
    }
  }
}
