/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

/** Where a {@link ReviewItem} stands. */
public enum ReviewState {
  /** Waiting for a person: changes nothing, and never reaches read, search or context. */
  PENDING,
  /** Approved: its change was committed with the reviewer as actor. Final. */
  APPROVED,
  /** Rejected with a reason: nothing was changed. Final. */
  REJECTED
}
