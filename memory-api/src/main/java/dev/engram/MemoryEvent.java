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
 * @param origin where the change came from (application, agent, MCP, console, curator, import)
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
    Instant at,
    Origin origin) {
  public MemoryEvent {
    Objects.requireNonNull(eventId, "eventId");
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(entryId, "entryId");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(at, "at");
    Objects.requireNonNull(origin, "origin");
  }

  /**
   * An event whose origin is {@linkplain Origin#inferred inferred} from its actor.
   *
   * @param eventId the event
   * @param scope the entry's scope
   * @param entryId the entry
   * @param kind what happened
   * @param before the version as it was
   * @param after the version as it became
   * @param actor who made the change
   * @param reason why
   * @param revision the scope revision of the change
   * @param at when
   */
  public MemoryEvent(String eventId, String scope, String entryId, EventKind kind, @Nullable MemoryEntry before,
      @Nullable MemoryEntry after, @Nullable String actor, @Nullable String reason, long revision, Instant at) {
    this(eventId, scope, entryId, kind, before, after, actor, reason, revision, at, Origin.inferred(actor));
  }
}
