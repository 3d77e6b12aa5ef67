/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.benchmarks.retrieval;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import dev.engram.Engram;
import dev.engram.FlushReport;
import dev.engram.reasoner.DeterministicReasoner;
import dev.engram.EngramBuilder;
import dev.engram.Grants;
import dev.engram.InvalidInputException;
import dev.engram.SearchHit;
import dev.engram.SearchMode;
import dev.engram.SearchRequest;
import dev.engram.SearchSettings;
import dev.engram.benchmarks.retrieval.LocomoFile.Conversation;
import dev.engram.benchmarks.retrieval.LocomoFile.Question;
import dev.engram.embeddings.e5.E5SmallEmbedder;
import dev.engram.embeddings.minilm.MiniLmEmbedder;
import dev.engram.spi.EmbeddingProfile;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.StoreCapability;
import dev.engram.store.inmemory.InMemoryMemoryStore;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * {@code retrieval}: ingests every turn of a LoCoMo-layout conversation file through the public API (one
 * scope per conversation, the turn's dia_id as the entry's evidence) — by default as an application
 * would, {@code captureAll} of the turns and {@code flush} with the {@code DeterministicReasoner} and the
 * library's defaults — runs every question through
 * {@link Engram#search}, and writes the rankings as a JSON object {@code "<sample_id>#<qa index>" ->
 * [dia_id, ...]}, the input of {@code score_retrieval.py --score-rankings}.
 */
public final class RetrievalCommand {
  public static final String SUMMARY =
      "retrieval quality: --data FILE --mode fts|vector|hybrid|auto --out rankings.json [--k 50] [--store inmemory|sqlite]";

  private RetrievalCommand() {}

  /** Parsed options; {@link #parse} validates them. */
  record Options(
      Path data, SearchMode mode, Path out, int k, String store, @Nullable Path db, int threads,
      @Nullable Path embeddingCache, boolean captions, SearchSettings settings,
      String embedder, @Nullable Path dumpScores) {}

  static final class UsageException extends Exception {
    private static final long serialVersionUID = 1L;

    UsageException(String message) {
      super(message);
    }
  }

