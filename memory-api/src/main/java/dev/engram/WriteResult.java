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
 *     with OR or naming several situations. The write succeeded; empty when there is nothing to say
 */
public record WriteResult(Outcome outcome, MemoryEntry entry, long revision, List<String> warnings) {
  public enum Outcome {
    APPENDED,
    DEDUPED,
    UPDATED
  }

  public WriteResult {
    Objects.requireNonNull(outcome, "outcome");
    Objects.requireNonNull(entry, "entry");
    warnings = List.copyOf(warnings);
  }

  /**
   * A result without warnings.
   *
   * @param outcome what the write did
   * @param entry the entry version that now holds the content
   * @param revision the scope's revision after the write
   */
  public WriteResult(Outcome outcome, MemoryEntry entry, long revision) {
    this(outcome, entry, revision, List.of());
  }

  /**
   * @param newWarnings the warnings
   * @return this result with {@code newWarnings} instead of its own
   */
  public WriteResult withWarnings(List<String> newWarnings) {
    return new WriteResult(outcome, entry, revision, newWarnings);
  }

  public Citation citation() {
    return entry.citation();
  }
}
