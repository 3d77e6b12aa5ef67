/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.util.List;
import java.util.Objects;

/**
 * What a write did.
 *
 * @param outcome appended a new entry, deduplicated to an existing one, or updated the entry at the path
 * @param entry the entry version that now holds the content
 * @param revision the scope's revision after the write (unchanged for {@code DEDUPED})
 * @param warnings what the write stored but should be better: a missing disclosure, or one worded
 *     with OR or naming several situations; vectors that could not be made. The write succeeded;
 *     empty when there is nothing to say
 * @param vectorsMissing true when an embedder is configured but the entry version was stored without
 *     vectors (the embedder failed, was late, or its executor was saturated; a warning says which): the
 *     write is committed, search finds the entry by full text only, the scope's vectors count as
 *     incomplete, and {@link EngramOperator#reindex} embeds it later
 */
public record WriteResult(
    Outcome outcome, MemoryEntry entry, long revision, List<String> warnings, boolean vectorsMissing) {
  /** What a write did with its content. */
  public enum Outcome {
    /** A new entry was created; {@code entry} is its first version. */
    APPENDED,
    /**
     * Nothing was written: an existing active entry already says the same (or the edit changed nothing);
     * {@code entry} is that entry's current version.
     */
    DEDUPED,
    /** The entry at the path (or the edited entry) got a new version; {@code entry} is that version. */
    UPDATED
  }

  /**
   * Checks the required components and copies the warnings.
   *
   * @param outcome what the write did
   * @param entry the entry version that now holds the content
   * @param revision the scope's revision after the write
   * @param warnings what the write stored but should be better (empty: nothing to say)
   * @param vectorsMissing whether the version was stored without the vectors an embedder should have made
   * @throws NullPointerException when {@code outcome}, {@code entry} or {@code warnings} (or a warning) is
   *     null
   */
  public WriteResult {
    Objects.requireNonNull(outcome, "outcome");
    Objects.requireNonNull(entry, "entry");
    warnings = List.copyOf(warnings);
  }

  /**
   * A result with its vectors stored (or none wanted).
   *
   * @param outcome what the write did
   * @param entry the entry version that now holds the content
   * @param revision the scope's revision after the write
   * @param warnings the warnings
   */
  public WriteResult(Outcome outcome, MemoryEntry entry, long revision, List<String> warnings) {
    this(outcome, entry, revision, warnings, false);
  }

  /**
   * A result without warnings.
   *
   * @param outcome what the write did
   * @param entry the entry version that now holds the content
   * @param revision the scope's revision after the write
   */
  public WriteResult(Outcome outcome, MemoryEntry entry, long revision) {
    this(outcome, entry, revision, List.of(), false);
  }

  /**
   * @param newWarnings the warnings
   * @return this result with {@code newWarnings} instead of its own
   */
  public WriteResult withWarnings(List<String> newWarnings) {
    return new WriteResult(outcome, entry, revision, newWarnings, vectorsMissing);
  }

  /** @return the exact citation of the entry version, as {@link MemoryEntry#citation()} */
  public Citation citation() {
    return entry.citation();
  }
}
