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
import java.util.List;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * Runs {@link Commit}s: one store transaction per commit, finished (revision, events, topic marks)
 * when the work returns, rolled back when it throws.
 *
 * <p>Vectors are decided inside the commit's own view of the scope: when a version becomes active
 * and no vectors made from exactly its texts are at hand, the attempt is abandoned before anything is
 * written, the vectors are made outside the transaction (an embedder may be slow), and the commit runs
 * again. When the embedder fails, the retry commits without vectors (searches report the gap and
 * {@code reindex} fills it).
 */
final class Commits {
  private static final int MAX_ATTEMPTS = 4;

  /** The limits a commit enforces. */
  record Rules(Clock clock, int corePriorityCap, int keyPriorityCap) {}

  private final MemoryStore store;
  private final Rules rules;
  private final SearchService search;

  Commits(MemoryStore store, EngineConfig config, SearchService search) {
    this.store = store;
    this.rules = new Rules(config.clock(), config.corePriorityCap(), config.keyPriorityCap());
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
    Vectors vectors = new Vectors(search.embedsOnWrite() ? search.profileId() : null, prepared);
    for (int attempt = 1; ; attempt++) {
      vectors.mayAsk = attempt < MAX_ATTEMPTS;
      try {
        return store.inTransaction(scope, tx -> {
          Commit commit = new Commit(tx, scope, rules, vectors);
          T out = work.apply(commit);
          commit.finish();
          return out;
        });
      } catch (NeedsVectors need) {
        Embeddings.PendingVectors made = search.pendingFor(need.version.content(), need.version.disclosure(),
            need.version.glossary(), need.version.path());
        if (made == null) {
          vectors.mayAsk = false;
          vectors.degraded = true;
        } else {
          vectors.prepared.add(made);
        }
      }
    }
  }

  /** Vectors a commit stores for the versions it activates. */
  static final class Vectors {
    private final @Nullable String profile;
    private final List<Embeddings.PendingVectors> prepared;
    private boolean mayAsk;
    private boolean degraded;

    Vectors(@Nullable String profile, List<Embeddings.PendingVectors> prepared) {
      this.profile = profile;
      this.prepared = new ArrayList<>();
      for (Embeddings.PendingVectors p : prepared) {
        if (p != null) {
          this.prepared.add(p);
        }
      }
    }

    void index(StoreTransaction tx, MemoryEntry version) {
      if (profile == null) {
        return;
      }
      for (Embeddings.PendingVectors p : prepared) {
        if (p.matches(version)) {
          tx.putVectors(profile, p.bind(version.versionId()));
          return;
        }
      }
      if (mayAsk && !degraded) {
        throw new NeedsVectors(version);
      }
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
