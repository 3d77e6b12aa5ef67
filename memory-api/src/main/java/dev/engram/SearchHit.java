/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * One ranked result.
 *
 * @param entry the version found
 * @param score the fused score (for single-channel modes, that channel's score); higher is better
 * @param matchedBy the channels that found the entry, in {@link SearchChannel} order
 * @param ftsRank 1-based rank in the full-text channel, or null
 * @param vectorRank 1-based rank in the vector channel, or null
 * @param cosine the best cosine similarity over the entry's views, or null
 */
public record SearchHit(
    MemoryEntry entry,
    double score,
    Set<SearchChannel> matchedBy,
    @Nullable Integer ftsRank,
    @Nullable Integer vectorRank,
    @Nullable Double cosine) {
  /**
   * Checks the entry and copies the channels.
   *
   * @param entry the version found
   * @param score the fused score
   * @param matchedBy the channels that found the entry
   * @param ftsRank 1-based rank in the full-text channel, or null
   * @param vectorRank 1-based rank in the vector channel, or null
   * @param cosine the best cosine similarity over the entry's views, or null
   * @throws NullPointerException when {@code entry} or {@code matchedBy} (or a channel) is null
   */
  public SearchHit {
    Objects.requireNonNull(entry, "entry");
    matchedBy = matchedBy.isEmpty()
        ? Set.of()
        : java.util.Collections.unmodifiableSet(java.util.EnumSet.copyOf(matchedBy));
  }

  /** @return the exact citation of the version found, as {@link MemoryEntry#citation()} */
  public Citation citation() {
    return entry.citation();
  }
}
