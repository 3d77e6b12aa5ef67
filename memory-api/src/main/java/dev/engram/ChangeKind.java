/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

/** One item of a revision's change set. */
public enum ChangeKind {
  APPEND,
  UPDATE,
  SUPERSEDE,
  RETIRE,
  REACTIVATE,
  ROLLBACK,
  METADATA,
  DELETE,
  /** A new version of the entry at another path. */
  MOVE
}
