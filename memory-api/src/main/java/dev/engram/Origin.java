/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import org.jspecify.annotations.Nullable;

/**
 * Where a change came from, recorded on every {@link MemoryEvent} next to the free-text actor (for an
 * agent, the actor names the runtime or client type when it is known).
 */
public enum Origin {
  /** The embedding application's own code (the default). */
  APPLICATION,
  /** An agent through the {@code memory_*} tools. */
  AGENT,
  /** An agent through the MCP server. */
  MCP,
  /** A person through the command line or web console. */
  CONSOLE,
  /** Curation (and the undo of a curation run). */
  CURATOR,
  /** An import or migration of existing memory. */
  IMPORT;

  /**
   * The origin of an event that recorded none (written before origins were recorded): curation's
   * actors mean {@link #CURATOR}, anything else {@link #APPLICATION}.
   *
   * @param actor the event's actor
   * @return the inferred origin
   */
  public static Origin inferred(@Nullable String actor) {
    return "curator".equals(actor) || "curator-undo".equals(actor) ? CURATOR : APPLICATION;
  }
}
