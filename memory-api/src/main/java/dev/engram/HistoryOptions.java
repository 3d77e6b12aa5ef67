/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One page of {@link Engram#history(Grants, String, HistoryOptions)}: at most {@code limit} events
 * after {@code after} (the {@link HistoryPage#nextCursor()} of the previous page; null for the first
 * page). A page costs the same wherever it lies in a long history.
 *
 * @param limit the most events on the page, 1..{@value #MAX_LIMIT}
 * @param after where the page starts: a cursor handed out by the previous page, or null for the oldest event
 */
public record HistoryOptions(int limit, @Nullable String after) {
  /** The page size of {@link #defaults()}. */
  public static final int DEFAULT_LIMIT = 100;
  /** The largest page. */
  public static final int MAX_LIMIT = 1000;

  /**
   * Validates the options.
   *
   * @param limit the most events on the page, 1..{@value #MAX_LIMIT}
   * @param after a cursor handed out by the previous page, or null for the oldest event
   * @throws InvalidInputException if {@code limit} is outside 1..{@value #MAX_LIMIT} or {@code after} is
   *     blank
   */
  public HistoryOptions {
    if (limit < 1 || limit > MAX_LIMIT) {
      throw new InvalidInputException("limit", "must be between 1 and " + MAX_LIMIT + ", was " + limit);
    }
    if (after != null && after.isBlank()) {
      throw new InvalidInputException("after", "must be a cursor from HistoryPage.nextCursor() or null, was blank");
    }
  }

  /**
   * The first page with {@value #DEFAULT_LIMIT} events.
   *
   * @return the options
   */
  public static HistoryOptions defaults() {
    return new HistoryOptions(DEFAULT_LIMIT, null);
  }

  /**
   * The first page with {@code limit} events.
   *
   * @param limit the page size, 1..{@value #MAX_LIMIT}
   * @return the options
   * @throws InvalidInputException if {@code limit} is out of range
   */
  public static HistoryOptions of(int limit) {
    return new HistoryOptions(limit, null);
  }

  /**
   * The page after {@code cursor}, with this page size.
   *
   * @param cursor a {@link HistoryPage#nextCursor()}
   * @return the options
   * @throws NullPointerException if {@code cursor} is null
   * @throws InvalidInputException if {@code cursor} is blank
   */
  public HistoryOptions after(String cursor) {
    return new HistoryOptions(limit, Objects.requireNonNull(cursor, "cursor"));
  }
}
