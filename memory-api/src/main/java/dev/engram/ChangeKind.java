/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

/** One item of a revision's change set. */
public enum ChangeKind {
  /** A new entry's first version was inserted. */
  APPEND,
  /**
   * A new version of an entry with new content (a correction, a path upsert, a curation rewrite or merge).
   */
  UPDATE,
  /** A version stopped being current: a newer version replaced it, or it was merged into another entry. */
  SUPERSEDE,
  /** The entry's current version was retired. */
  RETIRE,
  /** A retired version became active again. */
  REACTIVATE,
  /** A new version restored from an earlier event (a rollback, or the undo of a curation run). */
  ROLLBACK,
  /** A new version that changes metadata only (topics, priority, disclosure, glossary), content unchanged. */
  METADATA,
  /** The entry and all its versions were erased; the change carries no version id. */
  DELETE,
  /** A new version of the entry at another path. */
  MOVE
}
