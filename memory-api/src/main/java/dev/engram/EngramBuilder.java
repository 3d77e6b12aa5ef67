/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import dev.engram.internal.EngineConfig;
import dev.engram.internal.MemoryEngine;
import dev.engram.spi.Embedder;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.Reasoner;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executor;
import org.jspecify.annotations.Nullable;

/**
 * Configures an {@link Engram}. Each setting may be given once; {@link #build()} freezes the result.
 * A builder is not thread-safe and builds one engine.
 *
 * <p><b>Ownership.</b> An {@code Engram} closes what it was handed to own and nothing else: a store
 * given with {@link #store(MemoryStore)} is closed by {@link Engram#close()}; a store given with
 * {@link #borrowedStore(MemoryStore)} stays open for its owner (several engines over one store, a
 * store managed by a container). Reasoners and embedders are never closed by the engine. Stores in
 * turn close only the pools they created themselves, never a {@code DataSource} handed to them.
 *
 * <p>Mistakes fail fast: a bad value with {@link InvalidInputException} naming the setting, a null
 * with {@link NullPointerException}, a setting given twice or a builder used again with
 * {@link IllegalStateException}.
 */
public final class EngramBuilder {
  /** Default of {@link #maxContentBytes(int)}. */
  public static final int DEFAULT_MAX_CONTENT_BYTES = 8192;
  /** Default cap on active priority-0 entries, see {@link #priorityCaps(int, int)}. */
  public static final int DEFAULT_CORE_CAP = 5;
  /** Default cap on active priority-1 entries, see {@link #priorityCaps(int, int)}. */
  public static final int DEFAULT_KEY_CAP = 15;
  /** Default of {@link #vectorCacheBytes(long)}: 256 MiB. */
  public static final long DEFAULT_VECTOR_CACHE_BYTES = 256L << 20;

  private @Nullable MemoryStore store;
  private boolean ownsStore;
  private @Nullable Reasoner reasoner;
  private @Nullable Clock clock;
  private @Nullable Integer maxContentBytes;
  private @Nullable Integer corePriorityCap;
  private @Nullable Integer keyPriorityCap;
  private @Nullable WritePolicy writePolicy;
  private final List<ProtectedNamespace> protectedNamespaces = new ArrayList<>();
  private @Nullable Embedder embedder;
  private @Nullable SearchSettings searchSettings;
  private dev.engram.spi.@Nullable Reranker reranker;
  private @Nullable Long vectorCacheBytes;
  private @Nullable Executor embeddingExecutor;
  private @Nullable Executor scanExecutor;
  private @Nullable Boolean quantizedVectorScan;
  private @Nullable Boolean backgroundVectorCompletion;
  private java.util.@Nullable Set<ReviewKind> reviewed;
  private boolean built;

  EngramBuilder() {}

  /**
   * The store, handed over: {@link Engram#close()} closes it. Set this or {@link #borrowedStore}.
   *
   * @param store the store; the engine becomes its owner
   * @return this builder
   * @throws IllegalStateException if a store was already set or the builder was used
   * @throws NullPointerException if {@code store} is null
   */
  public EngramBuilder store(MemoryStore store) {
    requireUnset("store", this.store);
    this.store = Objects.requireNonNull(store, "store");
    this.ownsStore = true;
    return this;
  }

  /**
   * The store, borrowed: {@link Engram#close()} leaves it open and its owner closes it. Set this or
   * {@link #store}.
   *
   * @param store the store, owned by the caller
   * @return this builder
   * @throws IllegalStateException if a store was already set or the builder was used
   * @throws NullPointerException if {@code store} is null
   */
  public EngramBuilder borrowedStore(MemoryStore store) {
    requireUnset("store", this.store);
    this.store = Objects.requireNonNull(store, "store");
    this.ownsStore = false;
    return this;
  }

