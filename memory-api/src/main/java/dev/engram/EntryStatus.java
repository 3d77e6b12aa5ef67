/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

/** The lifecycle state of one version of an entry. */
public enum EntryStatus {
  /** The current version of a live entry; returned by default reads and searches. */
  ACTIVE,
  /** Replaced by a newer version (a correction) or merged into another entry. */
  SUPERSEDED,
  /** Deactivated on purpose; still readable by citation, history and audit listings. */
  RETIRED
}
