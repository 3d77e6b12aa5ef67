/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.spi;

import dev.engram.InvalidInputException;
import java.util.Objects;

/**
 * Which model made a vector, how long it is, and where its cosine scale starts to mean "related".
 * Vectors are stored per version with the profile {@link #id()}; a store holding vectors of another
 * profile counts as incomplete for this one.
 *
 * <p>The {@link #vectorFloor()} is the cosine under which the vector channel does not admit a version
 * (unless {@link dev.engram.SearchSettings} fixes a floor of its own). Models differ in scale: for
 * all-MiniLM-L6-v2 a short fact and a question it answers without shared words score 0.13 to 0.26,
 * while e5-small-v2 puts almost every pair of English texts between 0.7 and 0.9, so one number cannot
 * serve both. A profile that does not know its model's scale gets {@link #DEFAULT_VECTOR_FLOOR}.
 *
 * @param modelId the model's name
 * @param dimension the number of values per vector (1..8,192)
 * @param vectorFloor the minimum cosine for the vector channel to admit a version, within [-1, 1]
 */
public record EmbeddingProfile(String modelId, int dimension, double vectorFloor) {
  /** The floor of a profile that does not name one. */
  public static final double DEFAULT_VECTOR_FLOOR = 0.3;

  /**
   * Validates the components.
   *
   * @param modelId the model's name, 1..200 characters, not blank
   * @param dimension the number of values per vector, 1..8,192
   * @param vectorFloor the minimum cosine for the vector channel, within [-1, 1]
   * @throws NullPointerException when {@code modelId} is null
   * @throws InvalidInputException when a component is out of range (or {@code vectorFloor} is NaN)
   */
  public EmbeddingProfile {
    Objects.requireNonNull(modelId, "modelId");
    if (modelId.isBlank() || modelId.length() > 200) {
      throw new InvalidInputException("modelId", "must be 1..200 non-blank characters");
    }
    if (dimension < 1 || dimension > 8192) {
      throw new InvalidInputException("dimension", "must be between 1 and 8192, was " + dimension);
    }
    if (!(vectorFloor >= -1 && vectorFloor <= 1)) {
      throw new InvalidInputException("vectorFloor", "must be within [-1, 1], was " + vectorFloor);
    }
  }

  /**
   * A profile with the {@link #DEFAULT_VECTOR_FLOOR}.
   *
   * @param modelId the model's name
   * @param dimension the number of values per vector
   */
  public EmbeddingProfile(String modelId, int dimension) {
    this(modelId, dimension, DEFAULT_VECTOR_FLOOR);
  }

  /** @return {@code modelId@dimension}, the key vectors are stored under (the floor is not part of it) */
  public String id() {
    return modelId + "@" + dimension;
  }
}
