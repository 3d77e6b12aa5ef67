/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.cli;

import dev.engram.embeddings.e5.E5SmallEmbedder;
import dev.engram.embeddings.minilm.MiniLmEmbedder;
import dev.engram.spi.Embedder;
import dev.engram.spi.EmbeddingProfile;
import java.util.List;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The embedder {@code --embedder} names, loading its model on the first text it embeds: a command that
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
   * The embedder named {@code e5}, {@code minilm}, or none for {@code none}.
   *
   * @throws UsageException for any other name
   */
  static @Nullable Embedder named(String name) {
    return switch (name.strip()) {
      case "e5" -> new LazyEmbedder(
          new EmbeddingProfile(E5SmallEmbedder.MODEL_ID, E5SmallEmbedder.DIMENSION, E5SmallEmbedder.VECTOR_FLOOR),
          E5SmallEmbedder::new);
      case "minilm" -> new LazyEmbedder(
          new EmbeddingProfile(MiniLmEmbedder.MODEL_ID, MiniLmEmbedder.DIMENSION, MiniLmEmbedder.VECTOR_FLOOR),
          MiniLmEmbedder::new);
      case "none" -> null;
      default -> throw new UsageException("--embedder must be e5, minilm or none, was '" + name + "'");
    };
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
