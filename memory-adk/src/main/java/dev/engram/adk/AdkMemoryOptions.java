/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.adk;

import dev.engram.InvalidInputException;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** Optional settings of an {@link EngramMemoryService}. Immutable. */
public final class AdkMemoryOptions {
  /** The default of {@link Builder#searchLimit(int)}. */
  public static final int DEFAULT_SEARCH_LIMIT = 8;
  /** The largest {@link Builder#searchLimit(int)}. */
  public static final int MAX_SEARCH_LIMIT = 50;
  private static final AdkMemoryOptions DEFAULTS = builder().build();

  /** When captured events become memories. */
  public enum Flush {
    /** {@code addSessionToMemory} flushes the user's scope after capturing (the default). */
    AFTER_EACH_ADD,
    /** The application runs {@code Engram.flush} itself (e.g. on a schedule); adding only captures. */
    BY_APPLICATION
  }

  private final int searchLimit;
  private final Flush flush;

  private AdkMemoryOptions(Builder b) {
    this.searchLimit = b.searchLimit != null ? b.searchLimit : DEFAULT_SEARCH_LIMIT;
    this.flush = b.flush != null ? b.flush : Flush.AFTER_EACH_ADD;
  }

  /**
   * The defaults: {@value #DEFAULT_SEARCH_LIMIT} memories per search, a flush after each add.
   *
   * @return the defaults
   */
  public static AdkMemoryOptions defaults() {
    return DEFAULTS;
  }

  /**
   * Starts building options.
   *
   * @return a builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * The most memories one {@code searchMemory} returns.
   *
   * @return the limit
   */
  public int searchLimit() {
    return searchLimit;
  }

  /**
   * When captured events become memories.
   *
   * @return the flush mode
   */
  public Flush flush() {
    return flush;
  }

  @Override
  public String toString() {
    return "AdkMemoryOptions[searchLimit=" + searchLimit + ", flush=" + flush + "]";
  }

  /** Builds {@link AdkMemoryOptions}; each setting may be given once, {@code build()} more than once. */
  public static final class Builder {
    private @Nullable Integer searchLimit;
    private @Nullable Flush flush;

    private Builder() {}

    /**
     * The most memories one search returns (default {@value #DEFAULT_SEARCH_LIMIT}).
     *
     * @param limit 1 to {@value #MAX_SEARCH_LIMIT}
     * @return this builder
     * @throws InvalidInputException outside the range
     * @throws IllegalStateException if it was already set
     */
    public Builder searchLimit(int limit) {
      if (this.searchLimit != null) {
        throw new IllegalStateException("searchLimit was already set to " + this.searchLimit);
      }
      if (limit < 1 || limit > MAX_SEARCH_LIMIT) {
        throw new InvalidInputException("searchLimit", "must be between 1 and " + MAX_SEARCH_LIMIT + ", was " + limit);
      }
      this.searchLimit = limit;
      return this;
    }

    /**
     * When captured events become memories (default {@link Flush#AFTER_EACH_ADD}).
     *
     * @param mode the flush mode
     * @return this builder
     * @throws IllegalStateException if it was already set
     */
    public Builder flush(Flush mode) {
      if (this.flush != null) {
        throw new IllegalStateException("flush was already set to " + this.flush);
      }
      this.flush = Objects.requireNonNull(mode, "flush");
      return this;
    }

    /**
     * The options.
     *
     * @return the options
     */
    public AdkMemoryOptions build() {
      return new AdkMemoryOptions(this);
    }
  }
}
