/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.spi;

import dev.engram.MemoryEntry;
import java.util.Objects;

/** A version and a channel score (higher is better). */
public record ScoredEntry(MemoryEntry entry, double score) {
  /** Validates and copies the components. */
  public ScoredEntry {
    Objects.requireNonNull(entry, "entry");
  }
}
