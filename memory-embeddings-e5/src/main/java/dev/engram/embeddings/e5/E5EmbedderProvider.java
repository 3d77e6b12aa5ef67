/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.embeddings.e5;

import dev.engram.spi.Embedder;
import dev.engram.spi.EmbedderOptions;
import dev.engram.spi.EmbedderProvider;
import dev.engram.spi.EmbeddingProfile;
import java.util.Objects;
import java.util.Optional;

/** The embedder named {@code e5} in {@link dev.engram.spi.EmbedderSpec}: a new {@link E5SmallEmbedder}. */
public final class E5EmbedderProvider implements EmbedderProvider {
  private static final EmbeddingProfile PROFILE =
      new EmbeddingProfile(E5SmallEmbedder.MODEL_ID, E5SmallEmbedder.DIMENSION, E5SmallEmbedder.VECTOR_FLOOR);

  /** Creates the provider; {@link java.util.ServiceLoader} calls it. */
  public E5EmbedderProvider() {}

  @Override
  public String name() {
    return "e5";
  }

  @Override
  public String summary() {
    return "offline e5-small-v2 (" + E5SmallEmbedder.DIMENSION + " dimensions, better recall)";
  }

  @Override
  public Optional<EmbeddingProfile> profile() {
    return Optional.of(PROFILE);
  }

  /** Loads the model; takes no settings. */
  @Override
  public Embedder create(EmbedderOptions options) {
    Objects.requireNonNull(options, "options");
    return new E5SmallEmbedder();
  }
}
