/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.embeddings.minilm;

import dev.engram.spi.Embedder;
import dev.engram.spi.EmbedderOptions;
import dev.engram.spi.EmbedderProvider;
import dev.engram.spi.EmbeddingProfile;
import java.util.Objects;
import java.util.Optional;

/** The embedder named {@code minilm} in {@link dev.engram.spi.EmbedderSpec}: a new {@link MiniLmEmbedder}. */
public final class MiniLmEmbedderProvider implements EmbedderProvider {
  private static final EmbeddingProfile PROFILE =
      new EmbeddingProfile(MiniLmEmbedder.MODEL_ID, MiniLmEmbedder.DIMENSION, MiniLmEmbedder.VECTOR_FLOOR);

  /** Creates the provider; {@link java.util.ServiceLoader} calls it. */
  public MiniLmEmbedderProvider() {}

  @Override
  public String name() {
    return "minilm";
  }

  @Override
  public String summary() {
    return "offline all-MiniLM-L6-v2 (" + MiniLmEmbedder.DIMENSION + " dimensions, about half e5's time per text)";
  }

  @Override
  public Optional<EmbeddingProfile> profile() {
    return Optional.of(PROFILE);
  }

  /** Loads the model; takes no settings. */
  @Override
  public Embedder create(EmbedderOptions options) {
    Objects.requireNonNull(options, "options");
    return new MiniLmEmbedder();
  }
}
