/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.spi;

import java.util.List;
import org.jspecify.annotations.Nullable;

/** One operation a reasoner proposes during curation. Untrusted: validated before it is applied. */
public sealed interface CurateOp {

  /**
   * The duplicates are superseded by {@code keepEntryId}; a non-null {@code mergedContent} corrects it first.
   *
   * @param keepEntryId the shown active entry that stays
   * @param duplicateEntryIds shown active entries merged into it (at least one, none of them the kept one)
   * @param mergedContent the kept entry's new content, or null to keep its content
   */
  record Merge(String keepEntryId, List<String> duplicateEntryIds, @Nullable String mergedContent)
      implements CurateOp {}

  /**
   * Resolves a contradiction by writing a new version of the entry.
   *
   * @param entryId the shown active entry
   * @param content its new content, which must differ from the current one
   * @param reason why, recorded in history, or null
   */
  record Rewrite(String entryId, String content, @Nullable String reason) implements CurateOp {}

  /**
   * Retires an entry that no longer holds.
   *
   * @param entryId the shown active entry
   * @param reason why, recorded in history, or null
   */
  record Retire(String entryId, @Nullable String reason) implements CurateOp {}

  /**
   * Replaces stale entries with one summary entry in the same scope: a new {@code SUMMARY} entry with the
   * union of their topics, and the entries superseded into it.
   *
   * @param entryIds the shown active entries to replace, at least two
   * @param summary the content of the summary entry
   */
  record Compact(List<String> entryIds, String summary) implements CurateOp {}

  /**
   * Adds ({@code core = true}) or removes the {@code core} topic, as a new version of the entry.
   *
   * @param entryId the shown active entry
   * @param core true to add the topic, false to remove it; an operation that changes nothing is rejected
   */
  record SetCore(String entryId, boolean core) implements CurateOp {}

  /**
   * Replaces the topic's blurb; it is recorded with the curation pass.
   *
   * @param blurb the topic's new one-line summary
   */
  record Blurb(String blurb) implements CurateOp {}
}
