/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.time.Instant;
import java.util.Locale;
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
 * @param origin where the change came from: an open lowercase id. The engine writes {@code application}
 *     (the default), {@code curator} (curation runs and their undo) and {@code import}; the agent
 *     tools, the MCP server and the console write their own ({@code agent}, {@code mcp},
 *     {@code console}). Null is inferred from the actor ({@code curator} for the curator's actors,
 *     otherwise {@code application}); an id is stored lowercase.
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
    String origin) {
  public MemoryEvent {
    Objects.requireNonNull(eventId, "eventId");
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(entryId, "entryId");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(at, "at");
    origin = origin == null ? inferredOrigin(actor) : OpenIds.check("origin", origin.toLowerCase(Locale.ROOT));
  }

  /**
   * The origin of a change that names none: {@code curator} for the curator's actors
   * ({@code curator}, {@code curator-undo}), otherwise {@code application}.
   *
   * @param actor the change's actor, or null
   * @return the inferred origin
   */
  public static String inferredOrigin(@Nullable String actor) {
    return "curator".equals(actor) || "curator-undo".equals(actor) ? "curator" : "application";
  }
}
