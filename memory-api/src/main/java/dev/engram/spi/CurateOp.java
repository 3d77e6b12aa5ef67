/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.spi;

import java.util.List;
import org.jspecify.annotations.Nullable;

/** One operation a reasoner proposes during curation. Untrusted: validated before it is applied. */
public sealed interface CurateOp {

  /** The duplicates are superseded by {@code keepEntryId}; a non-null {@code mergedContent} corrects it first. */
  record Merge(String keepEntryId, List<String> duplicateEntryIds, @Nullable String mergedContent)
      implements CurateOp {}

  /** Resolves a contradiction by writing a new version of the entry. */
  record Rewrite(String entryId, String content, @Nullable String reason) implements CurateOp {}

  /** Retires an entry that no longer holds. */
  record Retire(String entryId, @Nullable String reason) implements CurateOp {}

  /** Replaces stale entries with one summary entry in the same scope. */
  record Compact(List<String> entryIds, String summary) implements CurateOp {}

  /** Adds ({@code core = true}) or removes the {@code core} topic. */
  record SetCore(String entryId, boolean core) implements CurateOp {}

  /** Replaces the topic's blurb. */
  record Blurb(String blurb) implements CurateOp {}
}
