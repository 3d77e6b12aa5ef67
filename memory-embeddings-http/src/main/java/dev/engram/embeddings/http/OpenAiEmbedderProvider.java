/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.embeddings.http;

import dev.engram.InvalidInputException;
import dev.engram.spi.Embedder;
import dev.engram.spi.EmbedderOptions;
import dev.engram.spi.EmbedderProvider;
import dev.engram.spi.EmbeddingProfile;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The embedder named {@code openai} (also {@code http}) in {@link dev.engram.spi.EmbedderSpec}: an
 * {@link OpenAiCompatibleEmbedder} from the settings {@code model} and {@code dimension} (required),
 * {@code base-url} (default {@link OpenAiCompatibleEmbedder#OPENAI_BASE_URL}), {@code api-key} and
 * {@code request-dimensions} ({@code true} or {@code false}, default {@code false}). Its profile depends on
 * the settings, so {@link dev.engram.spi.EmbedderSpec#AUTO} never picks it.
 */
public final class OpenAiEmbedderProvider implements EmbedderProvider {
  /** Creates the provider; {@link java.util.ServiceLoader} calls it. */
  public OpenAiEmbedderProvider() {}

  @Override
  public String name() {
    return "openai";
  }

  @Override
  public List<String> aliases() {
    return List.of("http");
  }

  @Override
  public String summary() {
    return "any OpenAI-compatible /v1/embeddings server (settings base-url, api-key, model, dimension)";
  }

  @Override
  public Optional<EmbeddingProfile> profile() {
    return Optional.empty();
  }

  /**
   * Builds the embedder from the settings.
   *
   * @throws InvalidInputException naming the setting when {@code model} or {@code dimension} is missing,
   *     or a setting is malformed
   */
  @Override
  public Embedder create(EmbedderOptions options) {
    Objects.requireNonNull(options, "options");
    String model = options.setting("model")
        .orElseThrow(() -> new InvalidInputException("model", "is required by the openai embedder"));
    String dimension = options.setting("dimension")
        .orElseThrow(() -> new InvalidInputException("dimension", "is required by the openai embedder"));
    int size;
    try {
      size = Integer.parseInt(dimension.strip());
    } catch (NumberFormatException e) {
      throw new InvalidInputException("dimension", "must be a whole number, was '" + dimension + "'");
    }
    String request = options.setting("request-dimensions").orElse("false").strip();
    if (!request.equals("true") && !request.equals("false")) {
      throw new InvalidInputException("request-dimensions", "must be true or false, was '" + request + "'");
    }
    return OpenAiCompatibleEmbedder.builder()
        .baseUrl(options.setting("base-url").orElse(OpenAiCompatibleEmbedder.OPENAI_BASE_URL))
        .apiKey(options.setting("api-key").orElse(null))
        .model(model)
        .dimension(size)
        .requestDimensions(request.equals("true"))
        .build();
  }
}
