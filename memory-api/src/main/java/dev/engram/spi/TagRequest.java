/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.spi;

import dev.engram.EntryType;
import dev.engram.MemoryEntry;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What the engine shows the reasoner to file one write.
 *
 * @param grants the granted namespaces, in order; the proposal must name one the caller may write
 * @param visibleTopics topics already used in the visible scopes, most used first (reuse them)
 * @param content the normalized content
 * @param topicsHint the caller's topics: the entry keeps them, the reasoner may add more
 * @param typeHint the caller's type, or null; when given, the entry gets it whatever the reasoner proposes
 * @param candidates existing active entries that may be duplicates, nearest first (by the search
 *     channels the wiring has, then the hinted topics); {@code duplicateOf} may name only these
 * @param viewsWanted whether the version will be embedded: a reasoner that writes views may return
 *     them on the proposal ({@link TagProposal#views()}) and save a separate {@link Reasoner#views} call
 */
public record TagRequest(
    List<String> grants,
    List<String> visibleTopics,
    String content,
    List<String> topicsHint,
    @Nullable EntryType typeHint,
    List<MemoryEntry> candidates,
    boolean viewsWanted) {
  /**
   * Validates and copies the components.
   *
   * @param grants the granted namespaces, in order
   * @param visibleTopics topics already used in the visible scopes, most used first
   * @param content the normalized content
   * @param topicsHint the caller's topics
   * @param typeHint the caller's type, or null
   * @param candidates existing active entries that may be duplicates, nearest first
   * @param viewsWanted whether the version will be embedded
   * @throws NullPointerException when {@code content}, a list or an element of a list is null
   */
  public TagRequest {
    grants = List.copyOf(grants);
    visibleTopics = List.copyOf(visibleTopics);
    Objects.requireNonNull(content, "content");
    topicsHint = List.copyOf(topicsHint);
    candidates = List.copyOf(candidates);
  }

  /**
   * A request that asks for no views ({@code viewsWanted} false).
   *
   * @param grants the granted namespaces, in order
   * @param visibleTopics topics already used in the visible scopes, most used first
   * @param content the normalized content
   * @param topicsHint the caller's topics
   * @param typeHint the caller's type, or null
   * @param candidates existing active entries that may be duplicates, nearest first
   * @throws NullPointerException when {@code content}, a list or an element of a list is null
   */
  public TagRequest(List<String> grants, List<String> visibleTopics, String content, List<String> topicsHint,
      @Nullable EntryType typeHint, List<MemoryEntry> candidates) {
    this(grants, visibleTopics, content, topicsHint, typeHint, candidates, false);
  }
}
