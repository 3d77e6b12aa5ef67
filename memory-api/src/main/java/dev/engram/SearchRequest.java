/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import java.util.Set;

/**
 * A search.
 *
 * <p>The event-time filter ({@link Builder#occurredBetween}) is exact and applied by every channel
 * before it ranks: the hits are the best entries among those whose {@link MemoryEntry#occurredAt()} lies
 * in {@code [occurredFrom, occurredTo)} (compared to the nanosecond; entries without an event time never
 * match), however many better-ranked entries lie outside the interval. Stores keep event time indexed
 * for it.
 */
public final class SearchRequest {
  private final String query;
  private final SearchMode mode;
  private final List<String> topics;
  private final Set<EntryType> types;
  private final int limit;
  private final java.time.@org.jspecify.annotations.Nullable Instant occurredFrom;
  private final java.time.@org.jspecify.annotations.Nullable Instant occurredTo;
  private final java.time.@org.jspecify.annotations.Nullable Instant referenceTime;

  /** The number of hits a request returns unless {@link Builder#limit(int)} says otherwise. */
  public static final int DEFAULT_LIMIT = 10;
  /** The largest {@link Builder#limit(int)}. */
  public static final int MAX_LIMIT = 200;

  private SearchRequest(
      String query,
      SearchMode mode,
      List<String> topics,
      Set<EntryType> types,
      int limit,
      java.time.@org.jspecify.annotations.Nullable Instant occurredFrom,
      java.time.@org.jspecify.annotations.Nullable Instant occurredTo,
      java.time.@org.jspecify.annotations.Nullable Instant referenceTime) {
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
    this.query = query;
    this.mode = mode;
    this.topics = topics;
    this.types = types;
    this.limit = limit;
    this.occurredFrom = occurredFrom;
    this.occurredTo = occurredTo;
    this.referenceTime = referenceTime;
  }

  /**
   * @return a builder holding this request, to change some of its settings
   */
  public Builder toBuilder() {
    Builder b = new Builder(query);
    b.mode = mode;
    b.topics = topics;
    b.types = types;
    b.limit = limit;
    b.occurredFrom = occurredFrom;
    b.occurredTo = occurredTo;
    b.referenceTime = referenceTime;
    return b;
  }

  /**
   * @return whether the request filters by event time (either bound of {@link Builder#occurredBetween} is
   *     set)
   */
  public boolean filtersOccurredAt() {
    return occurredFrom != null || occurredTo != null;
  }

  /**
   * An {@code AUTO} search for {@code query} with default settings.
   *
   * @param query what to look for
   * @return the request
   * @throws NullPointerException when {@code query} is null
   */
  public static SearchRequest of(String query) {
    return builder(query).build();
  }

  /**
   * @param query what to look for (1 to 8,192 characters, checked when the search runs)
   * @return a builder with the default settings: {@link SearchMode#AUTO}, any topic, any type, {@value
   *     #DEFAULT_LIMIT} hits, no time filter
   * @throws NullPointerException when {@code query} is null
   */
  public static Builder builder(String query) {
    return new Builder(query);
  }

  /**
   * A builder of {@link SearchRequest}; {@code build()} checks the settings and may be called more than once.
   */
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

    /**
     * @param mode which channels to use (default {@link SearchMode#AUTO})
     * @return this builder
     * @throws NullPointerException when {@code mode} is null
     */
    public Builder mode(SearchMode mode) {
      this.mode = Objects.requireNonNull(mode, "mode");
      return this;
    }

    /**
     * Finds only entries carrying one of these topics; replaces earlier topics.
     *
     * @param topics the topics (none: any topic)
     * @return this builder
     * @throws NullPointerException when {@code topics} or one of them is null
     */
    public Builder topics(String... topics) {
      this.topics = List.copyOf(Arrays.asList(Objects.requireNonNull(topics, "topics")));
      return this;
    }

    /**
     * Finds only entries of these types; replaces earlier types.
     *
     * @param types the types (none: any type)
     * @return this builder
     * @throws NullPointerException when {@code types} or one of them is null
     */
    public Builder types(EntryType... types) {
      this.types = Set.copyOf(Arrays.asList(Objects.requireNonNull(types, "types")));
      return this;
    }

    /**
     * @param limit the most hits returned, 1 to {@value #MAX_LIMIT} (default {@value #DEFAULT_LIMIT}; checked
     *     by {@link #build()})
     * @return this builder
     */
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

    /**
     * @return the request
     * @throws InvalidInputException when the limit is outside 1 to {@value #MAX_LIMIT}, or both time bounds
     *     are given and {@code to} is not after {@code from}
     */
    public SearchRequest build() {
      return new SearchRequest(query, mode, topics, types, limit, occurredFrom, occurredTo, referenceTime);
    }
  }

  /**
   * @return what to look for (1..8,192 characters)
   */
  public String query() {
    return query;
  }

  /**
   * @return which channels to use (default {@link SearchMode#AUTO})
   */
  public SearchMode mode() {
    return mode;
  }

  /**
   * @return only entries carrying one of these topics (empty = any)
   */
  public List<String> topics() {
    return topics;
  }

  /**
   * @return only entries of these types (empty = any)
   */
  public Set<EntryType> types() {
    return types;
  }

  /**
   * @return the most hits returned (1..200, default 10)
   */
  public int limit() {
    return limit;
  }

  /**
   * @return only entries whose {@link MemoryEntry#occurredAt()} is at or after this (entries without one
   *     never match a time filter); null: no lower bound
   */
  public java.time.@org.jspecify.annotations.Nullable Instant occurredFrom() {
    return occurredFrom;
  }

  /**
   * @return only entries whose {@code occurredAt} is before this; null: no upper bound
   */
  public java.time.@org.jspecify.annotations.Nullable Instant occurredTo() {
    return occurredTo;
  }

  /**
   * @return the "now" of the question: the time that relative references in the query ("last week",
   *     "yesterday", "on Friday") count from when {@link SearchSettings#timeBoost()} is on; null: the
   *     engine's clock
   */
  public java.time.@org.jspecify.annotations.Nullable Instant referenceTime() {
    return referenceTime;
  }

  @Override
  public boolean equals(@Nullable Object o) {
    return o instanceof SearchRequest other
        && Objects.equals(query, other.query)
        && Objects.equals(mode, other.mode)
        && Objects.equals(topics, other.topics)
        && Objects.equals(types, other.types)
        && Objects.equals(limit, other.limit)
        && Objects.equals(occurredFrom, other.occurredFrom)
        && Objects.equals(occurredTo, other.occurredTo)
        && Objects.equals(referenceTime, other.referenceTime);
  }

  @Override
  public int hashCode() {
    return Objects.hash(query, mode, topics, types, limit, occurredFrom, occurredTo, referenceTime);
  }

  @Override
  public String toString() {
    return "SearchRequest["
        + "query=" + query
        + ", mode=" + mode
        + ", topics=" + topics
        + ", types=" + types
        + ", limit=" + limit
        + ", occurredFrom=" + occurredFrom
        + ", occurredTo=" + occurredTo
        + ", referenceTime=" + referenceTime + "]";
  }
}