  /**
   * The reasoner that files writes (and curates, when it can). Required.
   *
   * @param reasoner e.g. {@code new DeterministicReasoner()}
   * @return this builder
   * @throws IllegalStateException if a reasoner was already set or the builder was used
   * @throws NullPointerException if {@code reasoner} is null
   */
  public EngramBuilder reasoner(Reasoner reasoner) {
    requireUnset("reasoner", this.reasoner);
    this.reasoner = Objects.requireNonNull(reasoner, "reasoner");
    return this;
  }

  /**
   * The clock for timestamps (default: the UTC system clock).
   *
   * @param clock the clock
   * @return this builder
   * @throws IllegalStateException if a clock was already set or the builder was used
   * @throws NullPointerException if {@code clock} is null
   */
  public EngramBuilder clock(Clock clock) {
    requireUnset("clock", this.clock);
    this.clock = Objects.requireNonNull(clock, "clock");
    return this;
  }

  /**
   * The largest content accepted, in UTF-8 bytes (default 8,192).
   *
   * @param bytes between 64 and 1,048,576
   * @return this builder
   * @throws InvalidInputException if {@code bytes} is out of range
   * @throws IllegalStateException if the setting was already given or the builder was used
   */
  public EngramBuilder maxContentBytes(int bytes) {
    requireUnset("maxContentBytes", this.maxContentBytes);
    if (bytes < 64 || bytes > 1 << 20) {
      throw new InvalidInputException("maxContentBytes", "must be between 64 and 1048576, was " + bytes);
    }
    this.maxContentBytes = bytes;
    return this;
  }

  /**
   * Caps on active entries per scope (each namespace counts only its own entries) at priority 0 (default 5) and priority 1 (default 15).
   *
   * @param core the cap at priority 0, at least 0
   * @param key the cap at priority 1, at least 0
   * @return this builder
   * @throws InvalidInputException if a cap is negative
   * @throws IllegalStateException if the caps were already given or the builder was used
   */
  public EngramBuilder priorityCaps(int core, int key) {
    requireUnset("priorityCaps", this.corePriorityCap);
    if (core < 0 || key < 0) {
      throw new InvalidInputException("priorityCaps", "priority caps must be >= 0, were " + core + " and " + key);
    }
    this.corePriorityCap = core;
    this.keyPriorityCap = key;
    return this;
  }

  /**
   * The write policy (default: descendants allowed, no ancestor promotion). A per-call
   * {@link WriteOptions#writePolicy()} can only narrow it.
   *
   * @param policy the policy
   * @return this builder
   * @throws IllegalStateException if a policy was already set or the builder was used
   * @throws NullPointerException if {@code policy} is null
   */
  public EngramBuilder writePolicy(WritePolicy policy) {
    requireUnset("writePolicy", this.writePolicy);
    this.writePolicy = Objects.requireNonNull(policy, "writePolicy");
    return this;
  }

  /**
   * The embedder for the vector channel of search (default: none; search is full-text only). The
   * engine does not close it.
   *
   * @param embedder the embedder
   * @return this builder
   * @throws IllegalStateException if an embedder was already set or the builder was used
   * @throws NullPointerException if {@code embedder} is null
   */
  public EngramBuilder embedder(Embedder embedder) {
    requireUnset("embedder", this.embedder);
    this.embedder = Objects.requireNonNull(embedder, "embedder");
    return this;
  }

  /**
   * Search tuning (default {@link SearchSettings#defaults()}).
   *
   * @param settings the settings
   * @return this builder
   * @throws IllegalStateException if settings were already given or the builder was used
   * @throws NullPointerException if {@code settings} is null
   */
  public EngramBuilder searchSettings(SearchSettings settings) {
    requireUnset("searchSettings", this.searchSettings);
    this.searchSettings = Objects.requireNonNull(settings, "searchSettings");
    return this;
  }

  /**
   * Reorders every search's hits after fusion (none by default). See {@link dev.engram.spi.Reranker}.
   *
   * @param reranker the reranker
   * @return this builder
   * @throws IllegalStateException if a reranker was already given or the builder was used
   * @throws NullPointerException if {@code reranker} is null
   */
  public EngramBuilder reranker(dev.engram.spi.Reranker reranker) {
    requireUnset("reranker", this.reranker);
    this.reranker = Objects.requireNonNull(reranker, "reranker");
    return this;
  }

