/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.spi;

import dev.engram.EntryType;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The reasoner's answer to a {@link TagRequest}. Untrusted: every field is validated before anything
 * is written. Null fields are rejected, except {@code duplicateOf} and {@code views}.
 *
 * @param namespace where to file the entry: one of the granted namespaces the write may use
 * @param topics the entry's topics; the caller's hinted topics come first whatever is proposed, these
 *     after them up to the topic limit
 * @param type the entry's type; a type the caller gave wins
 * @param content the content to store, within the engine's content limit
 * @param duplicateOf the entryId of a shown candidate this content duplicates, or null
 * @param views views of the content, written in the same answer when {@link TagRequest#viewsWanted()};
 *     null to let the engine ask {@link Reasoner#views} or use its rules. Invalid views are replaced by
 *     the rule-based ones.
 */
public record TagProposal(
    @Nullable String namespace,
    @Nullable List<String> topics,
    @Nullable EntryType type,
    @Nullable String content,
    @Nullable String duplicateOf,
    @Nullable EntryViews views) {

  /**
   * A proposal without views.
   *
   * @param namespace where to file the entry
   * @param topics the entry's topics
   * @param type the entry's type
   * @param content the content to store
   * @param duplicateOf the entryId of a shown candidate this content duplicates, or null
   */
  public TagProposal(@Nullable String namespace, @Nullable List<String> topics, @Nullable EntryType type,
      @Nullable String content, @Nullable String duplicateOf) {
    this(namespace, topics, type, content, duplicateOf, null);
  }
}
