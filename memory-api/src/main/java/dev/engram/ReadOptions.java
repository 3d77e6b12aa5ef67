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
  public static final int DEFAULT_LIMIT = 20;
  public static final int MAX_LIMIT = 1000;
  private static final ReadOptions DEFAULTS = new ReadOptions(DEFAULT_LIMIT);

  public ReadOptions {
    if (limit < 1 || limit > MAX_LIMIT) {
      throw new InvalidInputException("limit", "must be between 1 and " + MAX_LIMIT + ", was " + limit);
    }
  }

  public static ReadOptions defaults() {
    return DEFAULTS;
  }

  public static ReadOptions limit(int limit) {
    return new ReadOptions(limit);
  }
}
