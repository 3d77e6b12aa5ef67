/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

/** The state of one {@link Experience} version. */
public enum ExperienceStatus {
  /** The current version of a live experience: eligible for context. */
  ACTIVE,
  /** Replaced by a newer version of the same experience; readable in its history. */
  SUPERSEDED,
  /** The current version of an experience that no longer holds; never rendered into context. */
  RETIRED
}
