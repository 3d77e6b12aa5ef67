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
  public SourceFilter {
    if (limit < 1) {
      throw new dev.engram.InvalidInputException("limit", "must be >= 1, was " + limit);
    }
  }

  /** The next {@code limit} records after {@code position}. */
  public static SourceFilter after(long position, int limit) {
    return new SourceFilter(position, null, null, null, limit);
  }
}
