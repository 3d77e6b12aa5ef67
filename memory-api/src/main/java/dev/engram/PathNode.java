/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One direct child of a browsed prefix: either an active entry's path, or a sub-prefix (ending in
 * {@code /}) under which more paths lie. Never carries content; read the entry when it is needed.
 *
 * @param path the entry's full path, or the sub-prefix ending in {@code /}
 * @param prefix true for a sub-prefix
 * @param scope the entry's scope (null for a sub-prefix)
 * @param entryId the entry (null for a sub-prefix)
 * @param entries 1 for an entry; the number of active entries below a sub-prefix
 */
public record PathNode(String path, boolean prefix, @Nullable String scope, @Nullable String entryId, int entries) {
  /**
   * Checks that the node is either a sub-prefix or an entry.
   *
   * @param path the entry's full path, or the sub-prefix ending in {@code /}
   * @param prefix true for a sub-prefix
   * @param scope the entry's scope, null for a sub-prefix
   * @param entryId the entry, null for a sub-prefix
   * @param entries 1 for an entry; the number of active entries below a sub-prefix
   * @throws NullPointerException when {@code path} is null
   * @throws InvalidInputException when a sub-prefix has a scope or entry id, an entry node lacks one, or
   *     {@code entries} is below 1
   */
  public PathNode {
    Objects.requireNonNull(path, "path");
    if (prefix != (entryId == null) || prefix != (scope == null)) {
      throw new InvalidInputException("prefix", "a sub-prefix has neither scope nor entryId; an entry node has both");
    }
    if (entries < 1) {
      throw new InvalidInputException("entries", "must be >= 1, was " + entries);
    }
  }
}
