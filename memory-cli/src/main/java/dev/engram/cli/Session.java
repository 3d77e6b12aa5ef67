/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.cli;

import dev.engram.Engram;
import dev.engram.EngramBuilder;
import dev.engram.Grants;
import dev.engram.MemoryEntry;
import dev.engram.NotFoundException;
import dev.engram.SearchSettings;
import dev.engram.reasoner.DeterministicReasoner;
import dev.engram.spi.Embedder;
import dev.engram.spi.MemoryStore;
import java.time.Duration;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * One opened store with the Engram over it and the caller's grants. Everything the command line and
 * the console read or change goes through {@link #engram()} under {@link #grants()}; {@link #store()}
 * and {@link #inspector()} serve only the reports the facade does not make (scopes, stats, doctor).
 */
final class Session implements AutoCloseable {
  /** How long a write's or a search's embedding may take, the model's loading included. */
  static final Duration EMBED_TIMEOUT = Duration.ofSeconds(60);

  private final StoreSpec spec;
  private final MemoryStore store;
  private final Engram engram;
  private final @Nullable Grants grants;

  private Session(StoreSpec spec, MemoryStore store, Engram engram, @Nullable Grants grants) {
    this.spec = spec;
    this.store = store;
    this.engram = engram;
    this.grants = grants;
  }

  /**
   * Opens what {@code target} names.
   *
   * @param needGrants whether the command works under grants
   * @param create whether a missing SQLite file may be created
   * @param adjust a command's say over the store before it is opened
   */
  static Session open(Target target, boolean needGrants, boolean create,
      java.util.function.UnaryOperator<StoreSpec> adjust) {
    if (target.store == null || target.store.isBlank()) {
      throw new UsageException("--store is required (sqlite:FILE, postgres:URL or memory), or set ENGRAM_STORE");
    }
    StoreSpec spec = adjust.apply(StoreSpec.parse(target.store));
    Grants grants = null;
    if (!target.grants.isEmpty()) {
      grants = Grants.of(target.grants.stream().map(String::strip).filter(s -> !s.isEmpty()).toList());
    } else if (needGrants) {
      throw new UsageException("--grant is required: the namespace(s) to work in, e.g. --grant app/user/u_123"
          + " (or set ENGRAM_GRANTS)");
    }
    @Nullable Embedder embedder = LazyEmbedder.named(target.embedder);
    MemoryStore store = spec.open(create);
    try {
      EngramBuilder builder = Engram.builder().store(store).reasoner(new DeterministicReasoner());
      if (embedder != null) {
        // the model loads inside the first embedding call, which the default two seconds would cut short
        builder.embedder(embedder).searchSettings(SearchSettings.builder().embedTimeout(EMBED_TIMEOUT).build());
      }
      Engram engram = builder.build();
      return new Session(spec, store, engram, grants);
    } catch (RuntimeException e) {
      store.close();
      throw e;
    }
  }

  Engram engram() {
    return engram;
  }

  MemoryStore store() {
    return store;
  }

  StoreInspector inspector() {
    return spec.inspector();
  }

  String describe() {
    return spec.describe();
  }

  boolean hasGrants() {
    return grants != null;
  }

  Grants grants() {
    if (grants == null) {
      throw new UsageException("--grant is required for this command");
    }
    return grants;
  }

  /**
   * The version a reference names: an entry id means its current version, a version id that version;
   * either only when the grants can see it.
   *
   * @throws NotFoundException when neither names anything visible
   */
  MemoryEntry resolve(String ref) {
    Grants g = grants();
    try {
      return engram.get(g, ref);
    } catch (NotFoundException notAnEntry) {
      Optional<MemoryEntry> version = store.version(ref);
      if (version.isPresent() && g.canSee(version.get().scope())) {
        return engram.get(g, version.get().citation());
      }
      throw new NotFoundException("no entry or version " + ref + " visible to " + g.namespaces());
    }
  }

  @Override
  public void close() {
    engram.close();
    store.close();
  }
}
