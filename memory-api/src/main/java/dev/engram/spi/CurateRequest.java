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
 */
public record CurateRequest(String scope, String topic, @Nullable String blurb, List<MemoryEntry> entries) {
  /** Validates and copies the components. */
  public CurateRequest {
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(topic, "topic");
    entries = List.copyOf(entries);
  }
}
