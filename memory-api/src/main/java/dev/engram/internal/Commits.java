/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.internal;

import dev.engram.MemoryEntry;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.StoreTransaction;
import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs {@link Commit}s: one store transaction per commit, finished (revision, events, topic marks)
 * when the work returns, rolled back when it throws.
 *
 * <p>A commit's work runs once. Vectors are made before the transaction for the texts the caller
 * knows (a write's, a correction's, an edit's: an embedder may be slow, and a transaction holds the
 * scope's head); the commit stores them with the versions they were made from. A version the commit
 * activates without vectors made for exactly its texts (a rollback or reactivation of an older version,
 * a curation rewrite or merge, an undo) gets them right after the commit, outside it, unless it already
 * has them: they are derived data, stored without a revision and announced through the vector epoch,
 * as search's own completion does. When the embedder fails or is late, the version stays without
 * vectors: the gap is logged at WARN (ids and the reason, never content), a write reports it on its
 * {@link dev.engram.WriteResult}, searches judge the scope incomplete (completing a few themselves),
 * and {@code reindex} fills it.
 */
final class Commits {
  private static final Logger LOG = LoggerFactory.getLogger(Commits.class);

  /** The limits a commit enforces. */
  record Rules(Clock clock, int corePriorityCap, int keyPriorityCap, boolean reviewItems) {}

  private final MemoryStore store;
  private final Rules rules;
  private final WriteVectors writeVectors;

  Commits(MemoryStore store, EngineConfig config, WriteVectors writeVectors) {
    this.store = store;
    this.rules = new Rules(config.clock(), config.corePriorityCap(), config.keyPriorityCap(),
        store.capabilities().contains(dev.engram.spi.StoreCapability.REVIEW));
    this.writeVectors = writeVectors;
  }

  MemoryStore store() {
    return store;
  }

  /** Runs {@code work} as one commit on {@code scope}. */
  <T> T run(String scope, Function<Commit, T> work) {
    return run(scope, List.of(), work);
  }

  /** Runs {@code work} as one commit on {@code scope}, with vectors already made for some texts. */
  <T> T run(String scope, List<Embeddings.PendingVectors> prepared, Function<Commit, T> work) {
    return run(scope, prepared, List.of(), work);
  }

  /**
   * Runs {@code work} as one commit on {@code scope} that first looks up the active holders of
   * {@code contentHashes} ({@link Commit#prefetchContent}); the store may read them with the head lock
   * ({@link MemoryStore#inTransaction(String, java.util.Collection, MemoryStore.StoreWork)}).
   */
  <T> T run(String scope, List<Embeddings.PendingVectors> prepared, List<String> contentHashes,
      Function<Commit, T> work) {
    Vectors vectors = new Vectors(writeVectors.embedsOnWrite() ? writeVectors.profileId() : null, prepared);
    T out = store.inTransaction(scope, contentHashes, tx -> {
      vectors.reset();
      Commit commit = new Commit(tx, scope, rules, vectors);
      T result = work.apply(commit);
      commit.finish();
      return result;
    });
    if (!vectors.unprepared.isEmpty()) {
      complete(scope, vectors);
    }
    for (Map.Entry<MemoryEntry, String> gap : vectors.gaps.entrySet()) {
      LOG.warn("Version {} of entry {} in {} was stored without {} vectors ({}); search finds it by full text"
              + " only until reindex", gap.getKey().versionId(), gap.getKey().entryId(), scope, vectors.profile,
          gap.getValue());
    }
    return out;
  }

  /**
   * Vectors for the versions the commit activated without any made for them, of those that still have
   * none: embedded now, after the commit, and stored without a revision (the vector epoch moves, so
   * every cache learns of them). What cannot be embedded stays a gap.
   */
  private void complete(String scope, Vectors vectors) {
    String profile = vectors.profile;
    Map<String, MemoryEntry> todo = new LinkedHashMap<>();
    for (MemoryEntry v : vectors.unprepared) {
      todo.put(v.versionId(), v);
    }
    try {
      for (dev.engram.spi.StoredVector have : store.vectorsOf(scope, profile, todo.keySet())) {
        todo.remove(have.versionId());
      }
    } catch (RuntimeException e) {
      for (MemoryEntry v : todo.values()) {
        vectors.gaps.put(v, "its vectors could not be checked after the commit (" + e.getClass().getName() + ")");
      }
      return;
    }
    Map<String, List<dev.engram.spi.StoredVector>> made = new LinkedHashMap<>();
    for (MemoryEntry v : todo.values()) {
      Embeddings.PendingVectors p = writeVectors.pendingFor(v.scope(), v.content(), v.disclosure(), v.glossary(), v.path());
      if (p == null || p.failure() != null) {
        vectors.gaps.put(v, p == null ? "no vectors could be made" : p.failure());
      } else {
        made.put(v.versionId(), p.bind(v.versionId()));
      }
    }
    if (made.isEmpty()) {
      return;
    }
    try {
      store.inTransaction(scope, tx -> {
        List<dev.engram.spi.StoredVector> put = new ArrayList<>();
        for (Map.Entry<String, List<dev.engram.spi.StoredVector>> e : made.entrySet()) {
          if (tx.version(e.getKey()).isPresent()) {
            put.addAll(e.getValue());
          }
        }
        if (!put.isEmpty()) {
          tx.putVectors(profile, put);
          tx.advanceVectorEpoch();
        }
        return null;
      });
    } catch (RuntimeException e) {
      for (String id : made.keySet()) {
        vectors.gaps.put(todo.get(id), "its vectors could not be stored after the commit (" + e.getClass().getName() + ")");
      }
    }
  }

  /** Vectors a commit stores for the versions it activates, and the versions it had to store without. */
  static final class Vectors {
    private final @Nullable String profile;
    private final List<Embeddings.PendingVectors> prepared;
    private final Map<MemoryEntry, String> gaps = new LinkedHashMap<>();
    /** Versions this commit activated without vectors made for their texts. */
    private final List<MemoryEntry> unprepared = new ArrayList<>();

    Vectors(@Nullable String profile, List<Embeddings.PendingVectors> prepared) {
      this.profile = profile;
      this.prepared = new ArrayList<>();
      for (Embeddings.PendingVectors p : prepared) {
        if (p != null) {
          this.prepared.add(p);
        }
      }
    }

    /**
     * Stores what was prepared for {@code version}: its retrieval keys when this commit {@code inserted} it
     * (a version's keys are written once, with it), and its vectors.
     */
    void index(StoreTransaction tx, MemoryEntry version, boolean inserted) {
      for (Embeddings.PendingVectors p : prepared) {
        if (p != null && p.matches(version)) {
          if (inserted && !p.keys().isEmpty()) {
            tx.putKeys(version.versionId(), p.keys());
          }
          if (profile == null) {
            return;
          }
          if (p.failure() != null) {
            gaps.put(version, p.failure());
          } else {
            tx.putVectors(profile, p.bind(version.versionId()));
            if (!p.keyVectors().isEmpty()) {
              tx.putVectors(Embeddings.keyProfileId(profile), p.bindKeys(version.versionId()));
            }
          }
          return;
        }
      }
      if (profile != null) {
        unprepared.add(version);
      }
    }

    /** Forgets what a run of the work recorded (a store may run the work again after rolling it back). */
    void reset() {
      gaps.clear();
      unprepared.clear();
    }

    /** Why {@code versionId} was stored without vectors in this attempt, or null when it has them (or needs none). */
    @Nullable String gap(String versionId) {
      for (Map.Entry<MemoryEntry, String> g : gaps.entrySet()) {
        if (g.getKey().versionId().equals(versionId)) {
          return g.getValue();
        }
      }
      return null;
    }
  }
}
