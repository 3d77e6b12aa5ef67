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
 * @param query what to look for (1..2,000 characters)
 * @param mode which channels to use (default {@link SearchMode#AUTO})
 * @param topics only entries carrying one of these topics (empty = any)
 * @param types only entries of these types (empty = any)
 * @param limit the most hits returned (1..200, default 10)
 */
public record SearchRequest(String query, SearchMode mode, List<String> topics, Set<EntryType> types, int limit) {
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

    public SearchRequest build() {
      return new SearchRequest(query, mode, topics, types, limit);
    }
  }
}
