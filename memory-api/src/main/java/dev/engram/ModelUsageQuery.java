/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.time.LocalDate;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Which model usage {@link EngramOperator#modelUsage} returns: the scopes of the grants (and, by
 * default, every scope below them: the tenants of an application grant), over a range of days (UTC,
 * both ends included; open by default). Immutable; made by {@link #defaults()}, {@link #days(LocalDate, LocalDate)}
 * or {@link #builder()}.
 */
public final class ModelUsageQuery {
  private static final ModelUsageQuery DEFAULTS = builder().build();

  private final @Nullable LocalDate from;
  private final @Nullable LocalDate to;
  private final boolean descendants;

  private ModelUsageQuery(Builder b) {
    if (b.from != null && b.to != null && b.to.isBefore(b.from)) {
      throw new InvalidInputException("to", "must not be before from (" + b.from + "), was " + b.to);
    }
    this.from = b.from;
    this.to = b.to;
    this.descendants = b.descendants;
  }

  /**
   * @return every day, the grants' scopes and the scopes below them
   */
  public static ModelUsageQuery defaults() {
    return DEFAULTS;
  }

  /**
   * @param from the first day (UTC), included
   * @param to the last day (UTC), included
   * @return the usage of those days in the grants' scopes and the scopes below them
   * @throws InvalidInputException if {@code to} is before {@code from}
   * @throws NullPointerException if a day is null
   */
  public static ModelUsageQuery days(LocalDate from, LocalDate to) {
    return builder().from(from).to(to).build();
  }

  /**
   * @return a builder with the default settings
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * @return the first day included (UTC), or null for no lower bound
   */
  public @Nullable LocalDate from() {
    return from;
  }

  /**
   * @return the last day included (UTC), or null for no upper bound
   */
  public @Nullable LocalDate to() {
    return to;
  }

  /**
   * @return whether the scopes below the grants' namespaces are included (default true)
   */
  public boolean descendants() {
    return descendants;
  }

  @Override
  public boolean equals(@Nullable Object o) {
    return o instanceof ModelUsageQuery q && Objects.equals(from, q.from) && Objects.equals(to, q.to)
        && descendants == q.descendants;
  }

  @Override
  public int hashCode() {
    return Objects.hash(from, to, descendants);
  }

  @Override
  public String toString() {
    return "ModelUsageQuery[from=" + from + ", to=" + to + ", descendants=" + descendants + "]";
  }

  /** A builder; the settings are checked when {@link #build()} runs. */
  public static final class Builder {
    private @Nullable LocalDate from;
    private @Nullable LocalDate to;
    private boolean descendants = true;

    private Builder() {}

    /**
     * @param day the first day included (UTC)
     * @return this builder
     * @throws NullPointerException if {@code day} is null
     */
    public Builder from(LocalDate day) {
      this.from = Objects.requireNonNull(day, "from");
      return this;
    }

    /**
     * @param day the last day included (UTC)
     * @return this builder
     * @throws NullPointerException if {@code day} is null
     */
    public Builder to(LocalDate day) {
      this.to = Objects.requireNonNull(day, "to");
      return this;
    }

    /**
     * @param include whether the scopes below the grants' namespaces are included (default true)
     * @return this builder
     */
    public Builder descendants(boolean include) {
      this.descendants = include;
      return this;
    }

    /**
     * @return the query
     * @throws InvalidInputException if the last day is before the first
     */
    public ModelUsageQuery build() {
      return new ModelUsageQuery(this);
    }
  }
}
