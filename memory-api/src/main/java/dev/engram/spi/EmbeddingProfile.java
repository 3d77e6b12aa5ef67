/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.spi;

import dev.engram.InvalidInputException;
import java.util.Objects;

/**
 * Which model made a vector and how long it is. Vectors are stored per version with the profile
 * {@link #id()}; a store holding vectors of another profile counts as incomplete for this one.
 */
public record EmbeddingProfile(String modelId, int dimension) {
  /** Validates and copies the components. */
  public EmbeddingProfile {
    Objects.requireNonNull(modelId, "modelId");
    if (modelId.isBlank() || modelId.length() > 200) {
      throw new InvalidInputException("modelId", "must be 1..200 non-blank characters");
    }
    if (dimension < 1 || dimension > 8192) {
      throw new InvalidInputException("dimension", "must be between 1 and 8192, was " + dimension);
    }
  }

  /** {@code modelId@dimension}, the key vectors are stored under. */
  public String id() {
    return modelId + "@" + dimension;
  }
}
