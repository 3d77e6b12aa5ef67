/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.time.Duration;
import java.util.Objects;

/**
 * Tuning of search. Defaults: vector admission floor cosine 0.3, RRF k 60, both channels weight 1,
 * priority bonus 0.002 (priority 0) / 0.001 (priority 1) added to fused scores, query embedding
 * timeout 2 s, channel depth 100.
 *
 * @param vectorFloor minimum cosine for the vector channel to admit a version
 * @param rrfK the reciprocal-rank-fusion constant
 * @param ftsWeight weight of the full-text channel in fusion
 * @param vectorWeight weight of the vector channel in fusion
 * @param priorityBonus added for priority 0, half of it for priority 1; it reorders near-ties and
 *     never admits a hit
 * @param embedTimeout how long a query embedding may take before {@code AUTO} falls back to full-text
 * @param channelDepth how many candidates each channel contributes before fusion
 */
public record SearchSettings(
    double vectorFloor, int rrfK, double ftsWeight, double vectorWeight, double priorityBonus,
    Duration embedTimeout, int channelDepth) {
  public static final SearchSettings DEFAULTS =
      new SearchSettings(0.3, 60, 1.0, 1.0, 0.002, Duration.ofSeconds(2), 100);

  public SearchSettings {
    if (!(vectorFloor >= -1 && vectorFloor <= 1)) {
      throw new InvalidInputException("vectorFloor", "must be within [-1, 1], was " + vectorFloor);
    }
    if (rrfK < 1) {
      throw new InvalidInputException("rrfK", "must be >= 1, was " + rrfK);
    }
    if (!(ftsWeight >= 0) || Double.isInfinite(ftsWeight)) {
      throw new InvalidInputException("ftsWeight", "must be finite and >= 0, was " + ftsWeight);
    }
    if (!(vectorWeight >= 0) || Double.isInfinite(vectorWeight)) {
      throw new InvalidInputException("vectorWeight", "must be finite and >= 0, was " + vectorWeight);
    }
    if (ftsWeight + vectorWeight == 0) {
      throw new InvalidInputException("ftsWeight", "channel weights must not both be 0");
    }
    if (!(priorityBonus >= 0 && priorityBonus < 0.01)) {
      throw new InvalidInputException("priorityBonus", "must be within [0, 0.01), was " + priorityBonus);
    }
    Objects.requireNonNull(embedTimeout, "embedTimeout");
    if (embedTimeout.isNegative() || embedTimeout.isZero()) {
      throw new InvalidInputException("embedTimeout", "must be positive, was " + embedTimeout);
    }
    if (channelDepth < 10 || channelDepth > 1000) {
      throw new InvalidInputException("channelDepth", "must be between 10 and 1000, was " + channelDepth);
    }
  }

  public SearchSettings withVectorFloor(double floor) {
    return new SearchSettings(floor, rrfK, ftsWeight, vectorWeight, priorityBonus, embedTimeout, channelDepth);
  }

  public SearchSettings withWeights(double fts, double vector) {
    return new SearchSettings(vectorFloor, rrfK, fts, vector, priorityBonus, embedTimeout, channelDepth);
  }

  public SearchSettings withEmbedTimeout(Duration timeout) {
    return new SearchSettings(vectorFloor, rrfK, ftsWeight, vectorWeight, priorityBonus, timeout, channelDepth);
  }

  public SearchSettings withChannelDepth(int depth) {
    return new SearchSettings(vectorFloor, rrfK, ftsWeight, vectorWeight, priorityBonus, embedTimeout, depth);
  }
}
