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
 */
public record ExtractRequest(String scope, List<CapturedSource> window, List<MemoryEntry> nearby) {
  public ExtractRequest {
    Objects.requireNonNull(scope, "scope");
    window = List.copyOf(window);
    nearby = List.copyOf(nearby);
  }
}
