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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Calls the embedder, validates its untrusted output, and keeps a small cache of query vectors. */
final class Embeddings {
  private static final Logger LOG = LoggerFactory.getLogger(Embeddings.class);
  private static final int QUERY_CACHE = 512;

  /**
   * Threads that embed queries. Not the common fork-join pool: embedders block (model inference,
   * HTTP), which starves that pool and slows whatever else runs on it. Daemon threads, created on
   * demand and retired after a minute idle.
   */
  private static final Executor QUERY_THREADS = Executors.newCachedThreadPool(task -> {
    Thread t = new Thread(task, "engram-query-embedding");
    t.setDaemon(true);
    return t;
  });

  private final Embedder embedder;
  private final EmbeddingProfile profile;
  private final Map<String, float[]> queryCache =
      new LinkedHashMap<>(64, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, float[]> eldest) {
          return size() > QUERY_CACHE;
        }
      };

  Embeddings(Embedder embedder) {
    this.embedder = embedder;
    this.profile = Objects.requireNonNull(embedder.profile(), "embedder.profile()");
  }

  EmbeddingProfile profile() {
    return profile;
  }

  /** Vectors for the views of a version-to-be, or null when the embedder fails (the write goes on). */
  @Nullable PendingVectors forVersion(
      Reasoner reasoner, String content, @Nullable String disclosure, List<String> glossary, @Nullable String path,
      dev.engram.spi.@Nullable EntryViews written) {
    Map<String, String> views = Views.texts(reasoner, content, disclosure, glossary, path, written);
    try {
      List<float[]> vectors = embed(new ArrayList<>(views.values()));
      return new PendingVectors(content, disclosure, glossary, path, new ArrayList<>(views.keySet()), vectors);
    } catch (RuntimeException e) {
      LOG.warn("Embedding a new version with {} failed; it is stored without vectors until reindex: {}",
          profile.id(), e.toString());
      return null;
    }
  }

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
   * Starts embedding a query on another thread (or answers from the cache), so the caller can do
   * other work meanwhile; {@link PendingQuery#await} collects the vector.
   */
  PendingQuery startQuery(String text) {
    synchronized (queryCache) {
      float[] hit = queryCache.get(text);
      if (hit != null) {
        return new PendingQuery(text, CompletableFuture.completedFuture(hit), System.nanoTime());
      }
    }
    return new PendingQuery(text, CompletableFuture.supplyAsync(() -> validated(embedder.embedQueries(List.of(text)), List.of(text)).get(0), QUERY_THREADS),
        System.nanoTime());
  }

  /** A query embedding in flight. */
  final class PendingQuery {
    private final String text;
    private final CompletableFuture<float[]> future;
    private final long startedAt;

    private PendingQuery(String text, CompletableFuture<float[]> future, long startedAt) {
      this.text = text;
      this.future = future;
      this.startedAt = startedAt;
    }

    /** The vector, once the embedding is done; fails when it has not finished {@code timeout} after it started. */
    float[] await(Duration timeout) {
      float[] v;
      try {
        if (future.isDone()) {
          v = future.get();
        } else {
          long left = timeout.toNanos() - (System.nanoTime() - startedAt);
          v = future.get(Math.max(0, left), TimeUnit.NANOSECONDS);
        }
      } catch (TimeoutException e) {
        throw new CapabilityNotSupportedException(
            "query embedding with " + profile.id() + " did not finish within " + timeout.toMillis() + " ms");
      } catch (ExecutionException e) {
        Throwable cause = e.getCause() == null ? e : e.getCause();
        throw new CapabilityNotSupportedException("query embedding with " + profile.id() + " failed: " + cause.getMessage());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new CapabilityNotSupportedException("query embedding was interrupted");
      }
      synchronized (queryCache) {
        queryCache.put(text, v);
      }
      return v;
    }
  }

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
    float inv = (float) (1.0 / Math.sqrt(sum));
    float[] out = new float[v.length];
    for (int i = 0; i < v.length; i++) {
      out[i] = v[i] * inv;
    }
    return out;
  }

  /** Vectors computed before a transaction, bound to the version once it exists. */
  record PendingVectors(
      String content, @Nullable String disclosure, List<String> glossary, @Nullable String path,
      List<String> views, List<float[]> vectors) {

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
  }
}
