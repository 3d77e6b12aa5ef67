/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A search.
 *
 * <p>The event-time filter ({@link Builder#occurredBetween}) is exact and applied by every channel
 * before it ranks: the hits are the best entries among those whose {@link MemoryEntry#occurredAt()} lies
 * in {@code [occurredFrom, occurredTo)} (compared to the nanosecond; entries without an event time never
 * match), however many better-ranked entries lie outside the interval. Stores keep event time indexed
 * for it.
 *
 * @param query what to look for (1..8,192 characters)
 * @param mode which channels to use (default {@link SearchMode#AUTO})
 * @param topics only entries carrying one of these topics (empty = any)
 * @param types only entries of these types (empty = any)
 * @param limit the most hits returned (1..200, default 10)
 * @param occurredFrom only entries whose {@link MemoryEntry#occurredAt()} is at or after this (entries
 *     without one never match a time filter); null: no lower bound
 * @param occurredTo only entries whose {@code occurredAt} is before this; null: no upper bound
 * @param referenceTime the "now" of the question: the time that relative references in the query ("last
 *     week", "yesterday", "on Friday") count from when {@link SearchSettings#timeBoost()} is on; null: the
 *     engine's clock
 */
public record SearchRequest(
    String query, SearchMode mode, List<String> topics, Set<EntryType> types, int limit,
    java.time.@org.jspecify.annotations.Nullable Instant occurredFrom,
    java.time.@org.jspecify.annotations.Nullable Instant occurredTo,
    java.time.@org.jspecify.annotations.Nullable Instant referenceTime) {
  public static final int DEFAULT_LIMIT = 10;
  public static final int MAX_LIMIT = 200;

  public SearchRequest {
    Objects.requireNonNull(query, "query");
    Objects.requireNonNull(mode, "mode");
    topics = List.copyOf(topics);
    types = Set.copyOf(types);
    if (limit < 1 || limit > MAX_LIMIT) {
      throw new InvalidInputException("limit", "must be between 1 and " + MAX_LIMIT + ", was " + limit);
    }
    if (occurredFrom != null && occurredTo != null && !occurredFrom.isBefore(occurredTo)) {
      throw new InvalidInputException("occurredTo", "must be after occurredFrom (" + occurredFrom + "), was " + occurredTo);
    }
  }

  /**
   * A request whose relative time references count from the engine's clock.
   *
   * @param query what to look for
   * @param mode which channels to use
   * @param topics only entries carrying one of these topics
   * @param types only entries of these types
   * @param limit the most hits returned
   * @param occurredFrom the event-time filter's lower bound, or null
   * @param occurredTo the event-time filter's upper bound, or null
   */
  public SearchRequest(String query, SearchMode mode, List<String> topics, Set<EntryType> types, int limit,
      java.time.@org.jspecify.annotations.Nullable Instant occurredFrom,
      java.time.@org.jspecify.annotations.Nullable Instant occurredTo) {
    this(query, mode, topics, types, limit, occurredFrom, occurredTo, null);
  }

  /**
   * This request with another limit.
   *
   * @param limit 1..200
   * @return the new request
   * @throws InvalidInputException when the limit is out of range
   */
  public SearchRequest withLimit(int limit) {
    return new SearchRequest(query, mode, topics, types, limit, occurredFrom, occurredTo, referenceTime);
  }

  /** Whether the request filters by event time. */
  public boolean filtersOccurredAt() {
    return occurredFrom != null || occurredTo != null;
  }

  /** An {@code AUTO} search for {@code query} with default settings. */
  public static SearchRequest of(String query) {
    return builder(query).build();
  }

  public static Builder builder(String query) {
    return new Builder(query);
  }

  public static final class Builder {
    private final String query;
    private SearchMode mode = SearchMode.AUTO;
    private List<String> topics = List.of();
    private Set<EntryType> types = Set.of();
    private int limit = DEFAULT_LIMIT;
    private java.time.@org.jspecify.annotations.Nullable Instant occurredFrom;
    private java.time.@org.jspecify.annotations.Nullable Instant occurredTo;
    private java.time.@org.jspecify.annotations.Nullable Instant referenceTime;

    private Builder(String query) {
      this.query = Objects.requireNonNull(query, "query");
    }

    public Builder mode(SearchMode mode) {
      this.mode = Objects.requireNonNull(mode, "mode");
      return this;
    }

    public Builder topics(String... topics) {
      this.topics = List.copyOf(Arrays.asList(Objects.requireNonNull(topics, "topics")));
      return this;
    }

    public Builder types(EntryType... types) {
      this.types = Set.copyOf(Arrays.asList(Objects.requireNonNull(types, "types")));
      return this;
    }

    public Builder limit(int limit) {
      this.limit = limit;
      return this;
    }

    /**
     * Only entries that occurred in {@code [from, to)}; either bound may be null (open). Entries without
     * an {@code occurredAt} never match while either bound is given. The filter applies before ranking,
     * so a narrow interval still returns its best entries.
     *
     * @param from the first instant in the interval, or null
     * @param to the first instant after the interval, or null
     * @return this builder
     */
    public Builder occurredBetween(
        java.time.@org.jspecify.annotations.Nullable Instant from,
        java.time.@org.jspecify.annotations.Nullable Instant to) {
      this.occurredFrom = from;
      this.occurredTo = to;
      return this;
    }

    /**
     * The "now" that relative time references in the query count from (default: the engine's clock).
     *
     * @param at the reference time, or null for the engine's clock
     * @return this builder
     */
    public Builder referenceTime(java.time.@org.jspecify.annotations.Nullable Instant at) {
      this.referenceTime = at;
      return this;
    }

    public SearchRequest build() {
      return new SearchRequest(query, mode, topics, types, limit, occurredFrom, occurredTo, referenceTime);
    }
  }
}
