/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.spi;

import dev.engram.MemoryEntry;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One bounded slice for the reasoner to tidy: the active entries of one (scope, topic), newest first.
 * Operations may name only the entries shown here.
 *
 * @param scope the scope of the slice
 * @param topic the topic of the slice
 * @param blurb the topic's current one-line summary, or null when it has none yet
 * @param entries the active entries of the topic, newest first
 */
public record CurateRequest(String scope, String topic, @Nullable String blurb, List<MemoryEntry> entries) {
  /**
   * Validates and copies the components.
   *
   * @param scope the scope of the slice
   * @param topic the topic of the slice
   * @param blurb the topic's current one-line summary, or null
   * @param entries the active entries of the topic, newest first
   * @throws NullPointerException when {@code scope}, {@code topic} or {@code entries} (or an entry) is null
   */
  public CurateRequest {
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(topic, "topic");
    entries = List.copyOf(entries);
  }
}
