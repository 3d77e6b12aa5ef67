/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A request for a {@link PreparedContext}.
 */
public final class ContextRequest {
  private final String query;
  private final int maxBytes;
  private final int candidates;
  private final int maxItems;
  private final int maxItemBytes;
  private final double coreShare;
  private final java.time.@Nullable Instant referenceTime;

  /** The default {@link #maxBytes()}. */
  public static final int DEFAULT_MAX_BYTES = 8000;
  /** The default {@link #coreShare()}. */
  public static final double DEFAULT_CORE_SHARE = 0.25;

  private ContextRequest(
      String query,
      int maxBytes,
      int candidates,
      int maxItems,
      int maxItemBytes,
      double coreShare,
      java.time.@Nullable Instant referenceTime) {
    Objects.requireNonNull(query, "query");
    check("maxBytes", maxBytes, 512, 32_768);
    check("candidates", candidates, 1, 64);
    check("maxItems", maxItems, 1, 32);
    check("maxItemBytes", maxItemBytes, 64, 8192);
    if (!(coreShare >= 0 && coreShare <= 0.5)) {
      throw new InvalidInputException("coreShare", "must be within [0, 0.5], was " + coreShare);
    }
    this.query = query;
    this.maxBytes = maxBytes;
    this.candidates = candidates;
    this.maxItems = maxItems;
    this.maxItemBytes = maxItemBytes;
    this.coreShare = coreShare;
    this.referenceTime = referenceTime;
  }

  /**
   * A request with the default settings.
   *
   * @param query what the model is about to work on
   * @return the request
   */
  public static ContextRequest of(String query) {
    return builder(query).build();
  }

  /**
   * A request with another budget and the other settings at their defaults.
   *
   * @param query what the model is about to work on
   * @param maxBytes the UTF-8 budget of the whole rendered context
   * @return the request
   * @throws InvalidInputException when {@code maxBytes} is out of range
   */
  public static ContextRequest of(String query, int maxBytes) {
    return builder(query).maxBytes(maxBytes).build();
  }

  /**
   * @param query what the model is about to work on, any length
   * @return a builder with the default settings
   */
  public static Builder builder(String query) {
    return new Builder(query);
  }

  /**
   * @return a builder holding this request, to change some of its settings
   */
  public Builder toBuilder() {
    return new Builder(query).maxBytes(maxBytes).candidates(candidates).maxItems(maxItems)
        .maxItemBytes(maxItemBytes).coreShare(coreShare).referenceTime(referenceTime);
  }

  /** A builder; every setting is checked when {@link #build()} runs. */
  public static final class Builder {
    private final String query;
    private int maxBytes = DEFAULT_MAX_BYTES;
    private int candidates = 16;
    private int maxItems = 8;
    private int maxItemBytes = 2000;
    private double coreShare = DEFAULT_CORE_SHARE;
    private java.time.@Nullable Instant referenceTime;

    private Builder(String query) {
      this.query = Objects.requireNonNull(query, "query");
    }

    /**
     * @param bytes the UTF-8 budget of the whole rendered context (512..32,768, default 8,000)
     * @return this builder
     */
    public Builder maxBytes(int bytes) {
      this.maxBytes = bytes;
      return this;
    }

    /**
     * @param count coarse candidates taken from the search (1..64, default 16)
     * @return this builder
     */
    public Builder candidates(int count) {
      this.candidates = count;
      return this;
    }

    /**
     * @param count the most items rendered (1..32, default 8)
     * @return this builder
     */
    public Builder maxItems(int count) {
      this.maxItems = count;
      return this;
    }

    /**
     * @param bytes the most content bytes per item (64..8,192, default 2,000)
     * @return this builder
     */
    public Builder maxItemBytes(int bytes) {
      this.maxItemBytes = bytes;
      return this;
    }

    /**
     * @param share the share of the budget for the core entries (0..0.5, default 0.25); 0 renders
     *     search hits only
     * @return this builder
     */
    public Builder coreShare(double share) {
      this.coreShare = share;
      return this;
    }

    /**
     * @param at the "now" relative time references count from, or null for the engine's clock
     * @return this builder
     */
    public Builder referenceTime(java.time.@Nullable Instant at) {
      this.referenceTime = at;
      return this;
    }

    /**
     * @return the request
     * @throws InvalidInputException naming the setting that is out of range
     */
    public ContextRequest build() {
      return new ContextRequest(query, maxBytes, candidates, maxItems, maxItemBytes, coreShare, referenceTime);
    }
  }

  private static void check(String field, int value, int min, int max) {
    if (value < min || value > max) {
      throw new InvalidInputException(field, "must be between " + min + " and " + max + ", was " + value);
    }
  }

  /**
   * @return what the model is about to work on, any length (the search for it takes its first 8,192
   *     characters)
   */
  public String query() {
    return query;
  }

  /**
   * @return the UTF-8 budget of the whole rendered context (512..32,768, default 8,000)
   */
  public int maxBytes() {
    return maxBytes;
  }

  /**
   * @return coarse candidates taken from an {@code AUTO} search (1..64, default 16)
   */
  public int candidates() {
    return candidates;
  }

  /**
   * @return the most items rendered (1..32, default 8)
   */
  public int maxItems() {
    return maxItems;
  }

  /**
   * @return the most content bytes per item (64..8,192, default 2,000)
   */
  public int maxItemBytes() {
    return maxItemBytes;
  }

  /**
   * @return the share of the budget (0..0.5, default 0.25) given first to the visible scopes' {@code
   *     core} entries (the always-load profile: topic {@code core}, boot nodes excluded), rendered ahead
   *     of the search hits and labelled {@code profile}, whatever the query; a core entry the search
   *     also found is rendered once. 0 turns this off (search hits only). What the core entries leave
   *     unused of their share goes to the hits
   */
  public double coreShare() {
    return coreShare;
  }

  /**
   * @return the "now" that relative time references in the query count from (see {@link
   *     SearchRequest#referenceTime()}); null: the engine's clock
   */
  public java.time.@Nullable Instant referenceTime() {
    return referenceTime;
  }

  @Override
  public boolean equals(@Nullable Object o) {
    return o instanceof ContextRequest other
        && Objects.equals(query, other.query)
        && Objects.equals(maxBytes, other.maxBytes)
        && Objects.equals(candidates, other.candidates)
        && Objects.equals(maxItems, other.maxItems)
        && Objects.equals(maxItemBytes, other.maxItemBytes)
        && Objects.equals(coreShare, other.coreShare)
        && Objects.equals(referenceTime, other.referenceTime);
  }

  @Override
  public int hashCode() {
    return Objects.hash(query, maxBytes, candidates, maxItems, maxItemBytes, coreShare, referenceTime);
  }

  @Override
  public String toString() {
    return "ContextRequest["
        + "query=" + query
        + ", maxBytes=" + maxBytes
        + ", candidates=" + candidates
        + ", maxItems=" + maxItems
        + ", maxItemBytes=" + maxItemBytes
        + ", coreShare=" + coreShare
        + ", referenceTime=" + referenceTime + "]";
  }
}
