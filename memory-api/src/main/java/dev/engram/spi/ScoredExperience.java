/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.spi;

import dev.engram.Experience;
import java.util.Objects;

/**
 * An experience version found by {@link StoreReader#searchExperience}, with its score (higher is better;
 * comparable only within one answer).
 *
 * @param experience the version
 * @param score its score
 */
public record ScoredExperience(Experience experience, double score) {
  /**
   * Checks the version is present.
   *
   * @param experience the version
   * @param score its score, higher is better
   * @throws NullPointerException when {@code experience} is null
   */
  public ScoredExperience {
    Objects.requireNonNull(experience, "experience");
  }
}
