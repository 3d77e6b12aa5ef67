/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

/**
 * What an import does with the scopes of the export that the target store already holds
 * ({@link ImportOptions#mode()}).
 *
 * <p>There is no merge mode. An export is a scope's whole history: versions chained by id, events, and a
 * gap-free revision log whose change sets name those versions. Merging two histories of one scope would
 * mean renumbering one side's revisions (breaking every citation, which names a revision), and deciding
 * which of two active entries at one path or with one content wins, silently: the engine keeps one active
 * entry per path and per content. To combine memories, import into an empty scope and write what should
 * carry over through the ordinary write path, where dedupe and the reasoner apply.
 */
public enum ImportMode {
  /** The default: every scope of the export must be empty in the target store; a non-empty one refuses the import. */
  INTO_EMPTY,
  /**
   * A restore: each scope of the export replaces what the target store holds for it. Inside one transaction
   * per scope, the scope is erased as {@link Engram#deleteScope} erases it (entries, versions, history, indexes,
   * sources, experience, review items) and its revision log and head too, then the export is written as it is,
   * so the scope is exactly what was exported and revisions restart from the export's. A failure leaves the
   * scope as it was. Needs a store with {@link dev.engram.spi.StoreCapability#REPLACE_SCOPE}.
   */
  REPLACE
}
