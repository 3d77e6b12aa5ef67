/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The hits of a search and the mode that produced them.
 *
 * @param requested the mode asked for
 * @param used the mode actually run ({@code FTS}, {@code VECTOR} or {@code HYBRID}); differs from
 *     {@code requested} only for {@code AUTO}
 * @param hits the hits, best first, at most the request's limit
 * @param fallbackReason why {@code AUTO} ran full-text only, or null
 * @param warnings what the search did in part only, e.g. scopes whose vectors are incomplete that an
 *     {@code AUTO} search searched by full text only while the others were searched by both channels;
 *     empty when there is nothing to say
 */
public record SearchResult(
    SearchMode requested, SearchMode used, List<SearchHit> hits, @Nullable String fallbackReason,
    List<String> warnings) {
  /**
   * Checks the modes and copies the lists.
   *
   * @param requested the mode asked for
   * @param used the mode actually run
   * @param hits the hits, best first
   * @param fallbackReason why {@code AUTO} ran full-text only, or null
   * @param warnings what the search did in part only (empty: nothing to say)
   * @throws NullPointerException when a mode or a list (or an element of one) is null
   */
  public SearchResult {
    Objects.requireNonNull(requested, "requested");
    Objects.requireNonNull(used, "used");
    hits = List.copyOf(hits);
    warnings = List.copyOf(warnings);
  }

  /**
   * A result without warnings.
   *
   * @param requested the mode asked for
   * @param used the mode actually run
   * @param hits the hits, best first
   * @param fallbackReason why {@code AUTO} ran full-text only, or null
   */
  public SearchResult(SearchMode requested, SearchMode used, List<SearchHit> hits, @Nullable String fallbackReason) {
    this(requested, used, hits, fallbackReason, List.of());
  }
}
