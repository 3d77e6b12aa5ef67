/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Which captured sources {@link Engram#sources} returns: all visible ones, or those of one scope, one
 * session, and/or a range of event time, in capture order, at most {@link #limit()}. Immutable; made
 * by {@link #defaults()}, {@link #session(String)}, {@link #between(Instant, Instant)} or
 * {@link #builder()}.
 */
public final class SourceQuery {
  /** The default {@link #limit()}. */
  public static final int DEFAULT_LIMIT = 1000;
  /** The largest {@link #limit()}. */
  public static final int MAX_LIMIT = 10_000;
  private static final SourceQuery DEFAULTS = builder().build();

  private final @Nullable String scope;
  private final @Nullable String sessionId;
  private final @Nullable Instant from;
  private final @Nullable Instant to;
  private final int limit;

  private SourceQuery(Builder b) {
    if (b.limit < 1 || b.limit > MAX_LIMIT) {
      throw new InvalidInputException("limit", "must be between 1 and " + MAX_LIMIT + ", was " + b.limit);
    }
    if (b.from != null && b.to != null && !b.from.isBefore(b.to)) {
      throw new InvalidInputException("to", "must be after from (" + b.from + "), was " + b.to);
    }
    this.scope = b.scope;
    this.sessionId = b.sessionId;
    this.from = b.from;
    this.to = b.to;
    this.limit = b.limit;
  }

  /**
   * @return every visible record, up to the default limit
   */
  public static SourceQuery defaults() {
    return DEFAULTS;
  }

  /**
   * @param sessionId the session
   * @return the records of one session, up to the default limit
   */
  public static SourceQuery session(String sessionId) {
    return builder().session(sessionId).build();
  }

  /**
   * @param from the first instant of the range
   * @param to the first instant after the range
   * @return the records that occurred in {@code [from, to)}, up to the default limit
   * @throws InvalidInputException when {@code to} is not after {@code from}
   * @throws NullPointerException when {@code from} or {@code to} is null
   */
  public static SourceQuery between(Instant from, Instant to) {
    return builder().between(Objects.requireNonNull(from, "from"), Objects.requireNonNull(to, "to")).build();
  }

  /**
   * @return a builder for every visible record, up to the default limit
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * @return a builder holding this query
   */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.scope = scope;
    b.sessionId = sessionId;
    b.from = from;
    b.to = to;
    b.limit = limit;
    return b;
  }

  /**
   * @return only this visible scope; null: every visible scope
   */
  public @Nullable String scope() {
    return scope;
  }

  /**
   * @return only this session; null: any
   */
  public @Nullable String sessionId() {
    return sessionId;
  }

  /**
   * @return only records that occurred at or after this instant; null: no lower bound
   */
  public @Nullable Instant from() {
    return from;
  }

  /**
   * @return only records that occurred before this instant; null: no upper bound
   */
  public @Nullable Instant to() {
    return to;
  }

  /**
   * @return the most records returned (1..10,000, default 1,000)
   */
  public int limit() {
    return limit;
  }

  @Override
  public boolean equals(@Nullable Object o) {
    return o instanceof SourceQuery other && Objects.equals(scope, other.scope)
        && Objects.equals(sessionId, other.sessionId) && Objects.equals(from, other.from)
        && Objects.equals(to, other.to) && limit == other.limit;
  }

  @Override
  public int hashCode() {
    return Objects.hash(scope, sessionId, from, to, limit);
  }

  @Override
  public String toString() {
    return "SourceQuery[scope=" + scope + ", sessionId=" + sessionId + ", from=" + from + ", to=" + to
        + ", limit=" + limit + "]";
  }

  /** A builder; the settings are checked when {@link #build()} runs. */
  public static final class Builder {
    private @Nullable String scope;
    private @Nullable String sessionId;
    private @Nullable Instant from;
    private @Nullable Instant to;
    private int limit = DEFAULT_LIMIT;

    private Builder() {}

    /**
     * @param scope only this visible scope
     * @return this builder
     * @throws NullPointerException when {@code scope} is null
     */
    public Builder scope(String scope) {
      this.scope = Objects.requireNonNull(scope, "scope");
      return this;
    }

    /**
     * @param sessionId only this session
     * @return this builder
     * @throws NullPointerException when {@code sessionId} is null
     */
    public Builder session(String sessionId) {
      this.sessionId = Objects.requireNonNull(sessionId, "sessionId");
      return this;
    }

    /**
     * @param from only records that occurred at or after it; null: no lower bound
     * @param to only records that occurred before it; null: no upper bound
     * @return this builder
     */
    public Builder between(@Nullable Instant from, @Nullable Instant to) {
      this.from = from;
      this.to = to;
      return this;
    }

    /**
     * @param limit the most records returned (1..10,000)
     * @return this builder
     */
    public Builder limit(int limit) {
      this.limit = limit;
      return this;
    }

    /**
     * @return the query
     * @throws InvalidInputException when the limit is out of range or the range is empty
     */
    public SourceQuery build() {
      return new SourceQuery(this);
    }
  }
}