  public static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
    Options o;
    try {
      if (List.of(args).contains("--help") || List.of(args).contains("-h")) {
        usage(out);
        return 0;
      }
      o = parse(args);
    } catch (UsageException e) {
      err.println("retrieval: " + e.getMessage());
      usage(err);
      return 2;
    }
    try {
      return new Run(o, err).call();
    } catch (StoreUnsupportedException e) {
      err.println("retrieval: " + e.getMessage());
      return 1;
    }
  }

  static void usage(PrintStream to) {
    to.println("usage: java -jar memory-benchmarks.jar retrieval --data FILE --mode fts|vector|hybrid --out FILE [options]");
    to.println();
    to.println("  --data FILE            conversations in the LoCoMo layout (e.g. ../shared/data/realtalk.json)");
    to.println("  --mode MODE            fts, vector, hybrid or auto (vector, hybrid and auto embed, offline)");
    to.println("  --out FILE             where to write the rankings JSON");
    to.println("  --k N                  dia_ids per question (1..200, default 50)");
    to.println("  --store NAME           inmemory (default) or sqlite");
    to.println("  --db FILE              the SQLite file for --store sqlite (default: a temporary file, deleted after)");
    to.println("  --threads N            conversations ingested and searched in parallel (default: processors)");
    to.println("  --embedding-cache FILE keep text vectors in FILE between runs (rankings are identical)");
    to.println("  --embedder NAME        e5 (e5-small-v2, default) or minilm (all-MiniLM-L6-v2), both offline");
    to.println();
    to.println("what is captured per turn:");
    to.println("  --captions on|off      append the shared image's caption to the turn (default on)");
    to.println();
    to.println("search settings (SearchSettings):");
    to.println("  (defaults: SearchSettings.defaults(), what an application gets)");
    to.println("  --fusion score|rrf     score fusion (the default) or reciprocal rank fusion");
    to.println("  --fts-weight W         weight of the full-text channel in fusion");
    to.println("  --vector-weight W      weight of the vector channel in fusion");
    to.println("  --rrf-k K              the reciprocal-rank-fusion constant");
    to.println("  --depth N              candidates per channel before fusion");
    to.println("  --floor COSINE|profile vector admission floor (default: the embedder profile's)");
    to.println("  --embed-timeout MS     query embedding timeout (default: the library's, 2 s)");
    to.println("  --time-boost B         boost of hits dated in the time a question refers to, 0..1 (0 = off;");
    to.println("                         default: the library's); relative references count from the end of the");
    to.println("                         conversation's last session day");
    to.println("  --key-fts-weight W     weight of the full-text arm over retrieval keys (0 = off)");
    to.println("  --key-vector-weight W  weight of the vector arm over retrieval keys (0 = off)");
    to.println("  --speaker-boost B      boost of hits said by a participant the question names, 0..1");
    to.println("  --session-boost B      boost of hits from sessions holding strong hits, 0..1");
    to.println("  --term-coverage S      share of the question's terms a full-text hit must hold, 0..1 (default 0)");
    to.println("  --recency-boost B      recency bonus, 0..1 (default 0; 0.04 when only the half-life is given)");
    to.println("  --recency-half-life-days D  half-life of the recency bonus in days (default 180)");
    to.println("  --dump-scores FILE     also write every hit's score, channel ranks and cosine (for offline fusion)");
  }

  static Options parse(String[] args) throws UsageException {
    Map<String, String> a = new LinkedHashMap<>();
    for (int i = 0; i < args.length; i++) {
      String key = args[i];
      if (!key.startsWith("--") || key.length() == 2) {
        throw new UsageException("unexpected argument '" + key + "'");
      }
      if (i + 1 >= args.length) {
        throw new UsageException(key + " needs a value");
      }
      if (a.put(key.substring(2), args[++i]) != null) {
        throw new UsageException(key + " was given twice");
      }
    }
    Set<String> known = Set.of("data", "mode", "out", "k", "store", "db", "threads", "embedding-cache", "embedder",
        "captions", "fts-weight", "vector-weight", "rrf-k", "depth", "floor", "embed-timeout", "dump-scores", "fusion", "time-boost",
        "key-fts-weight", "key-vector-weight", "speaker-boost", "session-boost", "term-coverage", "recency-boost",
        "recency-half-life-days");
    for (String key : a.keySet()) {
      if (!known.contains(key)) {
        throw new UsageException("unknown option --" + key);
      }
    }
    Path data = Path.of(required(a, "data"));
    if (!Files.isRegularFile(data)) {
      throw new UsageException("--data " + data + " is not a readable file");
    }
    SearchMode mode = switch (required(a, "mode").toLowerCase(Locale.ROOT)) {
      case "fts" -> SearchMode.FTS;
      case "vector" -> SearchMode.VECTOR;
      case "hybrid" -> SearchMode.HYBRID;
      case "auto" -> SearchMode.AUTO;
      default -> throw new UsageException("--mode must be fts, vector, hybrid or auto, was '" + a.get("mode") + "'");
    };
    Path out = Path.of(required(a, "out"));
    int k = intOpt(a, "k", 50, 1, SearchRequest.MAX_LIMIT);
    String store = a.getOrDefault("store", "inmemory").toLowerCase(Locale.ROOT);
    if (!store.equals("inmemory") && !store.equals("sqlite")) {
      throw new UsageException("--store must be inmemory or sqlite, was '" + store + "'");
    }
    Path db = a.containsKey("db") ? Path.of(a.get("db")) : null;
    if (db != null && !store.equals("sqlite")) {
      throw new UsageException("--db only applies to --store sqlite");
    }
    int threads = intOpt(a, "threads", Runtime.getRuntime().availableProcessors(), 1, 64);
    Path cache = a.containsKey("embedding-cache") ? Path.of(a.get("embedding-cache")) : null;
    SearchSettings.Builder settings = SearchSettings.builder();
    try {
      if (a.containsKey("floor") && !a.get("floor").strip().equals("profile")) {
        settings.vectorFloor(doubleOpt(a, "floor", 0));
      }
      if (a.containsKey("fusion")) {
        settings.fusion(switch (a.get("fusion").strip().toLowerCase(Locale.ROOT)) {
          case "score" -> SearchSettings.Fusion.SCORE;
          case "rrf" -> SearchSettings.Fusion.RECIPROCAL_RANK;
          default -> throw new UsageException("--fusion must be score or rrf, was '" + a.get("fusion") + "'");
        });
      }
      if (a.containsKey("rrf-k")) {
        settings.rrfK(intOpt(a, "rrf-k", 0, 1, 100_000));
      }
      if (a.containsKey("fts-weight")) {
        settings.ftsWeight(doubleOpt(a, "fts-weight", 0));
      }
      if (a.containsKey("vector-weight")) {
        settings.vectorWeight(doubleOpt(a, "vector-weight", 0));
      }
      if (a.containsKey("depth")) {
        settings.channelDepth(intOpt(a, "depth", 0, 10, 1000));
      }
      if (a.containsKey("time-boost")) {
        settings.timeBoost(doubleOpt(a, "time-boost", 0));
      }
      if (a.containsKey("key-fts-weight") || a.containsKey("key-vector-weight")) {
        settings.keyWeights(doubleOpt(a, "key-fts-weight", SearchSettings.KEY_FTS_WEIGHT_DEFAULT),
            doubleOpt(a, "key-vector-weight", SearchSettings.KEY_VECTOR_WEIGHT_DEFAULT));
      }
      if (a.containsKey("speaker-boost")) {
        settings.speakerBoost(doubleOpt(a, "speaker-boost", 0));
      }
      if (a.containsKey("session-boost")) {
        settings.sessionBoost(doubleOpt(a, "session-boost", 0));
      }
      if (a.containsKey("term-coverage")) {
        settings.termCoverage(doubleOpt(a, "term-coverage", 0));
      }
      if (a.containsKey("recency-boost") || a.containsKey("recency-half-life-days")) {
        settings.recencyBoost(doubleOpt(a, "recency-boost", 0.04),
            Duration.ofDays(intOpt(a, "recency-half-life-days", 180, 1, 100_000)));
      }
      if (a.containsKey("embed-timeout")) {
        settings.embedTimeout(Duration.ofMillis(intOpt(a, "embed-timeout", 0, 1, 600_000)));
      }
    } catch (IllegalArgumentException e) {
      throw new UsageException(e.getMessage());
    }
    String embedderName = a.getOrDefault("embedder", "e5");
    if (!embedderName.equals("minilm") && !embedderName.equals("e5")) {
      throw new UsageException("--embedder must be minilm or e5, was '" + embedderName + "'");
    }
    return new Options(data, mode, out, k, store, db, threads, cache, onOff(a, "captions", true),
        settings.build(), embedderName,
        a.containsKey("dump-scores") ? Path.of(a.get("dump-scores")) : null);
  }

  private static String required(Map<String, String> a, String key) throws UsageException {
    String v = a.get(key);
    if (v == null || v.isBlank()) {
      throw new UsageException("--" + key + " is required");
    }
    return v;
  }

  private static int intOpt(Map<String, String> a, String key, int def, int min, int max) throws UsageException {
    String v = a.get(key);
    if (v == null) {
      return def;
    }
    try {
      int n = Integer.parseInt(v.strip());
      if (n < min || n > max) {
        throw new UsageException("--" + key + " must be between " + min + " and " + max + ", was " + n);
      }
      return n;
    } catch (NumberFormatException e) {
      throw new UsageException("--" + key + " must be a whole number, was '" + v + "'");
    }
  }

  private static double doubleOpt(Map<String, String> a, String key, double def) throws UsageException {
    String v = a.get(key);
    if (v == null) {
      return def;
    }
    try {
      return Double.parseDouble(v.strip());
    } catch (NumberFormatException e) {
      throw new UsageException("--" + key + " must be a number, was '" + v + "'");
    }
  }

  private static boolean onOff(Map<String, String> a, String key, boolean def) throws UsageException {
    String v = a.get(key);
    if (v == null) {
      return def;
    }
    return switch (v.toLowerCase(Locale.ROOT)) {
      case "on", "true", "yes" -> true;
      case "off", "false", "no" -> false;
      default -> throw new UsageException("--" + key + " must be on or off, was '" + v + "'");
    };
  }

  /** The store cannot run the requested mode. */
  static final class StoreUnsupportedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    StoreUnsupportedException(String message) {
      super(message);
    }
  }

  /** One run: ingest, search, write. */
  private static final class Run {
    private final Options o;
    private final PrintStream log;
    private final Map<String, List<Scored>> scores = new LinkedHashMap<>();

    Run(Options o, PrintStream log) {
      this.o = o;
      this.log = log;
    }

    int call() throws Exception {
      long t0 = System.nanoTime();
      List<Conversation> conversations = LocomoFile.read(o.data());
      int turnCount = conversations.stream().mapToInt(Conversation::turnCount).sum();
      int questionCount = conversations.stream().mapToInt(c -> c.questions().size()).sum();
      log.printf("retrieval: %s: %d conversations, %d turns, %d questions; mode %s, store %s, k %d%n",
          o.data(), conversations.size(), turnCount, questionCount, o.mode().name().toLowerCase(Locale.ROOT),
          o.store(), o.k());

      Path tempDb = null;
      MemoryStore store;
      if (o.store().equals("sqlite")) {
        Path file = o.db();
        if (file == null) {
          tempDb = Files.createTempFile("engram-retrieval-", ".db");
          Files.delete(tempDb);
          file = tempDb;
        }
        store = sqliteStore(file);
      } else {
        store = new InMemoryMemoryStore();
      }
      CachingEmbedder embedder = null;
      try {
        requireCapabilities(store);
        if (o.mode() != SearchMode.FTS) {
          embedder = o.embedder().equals("e5")
              ? new CachingEmbedder(
                  new EmbeddingProfile(E5SmallEmbedder.MODEL_ID, E5SmallEmbedder.DIMENSION, E5SmallEmbedder.VECTOR_FLOOR), E5SmallEmbedder::new)
              : new CachingEmbedder(
                  new EmbeddingProfile(MiniLmEmbedder.MODEL_ID, MiniLmEmbedder.DIMENSION,
                      MiniLmEmbedder.VECTOR_FLOOR), MiniLmEmbedder::new);
          if (o.embeddingCache() != null) {
            int n = embedder.load(o.embeddingCache());
            log.printf("retrieval: %d cached vectors from %s%n", n, o.embeddingCache());
          }
        }
        Map<String, List<String>> rankings;
        try {
          rankings = runAll(store, embedder, conversations);
        } finally {
          store.close();
        }
        if (embedder != null && o.embeddingCache() != null && embedder.computed() > 0) {
          embedder.save(o.embeddingCache());
        }
        write(rankings, o.out());
        if (o.dumpScores() != null) {
          writeScores(scores, o.dumpScores());
        }
        log.printf("retrieval: wrote %d rankings to %s in %.1f s total%s%n", rankings.size(), o.out(),
            (System.nanoTime() - t0) / 1e9,
            embedder == null ? "" : " (" + embedder.computed() + " texts embedded by the model)");
        return 0;
      } finally {
        if (tempDb != null) {
          for (String suffix : List.of("", "-wal", "-shm", "-journal")) {
            Files.deleteIfExists(Path.of(tempDb + suffix));
          }
        }
      }
    }

    private void requireCapabilities(MemoryStore store) {
      Set<StoreCapability> caps = store.capabilities();
      String name = store.getClass().getSimpleName();
      if (!caps.contains(StoreCapability.SOURCES)) {
        store.close();
        throw new StoreUnsupportedException("--store " + o.store() + ": " + name
            + " does not declare SOURCES, so the harness cannot capture turns on it (its capabilities: " + caps + ")");
      }
      if ((o.mode() == SearchMode.FTS || o.mode() == SearchMode.HYBRID) && !caps.contains(StoreCapability.FULL_TEXT_SEARCH)) {
        store.close();
        throw new StoreUnsupportedException("--store " + o.store() + ": " + name
            + " does not declare FULL_TEXT_SEARCH, so --mode " + o.mode().name().toLowerCase(Locale.ROOT)
            + " cannot run on it (its capabilities: " + caps + ")");
      }
      if ((o.mode() == SearchMode.VECTOR || o.mode() == SearchMode.HYBRID) && !caps.contains(StoreCapability.VECTOR_STORAGE)) {
        store.close();
        throw new StoreUnsupportedException("--store " + o.store() + ": " + name
            + " does not declare VECTOR_STORAGE, so --mode " + o.mode().name().toLowerCase(Locale.ROOT)
            + " cannot run on it (its capabilities: " + caps + ")");
      }
    }

    private Map<String, List<String>> runAll(
        MemoryStore store, @Nullable CachingEmbedder embedder, List<Conversation> conversations) throws Exception {
      long t0 = System.nanoTime();
      AtomicInteger written = new AtomicInteger();
      AtomicInteger deduped = new AtomicInteger();
      Map<String, List<String>> all = new LinkedHashMap<>();
      ExecutorService pool = Executors.newFixedThreadPool(Math.min(o.threads(), Math.max(1, conversations.size())));
      try {
        List<Future<Map<String, List<String>>>> futures = new ArrayList<>();
        for (Conversation c : conversations) {
          futures.add(pool.submit(() -> captured(store, embedder, c, written, deduped)));
        }
        for (Future<Map<String, List<String>>> f : futures) {
          all.putAll(f.get());
        }
      } finally {
        pool.shutdownNow();
      }
      log.printf("retrieval: %d turns written (%d deduplicated onto an equal turn), %d questions searched in %.1f s%n",
          written.get(), deduped.get(), all.size(), (System.nanoTime() - t0) / 1e9);
      return all;
    }

    /**
     * Captures the conversation's turns and flushes them with the library's extraction, then searches,
     * with an engine of its own over the shared store. The engine is not closed, since closing an engine
     * closes its store.
     */
    private Map<String, List<String>> captured(
        MemoryStore store, @Nullable CachingEmbedder embedder, Conversation c, AtomicInteger written,
        AtomicInteger deduped) {
      EngramBuilder builder = Engram.builder().store(store).reasoner(new DeterministicReasoner())
          .searchSettings(o.settings());
      if (embedder != null) {
        builder.embedder(embedder);
      }
      Engram engram = builder.build();
      Grants grants = Grants.of(scopeOf(c.sampleId()));
      engram.captureAll(grants, TurnSources.records(c, o.captions()));
      FlushReport report = engram.flush(grants);
      written.addAndGet(report.appended() + report.deduped());
      deduped.addAndGet(report.deduped());
      Map<String, List<String>> out = new LinkedHashMap<>();
      for (Question q : c.questions()) {
        // the question as asked, whitespace collapsed: what an application passes on
        String query = q.question().replaceAll("\\s+", " ").strip();
        out.put(q.key(), search(engram, grants, q.key(), query, TurnSources.referenceTime(c)));
      }
      return out;
    }

    private List<String> search(
        Engram engram, Grants grants, String key, String query, java.time.@Nullable Instant reference) {
      List<SearchHit> hits;
      try {
        hits = engram.search(grants, SearchRequest.builder(query).mode(o.mode()).limit(o.k()).referenceTime(reference)
            .build()).hits();
      } catch (InvalidInputException e) {
        return List.of();
      }
      if (o.dumpScores() != null) {
        List<Scored> scored = new ArrayList<>();
        for (SearchHit h : hits) {
          scored.add(new Scored(h.entry().evidence(), h.score(), h.ftsRank(), h.vectorRank(), h.cosine()));
        }
        synchronized (scores) {
          scores.put(key, scored);
        }
      }
      LinkedHashSet<String> ranked = new LinkedHashSet<>();
      for (SearchHit h : hits) {
        for (String id : h.entry().evidence()) {
          if (ranked.size() < o.k()) {
            ranked.add(id);
          }
        }
      }
      return List.copyOf(ranked);
    }
  }

  /** The scope of one conversation: {@code bench/locomo/<sample_id>} with unusable characters replaced. */
  static String scopeOf(String sampleId) {
    String seg = sampleId.strip().replaceAll("[\\s/\\\\*\\p{Cntrl}]+", "_");
    if (seg.isEmpty() || seg.equals(".") || seg.equals("..")) {
      seg = "_" + seg;
    }
    return "bench/locomo/" + seg;
  }

  private static MemoryStore sqliteStore(Path file) {
    String type = "dev.engram.store.sqlite.SqliteMemoryStore";
    try {
      Class<?> c = Class.forName(type);
      Constructor<?> ctor = c.getConstructor(Path.class);
      return (MemoryStore) ctor.newInstance(file);
    } catch (ClassNotFoundException | NoSuchMethodException e) {
      throw new StoreUnsupportedException(
          "--store sqlite: " + type + "(Path) is not on the class path of this build (" + e + ")");
    } catch (InvocationTargetException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      throw new StoreUnsupportedException("--store sqlite: opening " + file + " failed: " + cause);
    } catch (ReflectiveOperationException e) {
      throw new StoreUnsupportedException("--store sqlite: " + type + " could not be created: " + e);
    }
  }

  /** One hit as {@code --dump-scores} writes it, for re-fusing channels offline. */
  record Scored(List<String> ids, double score, @Nullable Integer ftsRank, @Nullable Integer vectorRank,
      @Nullable Double cosine) {}

  /** {@code {"<key>": [[[dia_id, ...], score, ftsRank, vectorRank, cosine], ...]}}, nulls as JSON null. */
  static void writeScores(Map<String, List<Scored>> scores, Path out) throws IOException {
    try (OutputStream os = Files.newOutputStream(out);
        JsonGenerator g = new JsonFactory().createGenerator(os, JsonEncoding.UTF8)) {
      g.writeStartObject();
      for (Map.Entry<String, List<Scored>> e : scores.entrySet()) {
        g.writeRaw('\n');
        g.writeArrayFieldStart(e.getKey());
        for (Scored s : e.getValue()) {
          g.writeStartArray();
          g.writeStartArray();
          for (String id : s.ids()) {
            g.writeString(id);
          }
          g.writeEndArray();
          g.writeNumber(s.score());
          if (s.ftsRank() == null) {
            g.writeNull();
          } else {
            g.writeNumber(s.ftsRank());
          }
          if (s.vectorRank() == null) {
            g.writeNull();
          } else {
            g.writeNumber(s.vectorRank());
          }
          if (s.cosine() == null) {
            g.writeNull();
          } else {
            g.writeNumber(s.cosine());
          }
          g.writeEndArray();
        }
        g.writeEndArray();
      }
      g.writeRaw('\n');
      g.writeEndObject();
    }
  }

  static void write(Map<String, List<String>> rankings, Path out) throws IOException {
    Path parent = out.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    try (OutputStream os = Files.newOutputStream(out);
        JsonGenerator g = new JsonFactory().createGenerator(os, JsonEncoding.UTF8)) {
      g.writeStartObject();
      for (Map.Entry<String, List<String>> e : rankings.entrySet()) {
        g.writeRaw('\n');
        g.writeArrayFieldStart(e.getKey());
        for (String id : e.getValue()) {
          g.writeString(id);
        }
        g.writeEndArray();
      }
      g.writeRaw('\n');
      g.writeEndObject();
      g.writeRaw('\n');
    }
  }
}
