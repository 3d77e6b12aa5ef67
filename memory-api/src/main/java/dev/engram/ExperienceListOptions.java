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
 * Which experience {@link Experiences#list} returns: by default the active versions of every visible
 * scope, at most {@value #DEFAULT_LIMIT}.
 */
public final class ExperienceListOptions {
  /** The default {@link #limit()}. */
  public static final int DEFAULT_LIMIT = 100;
  /** The largest {@link #limit()}. */
  public static final int MAX_LIMIT = 10_000;
  private static final ExperienceListOptions DEFAULTS = builder().build();

  private final Set<ExperienceStatus> statuses;
  private final @Nullable String scope;
  private final int limit;

  private ExperienceListOptions(Builder b) {
    this.statuses = Set.copyOf(b.statuses);
    this.scope = b.scope;
    this.limit = b.limit;
  }

  /** @return the active versions of every visible scope, at most {@value #DEFAULT_LIMIT} */
  public static ExperienceListOptions defaults() {
    return DEFAULTS;
  }

  /** @return a builder starting from the defaults */
  public static Builder builder() {
    return new Builder();
  }

  /** @return the statuses listed (never empty) */
  public Set<ExperienceStatus> statuses() {
    return statuses;
  }

  /** @return only this visible scope, or null for every visible scope */
  public @Nullable String scope() {
    return scope;
  }

  /** @return the most versions returned */
  public int limit() {
    return limit;
  }

  /** Builds {@link ExperienceListOptions}. */
  public static final class Builder {
    private Set<ExperienceStatus> statuses = EnumSet.of(ExperienceStatus.ACTIVE);
    private @Nullable String scope;
    private int limit = DEFAULT_LIMIT;

    private Builder() {}

    /**
     * @param wanted the statuses to list, at least one
     * @return this builder
     * @throws InvalidInputException when {@code wanted} is empty
     */
    public Builder statuses(Set<ExperienceStatus> wanted) {
      Objects.requireNonNull(wanted, "statuses");
      if (wanted.isEmpty()) {
        throw new InvalidInputException("statuses", "name at least one status");
      }
      this.statuses = EnumSet.copyOf(wanted);
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
    public ExperienceListOptions build() {
      return new ExperienceListOptions(this);
    }
  }
}
