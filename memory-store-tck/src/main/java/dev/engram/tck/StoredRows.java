/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.tck;

import java.util.List;

/**
 * A store's own view of what it holds at rest, beneath the SPI: every table of a database (indexes,
 * counters and bookkeeping tables included), every map of an in-memory store. The erasure layer asks it
 * which rows still mention erased text, so "erasure leaves no trace" is checked against the storage
 * itself and not only through the reads the SPI offers.
 *
 * <p>A store's TCK class implements {@link MemoryStoreTck#storedRows}; databases scan the text of every
 * column of every table they created, an in-memory store renders each entry of each of its maps.
 */
@FunctionalInterface
public interface StoredRows {
  /**
   * The stored rows whose text contains {@code text} (case-sensitive), each rendered as
   * {@code "<table>: <row>"} for a failure message; empty when no row mentions it.
   *
   * @param text the text to look for, at least one character
   * @return the rows that mention it
   */
  List<String> mentioning(String text);
}
