/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.util.Objects;

/**
 * A request for a {@link PreparedContext}.
 *
 * @param query what the model is about to work on, any length (the search for it takes its first 8,192 characters)
 * @param maxBytes the UTF-8 budget of the whole rendered context (512..32,768, default 8,000)
 * @param candidates coarse candidates taken from an {@code AUTO} search (1..64, default 16)
 * @param maxItems the most items rendered (1..32, default 8)
 * @param maxItemBytes the most content bytes per item (64..8,192, default 2,000)
 * @param coreShare the share of the budget (0..0.5, default 0.25) given first to the visible scopes'
 *     {@code core} entries (the always-load profile: topic {@code core}, boot nodes excluded), rendered
 *     ahead of the search hits and labelled {@code profile}, whatever the query; a core entry the search
 *     also found is rendered once. 0 turns this off (search hits only). What the core entries leave
 *     unused of their share goes to the hits
 * @param referenceTime the "now" that relative time references in the query count from (see
 *     {@link SearchRequest#referenceTime()}); null: the engine's clock
 */
public record ContextRequest(
    String query, int maxBytes, int candidates, int maxItems, int maxItemBytes, double coreShare,
    java.time.@org.jspecify.annotations.Nullable Instant referenceTime) {
  public static final int DEFAULT_MAX_BYTES = 8000;
  /** The default {@link #coreShare()}. */
  public static final double DEFAULT_CORE_SHARE = 0.25;

  public ContextRequest {
    Objects.requireNonNull(query, "query");
    check("maxBytes", maxBytes, 512, 32_768);
    check("candidates", candidates, 1, 64);
    check("maxItems", maxItems, 1, 32);
    check("maxItemBytes", maxItemBytes, 64, 8192);
    if (!(coreShare >= 0 && coreShare <= 0.5)) {
      throw new InvalidInputException("coreShare", "must be within [0, 0.5], was " + coreShare);
    }
  }

  /**
   * A request whose relative time references count from the engine's clock.
   *
   * @param query what the model is about to work on, any length (the search for it takes its first 8,192 characters)
   * @param maxBytes the budget of the whole rendered context
   * @param candidates coarse candidates taken from the search
   * @param maxItems the most items rendered
   * @param maxItemBytes the most content bytes per item
   * @param coreShare the share of the budget for the core entries
   */
  public ContextRequest(String query, int maxBytes, int candidates, int maxItems, int maxItemBytes, double coreShare) {
    this(query, maxBytes, candidates, maxItems, maxItemBytes, coreShare, null);
  }

  /**
   * A request with the {@link #DEFAULT_CORE_SHARE}.
   *
   * @param query what the model is about to work on, any length (the search for it takes its first 8,192 characters)
   * @param maxBytes the budget of the whole rendered context
   * @param candidates coarse candidates taken from the search
   * @param maxItems the most items rendered
   * @param maxItemBytes the most content bytes per item
   */
  public ContextRequest(String query, int maxBytes, int candidates, int maxItems, int maxItemBytes) {
    this(query, maxBytes, candidates, maxItems, maxItemBytes, DEFAULT_CORE_SHARE);
  }

  /**
   * This request with another share for the core entries.
   *
   * @param share 0..0.5; 0 renders search hits only
   * @return the new request
   * @throws InvalidInputException when the share is out of range
   */
  public ContextRequest withCoreShare(double share) {
    return new ContextRequest(query, maxBytes, candidates, maxItems, maxItemBytes, share, referenceTime);
  }

  /**
   * This request with another reference time.
   *
   * @param at the "now" relative time references count from, or null for the engine's clock
   * @return the new request
   */
  public ContextRequest withReferenceTime(java.time.@org.jspecify.annotations.Nullable Instant at) {
    return new ContextRequest(query, maxBytes, candidates, maxItems, maxItemBytes, coreShare, at);
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
