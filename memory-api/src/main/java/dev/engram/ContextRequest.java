/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.util.Objects;

/**
 * A request for a {@link PreparedContext}.
 *
 * @param query what the model is about to work on
 * @param maxBytes the UTF-8 budget of the whole rendered context (512..32,768, default 8,000)
 * @param candidates coarse candidates taken from an {@code AUTO} search (1..64, default 16)
 * @param maxItems the most items rendered (1..32, default 8)
 * @param maxItemBytes the most content bytes per item (64..8,192, default 2,000)
 */
public record ContextRequest(String query, int maxBytes, int candidates, int maxItems, int maxItemBytes) {
  public static final int DEFAULT_MAX_BYTES = 8000;

  public ContextRequest {
    Objects.requireNonNull(query, "query");
    check("maxBytes", maxBytes, 512, 32_768);
    check("candidates", candidates, 1, 64);
    check("maxItems", maxItems, 1, 32);
    check("maxItemBytes", maxItemBytes, 64, 8192);
  }

  public static ContextRequest of(String query) {
    return new ContextRequest(query, DEFAULT_MAX_BYTES, 16, 8, 2000);
  }

  public static ContextRequest of(String query, int maxBytes) {
    return new ContextRequest(query, maxBytes, 16, 8, 2000);
  }

  private static void check(String field, int value, int min, int max) {
    if (value < min || value > max) {
      throw new InvalidInputException(field, "must be between " + min + " and " + max + ", was " + value);
    }
  }
}
