/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.spi;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * Which records of one scope {@link StoreReader#sources} returns, in position order.
 *
 * @param afterPosition only records with a position greater than this
 * @param sessionId only this session; null: any
 * @param from only records that occurred at or after this; null: no bound
 * @param to only records that occurred before this; null: no bound
 * @param limit the most records returned (>= 1)
 */
public record SourceFilter(
    long afterPosition, @Nullable String sessionId, @Nullable Instant from, @Nullable Instant to, int limit) {
  /**
   * Checks the limit.
   *
   * @param afterPosition only records with a position greater than this
   * @param sessionId only this session, or null
   * @param from only records that occurred at or after this, or null
   * @param to only records that occurred before this, or null
   * @param limit the most records returned
   * @throws dev.engram.InvalidInputException when {@code limit} is below 1
   */
  public SourceFilter {
    if (limit < 1) {
      throw new dev.engram.InvalidInputException("limit", "must be >= 1, was " + limit);
    }
  }

  /**
   * The next {@code limit} records after {@code position}, of any session and time.
   *
   * @param position only records with a position greater than this (0: from the first)
   * @param limit the most records returned, at least 1
   * @return the filter
   * @throws dev.engram.InvalidInputException when {@code limit} is below 1
   */
  public static SourceFilter after(long position, int limit) {
    return new SourceFilter(position, null, null, null, limit);
  }
}
