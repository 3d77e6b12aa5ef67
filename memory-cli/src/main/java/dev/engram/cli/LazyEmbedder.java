/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.cli;

import dev.engram.spi.Embedder;
import dev.engram.spi.EmbedderOptions;
import dev.engram.spi.EmbedderProvider;
import dev.engram.spi.EmbeddingProfile;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The embedder {@code --embedder} chooses, loading its model on the first text it embeds: a command that
 * embeds nothing ({@code ls}, {@code show}, {@code history}, …) starts as fast as without one, and one
 * that writes or searches pays the model's start-up once.
 */
final class LazyEmbedder implements Embedder {
  private final EmbeddingProfile profile;
  private final Supplier<Embedder> load;
  private volatile @Nullable Embedder model;

  private LazyEmbedder(EmbeddingProfile profile, Supplier<Embedder> load) {
    this.profile = profile;
    this.load = load;
  }

  /**
   * The embedder {@code provider} creates, loading its model at the first text to embed when its profile
   * is known beforehand (the offline models); created at once otherwise.
   *
   * @param provider the provider
   * @return the embedder
   */
  static Embedder of(EmbedderProvider provider) {
    Optional<EmbeddingProfile> profile = provider.profile();
    if (profile.isEmpty()) {
      return provider.create(EmbedderOptions.defaults());
    }
    return new LazyEmbedder(profile.get(), () -> provider.create(EmbedderOptions.defaults()));
  }

  /** Whether the model has been loaded (a text was embedded). */
  boolean loaded() {
    return model != null;
  }

  @Override
  public EmbeddingProfile profile() {
    return profile;
  }

  @Override
  public List<float[]> embed(List<String> texts) {
    return model().embed(texts);
  }

  @Override
  public List<float[]> embedQueries(List<String> queries) {
    return model().embedQueries(queries);
  }

  private Embedder model() {
    Embedder m = model;
    if (m == null) {
      synchronized (this) {
        m = model;
        if (m == null) {
          m = load.get();
          model = m;
        }
      }
    }
    return m;
  }

  @Override
  public String toString() {
    return "LazyEmbedder[" + profile.id() + (model == null ? ", not loaded" : "") + "]";
  }
}