  /**
   * The bound of the vector block cache, in estimated bytes (default 256 MiB). The engine caches one
   * block per searched scope (the scope's vectors, their one-bit copy and the versions' text) and drops
   * the least recently used blocks beyond the bound; a scope whose block alone exceeds it is read from
   * the store on every search. {@link EngramOperator#vectorCacheStats()} reports hits and size.
   *
   * @param bytes at least 1 MiB
   * @return this builder
   * @throws InvalidInputException if {@code bytes} is below 1 MiB
   * @throws IllegalStateException if the setting was already given or the builder was used
   */
  public EngramBuilder vectorCacheBytes(long bytes) {
    requireUnset("vectorCacheBytes", this.vectorCacheBytes);
    if (bytes < 1L << 20) {
      throw new InvalidInputException("vectorCacheBytes", "must be at least 1048576, was " + bytes);
    }
    this.vectorCacheBytes = bytes;
    return this;
  }

  /**
   * Where query and write-time embeddings run. Each call is awaited for at most
   * {@link SearchSettings#embedTimeout()} and cancelled (interrupted) when late; an executor that
   * refuses a call makes it fail at once (the search falls back, the write is stored without vectors).
   * Default: an engine-owned pool of at most {@code max(2, cores)} daemon threads named
   * {@code engram-embedding-N} with 64 queued calls, stopped by {@link Engram#close()}; a hung
   * embedder can hold those threads but never makes more. An executor given here is never shut down
   * by the engine.
   *
   * @param executor the executor
   * @return this builder
   * @throws IllegalStateException if an executor was already set or the builder was used
   * @throws NullPointerException if {@code executor} is null
   */
  public EngramBuilder embeddingExecutor(Executor executor) {
    requireUnset("embeddingExecutor", this.embeddingExecutor);
    this.embeddingExecutor = Objects.requireNonNull(executor, "embeddingExecutor");
    return this;
  }

  /**
   * Where the parallel slices of large vector scans run; the searching thread scans slices too, so a
   * busy or refusing executor slows a search but never stalls it. Default: an engine-owned pool of
   * {@code cores - 1} (at least one) daemon threads named {@code engram-vector-scan-N}, stopped by
   * {@link Engram#close()}. An executor given here is never shut down by the engine.
   *
   * @param executor the executor
   * @return this builder
   * @throws IllegalStateException if an executor was already set or the builder was used
   * @throws NullPointerException if {@code executor} is null
   */
  public EngramBuilder scanExecutor(Executor executor) {
    requireUnset("scanExecutor", this.scanExecutor);
    this.scanExecutor = Objects.requireNonNull(executor, "scanExecutor");
    return this;
  }

  /**
   * Whether vector searches over many rows (4,096 or more across the searched scopes) first rank every
   * version by a one-bit copy of its vectors (the sign of each value against the block's mean; Hamming
   * distance by popcount) and rescore the best candidates (twenty per wanted result, at least 400) exactly
   * (default true). False scores every float vector exactly: the reference, slower on large scopes.
   * Smaller searches are always exact; the scores returned are always exact cosines.
   *
   * @param quantized true for the two-pass scan
   * @return this builder
   * @throws IllegalStateException if the setting was already given or the builder was used
   */
  public EngramBuilder quantizedVectorScan(boolean quantized) {
    requireUnset("quantizedVectorScan", this.quantizedVectorScan);
    this.quantizedVectorScan = quantized;
    return this;
  }

