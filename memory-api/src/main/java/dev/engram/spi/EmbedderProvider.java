/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.spi;

import java.util.List;
import java.util.Optional;

/**
 * Creates one kind of {@link Embedder} by name ({@code e5}, {@code minilm}, {@code openai}). Each embedder
 * module registers one ({@code META-INF/services/dev.engram.spi.EmbedderProvider}, and {@code provides} in a
 * {@code module-info} where the module has one); {@link EmbedderSpec} finds them with
 * {@link java.util.ServiceLoader}. Implementations are public, have a public no-argument constructor and
 * are thread-safe.
 */
public interface EmbedderProvider {

  /**
   * The name the embedder is chosen by, lower case, e.g. {@code "e5"}.
   *
   * @return the name
   */
  String name();

  /**
   * Other names this provider also answers to (e.g. {@code "http"} for {@code "openai"}); none by default.
   *
   * @return the aliases, lower case
   */
  default List<String> aliases() {
    return List.of();
  }

  /**
   * One line for help texts, e.g. {@code "offline e5-small-v2 (384 dimensions)"}.
   *
   * @return the summary
   */
  String summary();

  /**
   * The profile of the vectors the embedder makes, when it is known without creating the embedder (the
   * offline models); empty when the settings decide it (an HTTP model and its dimension). A store's vectors
   * are matched against it to pick the embedder the store already uses ({@link EmbedderSpec#AUTO}).
   *
   * @return the profile, if fixed
   */
  Optional<EmbeddingProfile> profile();

  /**
   * Creates the embedder. The offline ones load their model here.
   *
   * @param options the settings
   * @return the embedder
   * @throws dev.engram.InvalidInputException naming the setting when one is missing or malformed
   * @throws dev.engram.MemoryException when the model cannot be loaded
   */
  Embedder create(EmbedderOptions options);
}
