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
import dev.engram.spi.EmbedderProvider;
import dev.engram.spi.EmbedderSpec;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.StoreOpenOptions;
import dev.engram.spi.StoreSpec;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;

/**
 * One opened store with the Engram over it and the caller's grants. Everything the command line and
 * the console read or change goes through {@link #engram()} under {@link #grants()}; {@link #store()}
 * and {@link #inspector()} serve only the reports the facade does not make (scopes, stats, doctor).
 */
final class Session implements AutoCloseable {
  /** The embedder {@code auto} falls back to for a store without vectors. */
  static final String DEFAULT_EMBEDDER = "e5";

  /** How long a write's or a search's embedding may take, the model's loading included. */
  static final Duration EMBED_TIMEOUT = Duration.ofSeconds(60);

  private final StoreSpec spec;
  private final MemoryStore store;
  private final Engram engram;
  private final @Nullable Grants grants;
  private final String embedderName;

  private Session(StoreSpec spec, MemoryStore store, Engram engram, @Nullable Grants grants, String embedderName) {
    this.spec = spec;
    this.store = store;
    this.engram = engram;
    this.grants = grants;
    this.embedderName = embedderName;
  }

  /**
   * Opens what {@code target} names, with the embedder it names ({@code auto}: the one whose vectors the
   * store holds for the scopes the grants see, e5 for a store without vectors).
   *
   * @param env the environment the options fall back to
   * @param needGrants whether the command works under grants
   * @param create whether a missing SQLite file may be created
   * @param adjust a command's say over the store before it is opened
   */
  static Session open(Target target, Map<String, String> env, boolean needGrants, boolean create,
      UnaryOperator<StoreSpec> adjust) {
    String store = target.store(env);
    if (store == null || store.isBlank()) {
      throw new UsageException("--store is required (sqlite:FILE, postgres:URL or memory), or set ENGRAM_STORE");
    }
    StoreSpec spec = adjust.apply(StoreSpec.parse("--store", store));
    List<String> named = target.grants(env);
    Grants grants = null;
    if (!named.isEmpty()) {
      grants = Grants.of(named);
    } else if (needGrants) {
      throw new UsageException("--grant is required: the namespace(s) to work in, e.g. --grant app/user/u_123"
          + " (or set ENGRAM_GRANTS)");
    }
    EmbedderSpec embedderSpec = EmbedderSpec.parse("--embedder", target.embedder(env));
    MemoryStore opened = spec.open(create ? StoreOpenOptions.defaults() : StoreOpenOptions.builder().mustExist().build());
    try {
      Optional<EmbedderProvider> provider = embedderSpec.resolve(opened,
          grants == null ? List.of() : grants.visibleScopes(), EmbedderSpec.parse("--embedder", DEFAULT_EMBEDDER));
      EngramBuilder builder = Engram.builder().store(opened).reasoner(new DeterministicReasoner());
      if (provider.isPresent()) {
        // the model loads inside the first embedding call, which the default two seconds would cut short
        builder.embedder(LazyEmbedder.of(provider.get()))
            .searchSettings(SearchSettings.builder().embedTimeout(EMBED_TIMEOUT).build());
      }
      Engram engram = builder.build();
      return new Session(spec, opened, engram, grants, provider.map(EmbedderProvider::name).orElse("none"));
    } catch (RuntimeException e) {
      opened.close();
      throw e;
    }
  }

  /** The embedder this session uses ({@code e5}, {@code minilm}, …, or {@code none}). */
  String embedderName() {
    return embedderName;
  }

  Engram engram() {
    return engram;
  }

  MemoryStore store() {
    return store;
  }

  StoreInspector inspector() {
    return StoreInspector.of(spec);
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