  /**
   * Whether a search that finds a scope lacking the embedder's vectors for more versions than it completes
   * itself (16: a writer without the embedder, such as a CLI or an MCP server started without one, filled
   * it) queues their completion on one background thread of the engine (default true). The scope is
   * searched by full text, and the search says so in its warnings, until that is done; then by vectors
   * again, with nobody calling {@link EngramOperator#reindex reindex}. One scope is completed at a time, in
   * batches of 32 versions, each batch stored as it is embedded; {@link Engram#close()} stops it. False
   * leaves such a scope to {@code reindex} (for an embedder billed per call, say).
   *
   * @param complete true to complete in the background
   * @return this builder
   * @throws IllegalStateException if the setting was already given or the builder was used
   */
  public EngramBuilder backgroundVectorCompletion(boolean complete) {
    requireUnset("backgroundVectorCompletion", this.backgroundVectorCompletion);
    this.backgroundVectorCompletion = complete;
    return this;
  }

  /**
   * Which model-made changes wait in the {@link Engram#review() review inbox} for a person instead of
   * applying at once. New experience always waits ({@link ReviewKind#EXPERIENCE} may be named, and changes
   * nothing); {@link ReviewKind#CURATION} makes {@code curate} queue its ops (memory stays unchanged until
   * they are approved), {@link ReviewKind#EXTRACTION} makes {@code flush} queue its memories. Default:
   * none, so curation and extraction apply at once. The store must declare
   * {@link dev.engram.spi.StoreCapability#REVIEW} ({@link #build()} checks it).
   *
   * @param kinds the kinds to review
   * @return this builder
   * @throws IllegalStateException if already set
   */
  public EngramBuilder review(ReviewKind... kinds) {
    Objects.requireNonNull(kinds, "kinds");
    requireUnset("review", reviewed);
    java.util.Set<ReviewKind> set = java.util.EnumSet.noneOf(ReviewKind.class);
    for (ReviewKind k : kinds) {
      set.add(Objects.requireNonNull(k, "kind"));
    }
    reviewed = set;
    return this;
  }

  /**
   * Adds a protected namespace; may be called several times.
   *
   * @param boundary the boundary grants must stay below
   * @return this builder
   * @throws IllegalStateException if the builder was used
   * @throws NullPointerException if {@code boundary} is null
   */
  public EngramBuilder protectNamespace(ProtectedNamespace boundary) {
    checkNotBuilt();
    protectedNamespaces.add(Objects.requireNonNull(boundary, "boundary"));
    return this;
  }

  /**
   * Builds the engine.
   *
   * @return a thread-safe engine over the store
   * @throws IllegalStateException if no store or no reasoner was set, the builder was already used, or
   *     review is turned on over a store without {@link dev.engram.spi.StoreCapability#REVIEW}
   */
  public Engram build() {
    checkNotBuilt();
    if (store == null) {
      throw new IllegalStateException("store is required: call .store(...) before build()");
    }
    if (reasoner == null) {
      throw new IllegalStateException(
          "reasoner is required: call .reasoner(...) before build() (e.g. new DeterministicReasoner())");
    }
    built = true;
    EngineConfig config = new EngineConfig(
        clock != null ? clock : Clock.systemUTC(),
        maxContentBytes != null ? maxContentBytes : DEFAULT_MAX_CONTENT_BYTES,
        corePriorityCap != null ? corePriorityCap : DEFAULT_CORE_CAP,
        keyPriorityCap != null ? keyPriorityCap : DEFAULT_KEY_CAP,
        writePolicy != null ? writePolicy : WritePolicy.defaults(),
        protectedNamespaces,
        embedder,
        searchSettings != null ? searchSettings : SearchSettings.defaults(),
        reranker,
        new EngineConfig.Vectors(vectorCacheBytes != null ? vectorCacheBytes : DEFAULT_VECTOR_CACHE_BYTES,
            embeddingExecutor, scanExecutor, quantizedVectorScan == null || quantizedVectorScan,
            backgroundVectorCompletion == null || backgroundVectorCompletion),
        reviewed == null ? java.util.Set.of() : reviewed);
    return new MemoryEngine(store, reasoner, config, ownsStore);
  }

  private void checkNotBuilt() {
    if (built) {
      throw new IllegalStateException("this builder was already used to build an Engram");
    }
  }

  private void requireUnset(String name, @Nullable Object current) {
    checkNotBuilt();
    if (current != null) {
      throw new IllegalStateException(name + " was already set to " + current);
    }
  }
}
