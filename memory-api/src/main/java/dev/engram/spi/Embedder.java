/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.spi;

import java.util.List;

/**
 * Turns texts into vectors for the vector channel of search. Implementations are thread-safe. The
 * engine treats the output as untrusted: a vector of the wrong dimension or with non-finite values
 * fails the embedding (and the write stays committed without vectors).
 */
public interface Embedder {

  /**
   * The model and dimension of every vector this embedder returns.
   *
   * @return the profile
   */
  EmbeddingProfile profile();

  /**
   * One vector per text, in order, each of {@code profile().dimension()} values. Vectors should be
   * unit length; the engine normalizes them anyway.
   *
   * @param texts non-empty texts
   * @return one vector per text, in order
   * @throws RuntimeException when the model cannot be reached or fails; the engine reports it
   */
  List<float[]> embed(List<String> texts);

  /**
   * One vector per search query, in order, each of {@code profile().dimension()} values. The engine
   * embeds search queries through this method and stored texts through {@link #embed}; models trained
   * with asymmetric inputs (e5's {@code query:} / {@code passage:} prefixes) tell the two apart here.
   * The default embeds queries like stored texts.
   *
   * @param queries the query texts, non-blank
   * @return one vector per query, in order
   * @throws RuntimeException when the model cannot be reached or fails; the engine reports it
   */
  default List<float[]> embedQueries(List<String> queries) {
    return embed(queries);
  }
}
