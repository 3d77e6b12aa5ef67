/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.spi;

import dev.engram.CapturedSource;
import dev.engram.MemoryEntry;
import java.util.List;
import java.util.Objects;

/**
 * One window of captured sources for {@link Reasoner#extract}.
 *
 * @param scope where the extracted entries will live (decided by the engine, never by the reasoner)
 * @param window the records after the scope's cursor, in capture order; candidates may cite only their ids
 * @param nearby active entries of the scope the reasoner may compare with to avoid restating them
 * @param viewsWanted whether the engine will embed the extracted entries: a reasoner that writes views
 *     may then return them with each candidate ({@link ExtractedMemory#views()}) instead of being asked
 *     for them one entry at a time
 * @param before the record just before the window (already extracted), when there is one: context for
 *     the window's first record (the turn it answers), never citable as evidence
 */
public record ExtractRequest(String scope, List<CapturedSource> window, List<MemoryEntry> nearby, boolean viewsWanted,
    List<CapturedSource> before) {
  /**
   * Checks the scope and copies the lists.
   *
   * @param scope where the extracted entries will live
   * @param window the records after the scope's cursor, in capture order
   * @param nearby active entries of the scope to compare with
   * @param viewsWanted whether the engine will embed the extracted entries
   * @param before the record just before the window, or none
   * @throws NullPointerException when {@code scope}, a list or an element of one is null
   */
  public ExtractRequest {
    Objects.requireNonNull(scope, "scope");
    window = List.copyOf(window);
    nearby = List.copyOf(nearby);
    before = List.copyOf(before);
  }

  /**
   * A request without records before the window.
   *
   * @param scope where the entries will live
   * @param window the records
   * @param nearby active entries to compare with
   * @param viewsWanted whether the entries will be embedded
   */
  public ExtractRequest(String scope, List<CapturedSource> window, List<MemoryEntry> nearby, boolean viewsWanted) {
    this(scope, window, nearby, viewsWanted, List.of());
  }

  /**
   * A request whose entries will not be embedded.
   *
   * @param scope where the entries will live
   * @param window the records
   * @param nearby active entries to compare with
   */
  public ExtractRequest(String scope, List<CapturedSource> window, List<MemoryEntry> nearby) {
    this(scope, window, nearby, false);
  }
}
