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
 * @param visibleTopics topics already used in the visible scopes (reuse them)
 * @param content the normalized content
 * @param topicsHint the caller's topic hints
 * @param typeHint the caller's type hint
 * @param candidates existing active entries that may be duplicates; {@code duplicateOf} may name only these
 */
public record TagRequest(
    List<String> grants,
    List<String> visibleTopics,
    String content,
    List<String> topicsHint,
    @Nullable EntryType typeHint,
    List<MemoryEntry> candidates) {
  /** Validates and copies the components. */
  public TagRequest {
    grants = List.copyOf(grants);
    visibleTopics = List.copyOf(visibleTopics);
    Objects.requireNonNull(content, "content");
    topicsHint = List.copyOf(topicsHint);
    candidates = List.copyOf(candidates);
  }
}
