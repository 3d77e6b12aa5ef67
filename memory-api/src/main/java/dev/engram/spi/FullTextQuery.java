/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.spi;

import dev.engram.EntryType;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A full-text query as stores receive it: the query already analysed into terms by
 * {@link TextAnalysis} (normalized, tokenized, stopwords removed, stemmed, deduplicated, at most
 * {@value #MAX_TERMS}), plus filters. A store returns exactly the active versions whose
 * {@link TextAnalysis#fields index terms} contain at least one query term, compared as given (a store
 * applies no analysis of its own to either side), and ranks them with a BM25-style score over content,
 * glossary (weighted higher), disclosure and topics; higher scores are better. Ranking may differ
 * between stores; which versions match does not.
 *
 * <p>The event-time filter ({@code occurredFrom}, {@code occurredTo}) keeps the versions whose
 * {@link dev.engram.MemoryEntry#occurredAt()} lies in the half-open interval {@code [occurredFrom,
 * occurredTo)}, compared exactly (to the nanosecond); either bound may be null (open on that side). When
 * either bound is given, a version without {@code occurredAt} never matches. Like the topic and type
 * filters it is part of the query: a store applies it before it ranks and cuts at the limit, so the
 * result is the best {@code limit} versions inside the interval (see {@link #occurredIn}).
 *
 * @param terms the analysed terms
 * @param topics only versions carrying one of these topics (empty = any)
 * @param types only versions of these types (empty = any)
 * @param occurredFrom only versions that occurred at or after this; null: no lower bound
 * @param occurredTo only versions that occurred before this; null: no upper bound
 */
public record FullTextQuery(List<String> terms, Set<String> topics, Set<EntryType> types,
    @Nullable Instant occurredFrom, @Nullable Instant occurredTo) {
  /** The most terms a query keeps; {@link #terms(String)} drops the rest. */
  public static final int MAX_TERMS = 32;

  /**
   * Stores index at most this many leading characters (Unicode code points) of an entry's content for
   * full text, so that every store accepts the largest allowed entry (a PostgreSQL tsvector holds at
   * most 1 MB); words past it are found by the other channels only. See {@link #indexedContent}.
   */
  public static final int MAX_INDEXED_CONTENT_CHARS = 262_144;

  /**
   * The topic an entry gets when no topic is given. It says nothing about the entry, so it is not
   * full-text indexed (see {@link #indexedTopics}): otherwise every word sharing its stem
   * ("generator", "generally") would match every entry filed without a topic.
   */
  public static final String DEFAULT_TOPIC = "general";

  /**
   * The part of {@code content} a store indexes for full text: its first {@link #MAX_INDEXED_CONTENT_CHARS}
   * code points.
   *
   * @param content an entry's content
   * @return {@code content} itself when it is short enough, else its leading {@link
   *     #MAX_INDEXED_CONTENT_CHARS} code points
   */
  public static String indexedContent(String content) {
    if (content.length() <= MAX_INDEXED_CONTENT_CHARS) {
      return content;
    }
    int end = content.offsetByCodePoints(0, Math.min(MAX_INDEXED_CONTENT_CHARS, content.codePointCount(0, content.length())));
    return content.substring(0, end);
  }

  /**
   * The topics a store indexes for full text, space-separated: all but {@link #DEFAULT_TOPIC}.
   *
   * @param topics an entry's topics
   * @return the topics joined by single spaces, in order; empty when the entry has only the default topic
   */
  public static String indexedTopics(List<String> topics) {
    StringBuilder b = new StringBuilder();
    for (String t : topics) {
      if (!t.equals(DEFAULT_TOPIC)) {
        b.append(b.length() == 0 ? "" : " ").append(t);
      }
    }
    return b.toString();
  }

  /** Words too common to say anything about what a question is about: {@link TextAnalysis#STOPWORDS}. */
  public static final Set<String> STOPWORDS = TextAnalysis.STOPWORDS;

  /**
   * Copies the components and checks the event-time bounds.
   *
   * @param terms the analysed terms
   * @param topics only versions carrying one of these topics (empty = any)
   * @param types only versions of these types (empty = any)
   * @param occurredFrom the lower bound (inclusive), or null
   * @param occurredTo the upper bound (exclusive), or null
   * @throws NullPointerException when a collection or an element of one is null
   * @throws dev.engram.InvalidInputException when both bounds are given and {@code occurredTo} is not after
   *     {@code occurredFrom}
   */
  public FullTextQuery {
    terms = List.copyOf(terms);
    topics = Set.copyOf(topics);
    types = Set.copyOf(types);
    if (occurredFrom != null && occurredTo != null && !occurredFrom.isBefore(occurredTo)) {
      throw new dev.engram.InvalidInputException("occurredTo",
          "must be after occurredFrom (" + occurredFrom + "), was " + occurredTo);
    }
  }

  /**
   * A query without an event-time filter.
   *
   * @param terms the analysed terms
   * @param topics only versions carrying one of these topics (empty = any)
   * @param types only versions of these types (empty = any)
   */
  public FullTextQuery(List<String> terms, Set<String> topics, Set<EntryType> types) {
    this(terms, topics, types, null, null);
  }

  /**
   * This query with the event-time filter {@code [from, to)}.
   *
   * @param from the lower bound (inclusive), or null
   * @param to the upper bound (exclusive), or null
   * @return the filtered query
   * @throws dev.engram.InvalidInputException when both are given and {@code to} is not after {@code from}
   */
  public FullTextQuery occurredBetween(@Nullable Instant from, @Nullable Instant to) {
    return new FullTextQuery(terms, topics, types, from, to);
  }

  /** @return whether the query has an event-time filter (either bound given) */
  public boolean filtersOccurredAt() {
    return occurredFrom != null || occurredTo != null;
  }

  /**
   * Whether an event time passes the event-time filter: always without a filter; with one, only a
   * non-null time in {@code [occurredFrom, occurredTo)}.
   *
   * @param occurredAt a version's {@link dev.engram.MemoryEntry#occurredAt()}, or null
   * @return whether a version with that event time matches the filter
   */
  public boolean occurredIn(@Nullable Instant occurredAt) {
    return occurredIn(occurredAt, occurredFrom, occurredTo);
  }

  /**
   * Whether {@code occurredAt} lies in {@code [from, to)}: true when both bounds are null; otherwise
   * false for a null time.
   *
   * @param occurredAt the event time, or null
   * @param from the lower bound (inclusive), or null
   * @param to the upper bound (exclusive), or null
   * @return whether the time passes the filter
   */
  public static boolean occurredIn(@Nullable Instant occurredAt, @Nullable Instant from, @Nullable Instant to) {
    if (from == null && to == null) {
      return true;
    }
    return occurredAt != null && (from == null || !occurredAt.isBefore(from)) && (to == null || occurredAt.isBefore(to));
  }

  /**
   * The terms of a query text: {@link TextAnalysis#queryTerms} with at most {@value #MAX_TERMS}. A
   * query made only of stopwords has no terms and matches nothing.
   *
   * @param text the query text
   * @return the distinct analysed terms
   */
  public static List<String> terms(String text) {
    return TextAnalysis.queryTerms(text, MAX_TERMS);
  }
}
