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
 * @param eventId identifies the event; history pages are ordered by revision, then event id
 * @param scope the entry's scope
 * @param entryId the entry that changed
 * @param kind what the change was
 * @param before the version as it was (null for {@code CREATE})
 * @param after the version as it became
 * @param actor the source that made the change
 * @param reason why, when the caller or curator said
 * @param revision the scope revision the change committed in
 * @param at when the change was committed
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
  /**
   * Checks the required components and settles the origin: a given origin is lowercased and checked, a null
   * one inferred from the actor ({@link #inferredOrigin}).
   *
   * @param eventId identifies the event
   * @param scope the entry's scope
   * @param entryId the entry that changed
   * @param kind what the change was
   * @param before the version as it was, or null
   * @param after the version as it became, or null
   * @param actor the source that made the change, or null
   * @param reason why, or null
   * @param revision the scope revision the change committed in
   * @param at when the change was committed
   * @param origin where the change came from, or null to infer it
   * @throws NullPointerException when {@code eventId}, {@code scope}, {@code entryId}, {@code kind} or {@code
   *     at} is null
   * @throws InvalidInputException when {@code origin} is not an open id (1 to 32 lowercase letters, digits or
   *     {@code -}, starting with a letter)
   */
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
