/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.util.Objects;

/**
 * What a write did.
 *
 * @param outcome appended a new entry, deduplicated to an existing one, or updated the entry at the path
 * @param entry the entry version that now holds the content
 * @param revision the scope's revision after the write (unchanged for {@code DEDUPED})
 */
public record WriteResult(Outcome outcome, MemoryEntry entry, long revision) {
  public enum Outcome {
    APPENDED,
    DEDUPED,
    UPDATED
  }

  public WriteResult {
    Objects.requireNonNull(outcome, "outcome");
    Objects.requireNonNull(entry, "entry");
  }

  public Citation citation() {
    return entry.citation();
  }
}
