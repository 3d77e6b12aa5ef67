/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.internal;

import dev.engram.ProtectedNamespace;
import dev.engram.SearchSettings;
import dev.engram.WritePolicy;
import dev.engram.spi.Embedder;
import org.jspecify.annotations.Nullable;
import java.time.Clock;
import java.util.List;

/** Frozen engine settings, made by {@link dev.engram.EngramBuilder}. */
public record EngineConfig(
    Clock clock,
    int maxContentBytes,
    int corePriorityCap,
    int keyPriorityCap,
    WritePolicy writePolicy,
    List<ProtectedNamespace> protectedNamespaces,
    @Nullable Embedder embedder,
    SearchSettings search,
    dev.engram.spi.@Nullable Reranker reranker,
    Vectors vectors,
    java.util.Set<dev.engram.ReviewKind> reviewed) {
  public EngineConfig {
    protectedNamespaces = List.copyOf(protectedNamespaces);
    java.util.Objects.requireNonNull(vectors, "vectors");
    reviewed = java.util.Set.copyOf(reviewed);
  }

  /** Without review of curation or extraction. */
  public EngineConfig(Clock clock, int maxContentBytes, int corePriorityCap, int keyPriorityCap, WritePolicy writePolicy,
      List<ProtectedNamespace> protectedNamespaces, @Nullable Embedder embedder, SearchSettings search,
      dev.engram.spi.@Nullable Reranker reranker, Vectors vectors) {
    this(clock, maxContentBytes, corePriorityCap, keyPriorityCap, writePolicy, protectedNamespaces, embedder, search,
        reranker, vectors, java.util.Set.of());
  }

  /** Whether changes of {@code kind} wait for review (experience always does). */
  public boolean reviews(dev.engram.ReviewKind kind) {
    return kind == dev.engram.ReviewKind.EXPERIENCE || reviewed.contains(kind);
  }

  /** Without a reranker and with the default vector settings. */
  public EngineConfig(Clock clock, int maxContentBytes, int corePriorityCap, int keyPriorityCap, WritePolicy writePolicy,
      List<ProtectedNamespace> protectedNamespaces, @Nullable Embedder embedder, SearchSettings search) {
    this(clock, maxContentBytes, corePriorityCap, keyPriorityCap, writePolicy, protectedNamespaces, embedder, search,
        null, Vectors.DEFAULTS);
  }

  /**
   * How the engine runs embeddings and keeps vectors.
   *
   * @param cacheBytes the bound of the vector block cache, in estimated bytes
   * @param embeddingExecutor where query and write-time embeddings run; null: a bounded pool of daemon threads
   * @param scanExecutor where slices of large vector scans run; null: a small pool of daemon threads
   * @param quantized whether large vector scans pick candidates by one-bit copies before the exact rescoring
   * @param backgroundCompletion whether a search queues the completion of a scope lacking many vectors on a
   *     background thread
   */
  public record Vectors(
      long cacheBytes, java.util.concurrent.@Nullable Executor embeddingExecutor,
      java.util.concurrent.@Nullable Executor scanExecutor, boolean quantized, boolean backgroundCompletion) {
    public static final Vectors DEFAULTS = new Vectors(VectorIndex.DEFAULT_CACHE_BYTES, null, null, true, true);
  }
}
