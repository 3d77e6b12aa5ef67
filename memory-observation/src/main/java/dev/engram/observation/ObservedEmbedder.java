/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.observation;

import dev.engram.spi.EmbeddingProfile;
import dev.engram.spi.Embedder;
import java.util.List;

/** An {@link Embedder} whose embedding calls are observations named {@value EngramObservation#EMBEDDING}. */
final class ObservedEmbedder implements Embedder {
  private final Embedder delegate;
  private final Observations observation;

  ObservedEmbedder(Embedder delegate, Observations observation) {
    this.delegate = delegate;
    this.observation = observation;
  }

  @Override
  public EmbeddingProfile profile() {
    return delegate.profile();
  }

  @Override
  public List<float[]> embed(List<String> texts) {
    return observation.call("embed", () -> delegate.embed(texts));
  }

  @Override
  public List<float[]> embedQueries(List<String> queries) {
    return observation.call("embedQueries", () -> delegate.embedQueries(queries));
  }

  @Override
  public String toString() {
    return delegate.toString();
  }
}
