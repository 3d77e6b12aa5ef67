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
 * session, and/or a range of event time, in capture order, at most {@code limit}.
 *
 * @param scope only this visible scope; null: every visible scope
 * @param sessionId only this session; null: any
 * @param from only records that occurred at or after this instant; null: no lower bound
 * @param to only records that occurred before this instant; null: no upper bound
 * @param limit the most records returned (1..10,000, default 1,000)
 */
public record SourceQuery(
    @Nullable String scope, @Nullable String sessionId, @Nullable Instant from, @Nullable Instant to, int limit) {
  public static final int DEFAULT_LIMIT = 1000;
  public static final int MAX_LIMIT = 10_000;

  public SourceQuery {
    if (limit < 1 || limit > MAX_LIMIT) {
      throw new InvalidInputException("limit", "must be between 1 and " + MAX_LIMIT + ", was " + limit);
    }
    if (from != null && to != null && !from.isBefore(to)) {
      throw new InvalidInputException("to", "must be after from (" + from + "), was " + to);
    }
  }

  /** Every visible record, up to the default limit. */
  public static SourceQuery all() {
    return new SourceQuery(null, null, null, null, DEFAULT_LIMIT);
  }

  /** The records of one session. */
  public static SourceQuery session(String sessionId) {
    return all().withSession(sessionId);
  }

  /** The records that occurred in {@code [from, to)}. */
  public static SourceQuery between(Instant from, Instant to) {
    return new SourceQuery(null, null, Objects.requireNonNull(from, "from"), Objects.requireNonNull(to, "to"),
        DEFAULT_LIMIT);
  }

  public SourceQuery withScope(String newScope) {
    return new SourceQuery(Objects.requireNonNull(newScope, "scope"), sessionId, from, to, limit);
  }

  public SourceQuery withSession(String newSession) {
    return new SourceQuery(scope, Objects.requireNonNull(newSession, "sessionId"), from, to, limit);
  }

  public SourceQuery withRange(@Nullable Instant newFrom, @Nullable Instant newTo) {
    return new SourceQuery(scope, sessionId, newFrom, newTo, limit);
  }

  public SourceQuery withLimit(int newLimit) {
    return new SourceQuery(scope, sessionId, from, to, newLimit);
  }
}
