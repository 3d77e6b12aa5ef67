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
 * <p>Vectors are decided inside the commit's own view of the scope: when a version becomes active
 * and no vectors made from exactly its texts are at hand, the attempt is abandoned before anything is
 * written, the vectors are made outside the transaction (an embedder may be slow), and the commit runs
 * again. When the embedder fails or is late, the commit stores the version without vectors: the gap is
 * logged at WARN (ids and the reason, never content), a write reports it on its
 * {@link dev.engram.WriteResult}, searches judge the scope incomplete, and {@code reindex} fills it.
 */
final class Commits {
  private static final Logger LOG = LoggerFactory.getLogger(Commits.class);
  private static final int MAX_ATTEMPTS = 4;

  /** The limits a commit enforces. */
  record Rules(Clock clock, int corePriorityCap, int keyPriorityCap, boolean reviewItems) {}

  private final MemoryStore store;
  private final Rules rules;
  private final SearchService search;

  Commits(MemoryStore store, EngineConfig config, SearchService search) {
    this.store = store;
    this.rules = new Rules(config.clock(), config.corePriorityCap(), config.keyPriorityCap(),
        store.capabilities().contains(dev.engram.spi.StoreCapability.REVIEW));
    this.search = search;
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
    Vectors vectors = new Vectors(search.embedsOnWrite() ? search.profileId() : null, prepared);
    for (int attempt = 1; ; attempt++) {
      vectors.mayAsk = attempt < MAX_ATTEMPTS;
      try {
        T out = store.inTransaction(scope, contentHashes, tx -> {
          // the store may run this more than once (see MemoryStore#inTransaction): only the last run counts
          vectors.gaps.clear();
          Commit commit = new Commit(tx, scope, rules, vectors);
          T result = work.apply(commit);
          commit.finish();
          return result;
        });
        for (Map.Entry<MemoryEntry, String> gap : vectors.gaps.entrySet()) {
          LOG.warn("Version {} of entry {} in {} was stored without {} vectors ({}); search finds it by full text"
                  + " only until reindex", gap.getKey().versionId(), gap.getKey().entryId(), scope, vectors.profile,
              gap.getValue());
        }
        return out;
      } catch (NeedsVectors need) {
        vectors.prepared.add(search.pendingFor(need.version.content(), need.version.disclosure(),
            need.version.glossary(), need.version.path()));
      }
    }
  }

  /** Vectors a commit stores for the versions it activates, and the versions it had to store without. */
  static final class Vectors {
    private final @Nullable String profile;
    private final List<Embeddings.PendingVectors> prepared;
    private final Map<MemoryEntry, String> gaps = new LinkedHashMap<>();
    private boolean mayAsk;

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
      if (profile == null) {
        return;
      }
      if (mayAsk) {
        throw new NeedsVectors(version);
      }
      gaps.put(version, "its texts changed while the commit was retried " + MAX_ATTEMPTS + " times");
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

  /** Abandons an attempt that would activate a version without vectors; nothing was committed. */
  private static final class NeedsVectors extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient MemoryEntry version;

    NeedsVectors(MemoryEntry version) {
      super(null, null, false, false);
      this.version = version;
    }
  }
}
