/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

/**
 * Options of {@link Engram#read}.
 *
 * @param limit the most entries returned per topic (1..1000, default 20)
 */
public record ReadOptions(int limit) {
  /** The limit of {@link #defaults()}. */
  public static final int DEFAULT_LIMIT = 20;
  /** The largest limit. */
  public static final int MAX_LIMIT = 1000;
  private static final ReadOptions DEFAULTS = new ReadOptions(DEFAULT_LIMIT);

  /**
   * Checks the limit.
   *
   * @param limit the most entries returned per topic
   * @throws InvalidInputException when {@code limit} is outside 1..{@value #MAX_LIMIT}
   */
  public ReadOptions {
    if (limit < 1 || limit > MAX_LIMIT) {
      throw new InvalidInputException("limit", "must be between 1 and " + MAX_LIMIT + ", was " + limit);
    }
  }

  /** @return options with the default limit, {@value #DEFAULT_LIMIT} entries per topic */
  public static ReadOptions defaults() {
    return DEFAULTS;
  }

  /**
   * @param limit the most entries returned per topic, 1..{@value #MAX_LIMIT}
   * @return options with that limit
   * @throws InvalidInputException when {@code limit} is out of range
   */
  public static ReadOptions limit(int limit) {
    return new ReadOptions(limit);
  }
}
