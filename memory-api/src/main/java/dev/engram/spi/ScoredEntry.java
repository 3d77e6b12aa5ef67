/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.spi;

import dev.engram.MemoryEntry;
import java.util.Objects;

/**
 * A version and a channel score (higher is better).
 *
 * @param entry the version
 * @param score its score in the channel that found it; scales differ between channels
 */
public record ScoredEntry(MemoryEntry entry, double score) {
  /**
   * Checks the entry.
   *
   * @param entry the version
   * @param score its channel score
   * @throws NullPointerException when {@code entry} is null
   */
  public ScoredEntry {
    Objects.requireNonNull(entry, "entry");
  }
}
