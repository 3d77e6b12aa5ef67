/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One change to one entry, with snapshots of the affected version before and after.
 *
 * @param before the version as it was (null for {@code CREATE})
 * @param after the version as it became
 * @param actor the source that made the change
 * @param reason why, when the caller or curator said
 * @param revision the scope revision the change committed in
 */
public record MemoryEvent(
    String eventId,
    String scope,
    String entryId,
    EventKind kind,
    @Nullable MemoryEntry before,
    @Nullable MemoryEntry after,
    @Nullable String actor,
    @Nullable String reason,
    long revision,
    Instant at) {
  public MemoryEvent {
    Objects.requireNonNull(eventId, "eventId");
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(entryId, "entryId");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(at, "at");
  }
}
