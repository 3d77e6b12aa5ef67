/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.internal;

import dev.engram.CapabilityNotSupportedException;
import dev.engram.MemoryEntry;
import dev.engram.spi.Embedder;
import dev.engram.spi.EmbeddingProfile;
import dev.engram.spi.Reasoner;
import dev.engram.spi.StoredVector;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Calls the embedder, validates its untrusted output, and keeps a small cache of query vectors.
 *
 * <p>Query and write-time embeddings run on the engine's embedding executor and are awaited for at
 * most the configured embed timeout: a stalled embedder never holds a search or a write longer. The
 * default executor is bounded ({@link #DEFAULT_THREADS} daemon threads named
 * {@code engram-embedding-N}, {@link #DEFAULT_QUEUE} queued calls); when it is saturated by a hung
 * embedder a new call fails at once instead of starting another thread. A late call is cancelled
 * (its thread interrupted). Reindex embeds on the caller's thread: it is an explicit, long call.
 */
final class Embeddings {
  private static final Logger LOG = LoggerFactory.getLogger(Embeddings.class);
  private static final int QUERY_CACHE = 512;
  /** Threads of the default embedding executor. */
  static final int DEFAULT_THREADS = Math.max(2, Runtime.getRuntime().availableProcessors());
  /** Calls the default embedding executor queues before it refuses new ones. */
  static final int DEFAULT_QUEUE = 64;

  private final Embedder embedder;
  private final EmbeddingProfile profile;
  private final Duration timeout;
  private final Executor executor;
  private final @Nullable ExecutorService owned;
  private final Map<String, float[]> queryCache =
      new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, float[]> eldest) {
          return size() > QUERY_CACHE;
        }
      };

  /**
   * @param executor where embeddings run; null: a bounded pool this object owns and {@link #close()} stops
   */
  Embeddings(Embedder embedder, Duration timeout, @Nullable Executor executor) {
    this.embedder = embedder;
    this.profile = Objects.requireNonNull(embedder.profile(), "embedder.profile()");
    this.timeout = Objects.requireNonNull(timeout, "timeout");
    if (executor == null) {
      ThreadPoolExecutor pool = new ThreadPoolExecutor(DEFAULT_THREADS, DEFAULT_THREADS, 30, TimeUnit.SECONDS,
          new ArrayBlockingQueue<>(DEFAULT_QUEUE), daemonThreads("engram-embedding-"));
      pool.allowCoreThreadTimeOut(true);
      this.owned = pool;
      this.executor = pool;
    } else {
      this.owned = null;
      this.executor = executor;
    }
  }

  /** Daemon threads named {@code prefix} and a number. */
  static ThreadFactory daemonThreads(String prefix) {
    AtomicInteger n = new AtomicInteger();
    return task -> {
      Thread t = new Thread(task, prefix + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    };
  }

  EmbeddingProfile profile() {
    return profile;
  }

  /** Stops the executor this object created (never one it was given). */
  void close() {
    if (owned != null) {
      owned.shutdownNow();
    }
  }

  /**
   * Vectors for the views of a version-to-be. When the embedder fails, is late or cannot be reached
   * (its executor is saturated), the result says why and carries no vectors: the write goes on without
   * them and reports it.
   */
  PendingVectors forVersion(
      Reasoner reasoner, String content, @Nullable String disclosure, List<String> glossary, @Nullable String path,
      dev.engram.spi.@Nullable EntryViews written) {
    Map<String, String> views = Views.texts(reasoner, content, disclosure, glossary, path, written);
    List<String> keys = Views.keys(written);
    List<String> texts = new ArrayList<>(views.values());
    texts.addAll(keys);
    try {
      List<float[]> vectors = new Call<>(() -> embed(texts), "embedding a new version").await(timeout);
      return new PendingVectors(content, disclosure, glossary, path, new ArrayList<>(views.keySet()),
          vectors.subList(0, views.size()), keys, vectors.subList(views.size(), vectors.size()), null);
    } catch (CapabilityNotSupportedException e) {
      return new PendingVectors(content, disclosure, glossary, path, List.of(), List.of(), keys, List.of(),
          e.getMessage());
    }
  }

  /** The profile id under which the vectors of retrieval keys are stored: the embedder's own, plus {@code #keys}. */
  static String keyProfileId(String profileId) {
    return profileId + KEY_PROFILE_SUFFIX;
  }

  /** What {@link #keyProfileId} appends to an embedder's profile id. */
  static final String KEY_PROFILE_SUFFIX = "#keys";

  /** Embeds stored texts and validates every vector; throws on any failure. */
  List<float[]> embed(List<String> texts) {
    return validated(embedder.embed(texts), texts);
  }

  private List<float[]> validated(@Nullable List<float[]> out, List<String> texts) {
    if (out == null || out.size() != texts.size()) {
      throw new IllegalStateException("embedder returned " + (out == null ? "null" : out.size() + " vectors")
          + " for " + texts.size() + " texts");
    }
    List<float[]> normalized = new ArrayList<>(out.size());
    for (float[] v : out) {
      normalized.add(normalize(v, profile.dimension()));
    }
    return normalized;
  }

  /** The query vector, within {@code timeout}. */
  float[] query(String text, Duration timeout) {
    return startQuery(text).await(timeout);
  }

  /**
   * Starts embedding a query on the embedding executor (or answers from the cache), so the caller can
   * do other work meanwhile; {@link PendingQuery#await} collects the vector.
   */
  PendingQuery startQuery(String text) {
    synchronized (queryCache) {
      float[] hit = queryCache.get(text);
      if (hit != null) {
        return new PendingQuery(text, hit, null);
      }
    }
    return new PendingQuery(text, null,
        new Call<>(() -> validated(embedder.embedQueries(List.of(text)), List.of(text)).get(0), "query embedding"));
  }

  /** A query embedding in flight. */
  final class PendingQuery {
    private final String text;
    private final float @Nullable [] cached;
    private final @Nullable Call<float[]> call;

    private PendingQuery(String text, float @Nullable [] cached, @Nullable Call<float[]> call) {
      this.text = text;
      this.cached = cached;
      this.call = call;
    }

    /** The vector, once the embedding is done; fails when it has not finished {@code timeout} after it started. */
    float[] await(Duration timeout) {
      if (cached != null || call == null) {
        return Objects.requireNonNull(cached, "cached");
      }
      float[] v = call.await(timeout);
      synchronized (queryCache) {
        queryCache.put(text, v);
      }
      return v;
    }
  }

  /**
   * One embedder call on the executor, started at construction. {@link #await} waits until
   * {@code timeout} after the start and cancels (interrupts) the call when it is late; every failure
   * becomes a {@link CapabilityNotSupportedException} saying what happened.
   */
  private final class Call<T> {
    private final FutureTask<T> task;
    private final String what;
    private final long startedAt = System.nanoTime();
    private final @Nullable String refused;

    Call(Callable<T> work, String what) {
      this.task = new FutureTask<>(work);
      this.what = what;
      String no = null;
      try {
        executor.execute(task);
      } catch (RejectedExecutionException e) {
        no = what + " with " + profile.id() + " could not start: the embedding executor is saturated"
            + " (earlier calls have not returned)";
      }
      this.refused = no;
    }

    T await(Duration timeout) {
      if (refused != null) {
        throw new CapabilityNotSupportedException(refused);
      }
      try {
        if (task.isDone()) {
          return task.get();
        }
        long left = timeout.toNanos() - (System.nanoTime() - startedAt);
        return task.get(Math.max(0, left), TimeUnit.NANOSECONDS);
      } catch (TimeoutException e) {
        task.cancel(true);
        throw new CapabilityNotSupportedException(
            what + " with " + profile.id() + " did not finish within " + timeout.toMillis() + " ms");
      } catch (ExecutionException e) {
        Throwable cause = e.getCause() == null ? e : e.getCause();
        throw new CapabilityNotSupportedException(what + " with " + profile.id() + " failed: " + cause.getMessage());
      } catch (CancellationException e) {
        throw new CapabilityNotSupportedException(what + " with " + profile.id() + " was cancelled");
      } catch (InterruptedException e) {
        task.cancel(true);
        Thread.currentThread().interrupt();
        throw new CapabilityNotSupportedException(what + " was interrupted");
      }
    }
  }

  /**
   * {@code v} scaled to length 1. Refused (never stored, never a query vector): a wrong dimension, a
   * non-finite value, the zero vector, and a vector shorter than the smallest normal float, whose
   * normalization would overflow.
   */
  static float[] normalize(float[] v, int dimension) {
    if (v == null || v.length != dimension) {
      throw new IllegalStateException("embedder returned a vector of dimension "
          + (v == null ? "null" : v.length) + ", expected " + dimension);
    }
    double sum = 0;
    for (float f : v) {
      if (!Float.isFinite(f)) {
        throw new IllegalStateException("embedder returned a non-finite value");
      }
      sum += (double) f * f;
    }
    if (sum == 0) {
      throw new IllegalStateException("embedder returned a zero vector");
    }
    double norm = Math.sqrt(sum);
    if (norm < Float.MIN_NORMAL) {
      // subnormal values carry too few bits for a direction, and 1 / norm is beyond float range
      throw new IllegalStateException("embedder returned a vector too small to normalize (length " + norm + ")");
    }
    double inv = 1.0 / norm;
    float[] out = new float[v.length];
    double check = 0;
    for (int i = 0; i < v.length; i++) {
      out[i] = (float) (v[i] * inv);
      check += (double) out[i] * out[i];
    }
    if (!(Math.abs(check - 1.0) <= 1e-3)) {
      throw new IllegalStateException("embedder returned a vector that does not normalize to length 1");
    }
    return out;
  }

  /**
   * Vectors computed before a transaction, bound to the version once it exists; or, with a non-null
   * {@code failure}, the reason there are none (the version is stored without vectors).
   */
  record PendingVectors(
      String content, @Nullable String disclosure, List<String> glossary, @Nullable String path,
      List<String> views, List<float[]> vectors, List<String> keys, List<float[]> keyVectors,
      @Nullable String failure) {

    /** Retrieval keys alone, for a wiring that stores no vectors. */
    static PendingVectors keysOnly(String content, @Nullable String disclosure, List<String> glossary,
        @Nullable String path, List<String> keys) {
      return new PendingVectors(content, disclosure, glossary, path, List.of(), List.of(), keys, List.of(), null);
    }

    /** True when the version carries exactly the texts these vectors were made from. */
    boolean matches(MemoryEntry v) {
      return v.content().equals(content) && Objects.equals(v.disclosure(), disclosure)
          && v.glossary().equals(glossary) && Objects.equals(v.path(), path);
    }

    List<StoredVector> bind(String versionId) {
      List<StoredVector> out = new ArrayList<>(views.size());
      for (int i = 0; i < views.size(); i++) {
        out.add(new StoredVector(versionId, views.get(i), vectors.get(i)));
      }
      return out;
    }

    /** The vectors of the retrieval keys, views {@code key1}, {@code key2}… */
    List<StoredVector> bindKeys(String versionId) {
      List<StoredVector> out = new ArrayList<>(keyVectors.size());
      for (int i = 0; i < keyVectors.size(); i++) {
        out.add(new StoredVector(versionId, "key" + (i + 1), keyVectors.get(i)));
      }
      return out;
    }
  }
}
