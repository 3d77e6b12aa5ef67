/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.internal;

import dev.engram.CapabilityNotSupportedException;
import dev.engram.EntryStatus;
import dev.engram.Grants;
import dev.engram.MemoryEntry;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.Reasoner;
import dev.engram.spi.StoreCapability;
import dev.engram.spi.StoredVector;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Completes the vectors of versions committed without them: {@code reindex} over the visible scopes, and
 * the small completion a search makes itself before it searches a scope that lacks only a few
 * ({@link #repaired}). Vectors are derived data: storing them makes no revision; the store's vector epoch
 * moves, so every process's block cache learns of them.
 */
final class Reindex {
  private static final Logger LOG = LoggerFactory.getLogger(Reindex.class);
  private static final int BATCH = 32;
  /** The most versions without vectors a search completes itself in a scope before it searches it. */
  static final int REPAIR_MAX = 16;

  private final MemoryStore store;
  private final Reasoner reasoner;
  private final @Nullable Embeddings embeddings;
  private final VectorIndex vectors;
  /** The scopes whose completion is queued or running on {@link #repairs}; also the lock for it. */
  private final Set<String> completing = java.util.concurrent.ConcurrentHashMap.newKeySet();
  private java.util.concurrent.@Nullable ExecutorService repairs;
  private volatile boolean closed;
  private final boolean background;

  private final ModelUsageMeter meter;

  Reindex(MemoryStore store, Reasoner reasoner, @Nullable Embeddings embeddings, VectorIndex vectors,
      ModelUsageMeter meter, boolean background) {
    this.meter = meter;
    this.background = background;
    this.store = store;
    this.reasoner = reasoner;
    this.embeddings = embeddings;
    this.vectors = vectors;
  }

  /** Embeds what the visible scopes' active versions lack; returns how many versions got vectors. */
  int reindex(Grants grants) {
    if (embeddings == null) {
      throw new CapabilityNotSupportedException("reindex needs an embedder; none is configured");
    }
    if (!store.capabilities().contains(StoreCapability.VECTOR_STORAGE)) {
      throw new CapabilityNotSupportedException(store.getClass().getSimpleName() + " does not declare VECTOR_STORAGE");
    }
    int done = 0;
    for (String scope : new TreeSet<>(grants.visibleScopes())) {
      done += reindexScope(embeddings, scope);
    }
    return done;
  }

  /**
   * {@code blocks} with the vectors of the scopes that lack only a few ({@value #REPAIR_MAX} versions at
   * most: a write whose embedding failed or was late, or a writer without the embedder) completed first, on
   * the searching thread: a scope is then searched by vectors again instead of by full text until someone
   * calls reindex. A scope lacking more is queued for completion in the background ({@link #completeLater})
   * and returned as it was, as is one whose completion fails (the search says so in its warnings). Needs an
   * embedder: a search only asks when one is configured.
   */
  List<VectorBlock> repaired(List<VectorBlock> blocks) {
    Embeddings with = java.util.Objects.requireNonNull(embeddings, "embeddings");
    List<VectorBlock> out = null;
    for (int i = 0; i < blocks.size(); i++) {
      VectorBlock b = blocks.get(i);
      if (b.missing > REPAIR_MAX && background) {
        completeLater(with, b.scope);
      }
      if (b.missing == 0 || b.missing > REPAIR_MAX) {
        continue;
      }
      try {
        int n = reindexScope(with, b.scope);
        LOG.info("Search completed the missing {} vectors of {} versions in {}", b.profileId, n, b.scope);
      } catch (RuntimeException e) {
        LOG.warn("Search could not complete the missing vectors of {} ({}); it is searched by full text only",
            b.scope, e.getClass().getName());
        continue;
      }
      if (out == null) {
        out = new ArrayList<>(blocks);
      }
      out.set(i, vectors.block(b.scope, with.profile().id(), with.profile().dimension(), store.vectorEpoch()));
    }
    return out == null ? blocks : out;
  }

  /**
   * Queues the completion of {@code scope}'s missing vectors on the one background thread, unless it is
   * queued or running already: a scope lacking more than {@value #REPAIR_MAX} (a writer without the embedder
   * filled it) is searched by full text until it is done, then by vectors again, without anyone calling
   * reindex. A failure is logged; the next search that finds the gap queues it again.
   */
  private void completeLater(Embeddings with, String scope) {
    if (closed || !completing.add(scope)) {
      return;
    }
    try {
      repairs().execute(() -> {
        // the model calls of the views step count for the scope, as a reindex's do
        try (ModelUsageMeter.Frame usage = meter.open(dev.engram.Grants.of(scope))) {
          int n = reindexScope(with, scope);
          LOG.info("Completed the missing {} vectors of {} versions in {} in the background", with.profile().id(), n,
              scope);
        } catch (RuntimeException e) {
          if (!closed) {
            LOG.warn("Could not complete the missing vectors of {} in the background ({}); it is searched by full"
                + " text only until reindex or a later search completes them", scope, e.getClass().getName());
          }
        } finally {
          completing.remove(scope);
        }
      });
    } catch (java.util.concurrent.RejectedExecutionException e) {
      completing.remove(scope);
    }
  }

  /** Whether a search queues the completion of a scope lacking many vectors ({@link #repaired}). */
  boolean completesInBackground() {
    return background;
  }

  private java.util.concurrent.ExecutorService repairs() {
    synchronized (completing) {
      if (repairs == null) {
        java.util.concurrent.ThreadPoolExecutor pool = new java.util.concurrent.ThreadPoolExecutor(1, 1, 30,
            java.util.concurrent.TimeUnit.SECONDS, new java.util.concurrent.LinkedBlockingQueue<>(),
            Embeddings.daemonThreads("engram-vector-repair-"));
        pool.allowCoreThreadTimeOut(true);
        repairs = pool;
      }
      return repairs;
    }
  }

  /** Stops the background completion: what is queued is dropped, a running one ends at its next store call. */
  void close() {
    closed = true;
    synchronized (completing) {
      if (repairs != null) {
        repairs.shutdownNow();
      }
    }
  }

  /** Embeds what {@code scope}'s active versions lack (content views and retrieval keys); returns how many got vectors. */
  private int reindexScope(Embeddings embeddings, String scope) {
    String profile = embeddings.profile().id();
    meter.attribute(scope);
    int done = 0;
    List<MemoryEntry> todo = lacking(scope, profile);
    for (int i = 0; i < todo.size(); i += BATCH) {
      List<MemoryEntry> batch = todo.subList(i, Math.min(todo.size(), i + BATCH));
      List<String> texts = new ArrayList<>();
      List<Integer> owner = new ArrayList<>();
      List<String> views = new ArrayList<>();
      for (int j = 0; j < batch.size(); j++) {
        MemoryEntry e = batch.get(j);
        for (Map.Entry<String, String> view : Views.texts(reasoner, e.content(), e.disclosure(), e.glossary(), e.path()).entrySet()) {
          texts.add(view.getValue());
          views.add(view.getKey());
          owner.add(j);
        }
      }
      List<float[]> embedded = embeddings.embed(texts);
      Map<String, List<StoredVector>> byVersion = new HashMap<>();
      for (int t = 0; t < texts.size(); t++) {
        String versionId = batch.get(owner.get(t)).versionId();
        byVersion.computeIfAbsent(versionId, x -> new ArrayList<>())
            .add(new StoredVector(versionId, views.get(t), embedded.get(t)));
      }
      done += storeVectors(scope, profile, byVersion);
    }
    if (store.capabilities().contains(StoreCapability.RETRIEVAL_KEYS)) {
      done += reindexKeys(embeddings, scope, profile);
    }
    vectors.invalidate(scope);
    return done;
  }

  /**
   * Embeds the retrieval keys of the active versions of {@code scope} that have keys but no key vectors
   * under the embedder's profile; returns how many versions got them.
   */
  private int reindexKeys(Embeddings embeddings, String scope, String profile) {
    String keyProfile = Embeddings.keyProfileId(profile);
    List<String> active = lacking(scope, keyProfile).stream().map(MemoryEntry::versionId).toList();
    List<Map.Entry<String, List<String>>> todo = new ArrayList<>(store.keysOf(active).entrySet());
    int done = 0;
    for (int i = 0; i < todo.size(); i += BATCH) {
      List<Map.Entry<String, List<String>>> batch = todo.subList(i, Math.min(todo.size(), i + BATCH));
      List<String> texts = new ArrayList<>();
      for (Map.Entry<String, List<String>> e : batch) {
        texts.addAll(e.getValue());
      }
      List<float[]> embedded = embeddings.embed(texts);
      Map<String, List<StoredVector>> byVersion = new LinkedHashMap<>();
      int t = 0;
      for (Map.Entry<String, List<String>> e : batch) {
        List<StoredVector> vs = new ArrayList<>();
        for (int j = 0; j < e.getValue().size(); j++) {
          vs.add(new StoredVector(e.getKey(), "key" + (j + 1), embedded.get(t++)));
        }
        byVersion.put(e.getKey(), vs);
      }
      done += storeVectors(scope, keyProfile, byVersion);
    }
    return done;
  }

  /** The active versions of {@code scope} without a vector under {@code profile}. */
  private List<MemoryEntry> lacking(String scope, String profile) {
    Set<String> covered = new HashSet<>();
    for (StoredVector v : store.activeVectors(scope, profile)) {
      covered.add(v.versionId());
    }
    List<MemoryEntry> out = new ArrayList<>();
    for (MemoryEntry e : store.versionsIn(List.of(scope), EnumSet.of(EntryStatus.ACTIVE))) {
      if (!covered.contains(e.versionId())) {
        out.add(e);
      }
    }
    return out;
  }

  /**
   * Stores vectors made for versions of {@code scope} committed earlier, of those still there; returns how
   * many versions got them. No revision moves, so every process's cache learns of them through the epoch.
   */
  private int storeVectors(String scope, String profile, Map<String, List<StoredVector>> byVersion) {
    return store.inTransaction(scope, tx -> {
      List<StoredVector> put = new ArrayList<>();
      int n = 0;
      for (Map.Entry<String, List<StoredVector>> e : byVersion.entrySet()) {
        if (tx.version(e.getKey()).isPresent()) {
          put.addAll(e.getValue());
          n++;
        }
      }
      tx.putVectors(profile, put);
      if (n > 0) {
        tx.advanceVectorEpoch();
      }
      return n;
    });
  }
}
