/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.spi;

import dev.engram.InvalidInputException;
import java.util.List;
import java.util.Objects;

/**
 * What a full-text search found ({@link StoreReader#rankFullText}): the hits, best first, and whether they
 * were ranked among a bounded candidate set rather than among every matching version. A bounded ranking
 * is exact over its candidates but may miss versions that would rank higher overall; the engine reports
 * it on the search's warnings.
 *
 * @param hits the hits, best first
 * @param candidateBound the number of candidates the ranking was bounded to, or 0 when every matching
 *     version was ranked
 */
public record FullTextResult(List<ScoredEntry> hits, int candidateBound) {
  /**
   * Checks and copies the hits.
   *
   * @param hits the hits, best first
   * @param candidateBound the candidate bound, or 0
   * @throws InvalidInputException if {@code candidateBound} is negative
   * @throws NullPointerException if {@code hits} is null or holds null
   */
  public FullTextResult {
    hits = List.copyOf(Objects.requireNonNull(hits, "hits"));
    if (candidateBound < 0) {
      throw new InvalidInputException("candidateBound", "must be at least 0, was " + candidateBound);
    }
  }

  /**
   * Hits ranked among every matching version.
   *
   * @param hits the hits, best first
   * @return the result
   * @throws NullPointerException if {@code hits} is null or holds null
   */
  public static FullTextResult exact(List<ScoredEntry> hits) {
    return new FullTextResult(hits, 0);
  }

  /**
   * Whether the ranking was bounded.
   *
   * @return {@code candidateBound() > 0}
   */
  public boolean bounded() {
    return candidateBound > 0;
  }
}
