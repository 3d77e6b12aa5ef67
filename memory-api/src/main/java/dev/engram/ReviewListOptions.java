/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Which items {@link ReviewInbox#list} returns: by default the pending items of every kind in every
 * visible scope, oldest first, at most {@value #DEFAULT_LIMIT}.
 */
public final class ReviewListOptions {
  /** The default {@link #limit()}. */
  public static final int DEFAULT_LIMIT = 100;
  /** The largest {@link #limit()}. */
  public static final int MAX_LIMIT = 1_000;
  private static final ReviewListOptions DEFAULTS = builder().build();

  private final Set<ReviewState> states;
  private final Set<ReviewKind> kinds;
  private final @Nullable String scope;
  private final String after;
  private final int limit;

  private ReviewListOptions(Builder b) {
    this.states = Set.copyOf(b.states);
    this.kinds = Set.copyOf(b.kinds);
    this.scope = b.scope;
    this.after = b.after;
    this.limit = b.limit;
  }

  /** @return the pending items of every kind and visible scope, at most {@value #DEFAULT_LIMIT} */
  public static ReviewListOptions defaults() {
    return DEFAULTS;
  }

  /** @return a builder starting from the defaults */
  public static Builder builder() {
    return new Builder();
  }

  /** @return the states listed (never empty) */
  public Set<ReviewState> states() {
    return states;
  }

  /** @return the kinds listed (never empty) */
  public Set<ReviewKind> kinds() {
    return kinds;
  }

  /** @return only this visible scope, or null for every visible scope */
  public @Nullable String scope() {
    return scope;
  }

  /** @return list items whose id is greater than this ({@code ""} from the start): the last id of the previous page */
  public String after() {
    return after;
  }

  /** @return the most items returned */
  public int limit() {
    return limit;
  }

  /** Builds {@link ReviewListOptions}. */
  public static final class Builder {
    private Set<ReviewState> states = EnumSet.of(ReviewState.PENDING);
    private Set<ReviewKind> kinds = EnumSet.allOf(ReviewKind.class);
    private @Nullable String scope;
    private String after = "";
    private int limit = DEFAULT_LIMIT;

    private Builder() {}

    /**
     * @param wanted the states to list, at least one
     * @return this builder
     * @throws InvalidInputException when empty
     */
    public Builder states(Set<ReviewState> wanted) {
      Objects.requireNonNull(wanted, "states");
      if (wanted.isEmpty()) {
        throw new InvalidInputException("states", "name at least one state");
      }
      this.states = EnumSet.copyOf(wanted);
      return this;
    }

    /**
     * @param wanted the kinds to list, at least one
     * @return this builder
     * @throws InvalidInputException when empty
     */
    public Builder kinds(Set<ReviewKind> wanted) {
      Objects.requireNonNull(wanted, "kinds");
      if (wanted.isEmpty()) {
        throw new InvalidInputException("kinds", "name at least one kind");
      }
      this.kinds = EnumSet.copyOf(wanted);
      return this;
    }

    /**
     * @param only a visible scope
     * @return this builder
     */
    public Builder scope(String only) {
      this.scope = Objects.requireNonNull(only, "scope");
      return this;
    }

    /**
     * @param lastId the last item id of the previous page
     * @return this builder
     */
    public Builder after(String lastId) {
      this.after = Objects.requireNonNull(lastId, "after");
      return this;
    }

    /**
     * @param most 1..{@value #MAX_LIMIT}
     * @return this builder
     * @throws InvalidInputException when out of range
     */
    public Builder limit(int most) {
      if (most < 1 || most > MAX_LIMIT) {
        throw new InvalidInputException("limit", "must be between 1 and " + MAX_LIMIT + ", was " + most);
      }
      this.limit = most;
      return this;
    }

    /** @return the options */
    public ReviewListOptions build() {
      return new ReviewListOptions(this);
    }
  }
}
