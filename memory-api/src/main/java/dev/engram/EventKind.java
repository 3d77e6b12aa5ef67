/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

/** What a {@link MemoryEvent} recorded. */
public enum EventKind {
  /** First version written. */
  CREATE,
  /** New version with new content or metadata (correct, path upsert, curation). */
  UPDATE,
  /** New version restored from an earlier create/update event. */
  ROLLBACK,
  /** The entry's current version was retired: it is no longer active. */
  RETIRE,
  /** A retired version became active again. */
  REACTIVATE,
  /** The entry was merged into, or compacted into, another entry. */
  MERGE,
  /** New version at another path; the old path is free. Never rolled back to. */
  MOVE;

  /**
   * @return whether an event of this kind can be rolled back to: only {@link #CREATE}, {@link #UPDATE} and
   *     {@link #ROLLBACK} record content to restore
   */
  public boolean restorable() {
    return this == CREATE || this == UPDATE || this == ROLLBACK;
  }
}
