/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import org.jspecify.annotations.Nullable;

/**
 * Optimistic concurrency failed: the scope's revision (or the cited version) is no longer the one the
 * caller expected. Read the current state and decide again; do not guess the next revision.
 */
public class RevisionConflictException extends MemoryException {
  private static final long serialVersionUID = 1L;
  /** The scope whose revision or version moved on. */
  private final String scope;
  /** The revision the caller expected, or null for a stale citation. */
  private final @Nullable Long expectedRevision;
  /** The scope's revision when the conflict was found. */
  private final long actualRevision;

  /**
   * @param scope the scope whose revision or version moved on
   * @param expectedRevision the revision the caller expected, or null when the conflict is about a stale
   *     citation
   * @param actualRevision the scope's revision when the conflict was found
   * @param message what conflicted, for people
   */
  public RevisionConflictException(
      String scope, @Nullable Long expectedRevision, long actualRevision, String message) {
    super(ErrorCode.REVISION_CONFLICT, message);
    this.scope = scope;
    this.expectedRevision = expectedRevision;
    this.actualRevision = actualRevision;
  }

  /** @return the scope whose revision or version moved on */
  public String scope() {
    return scope;
  }

  /** @return the revision the caller expected, or null when the conflict is about a stale citation */
  public @Nullable Long expectedRevision() {
    return expectedRevision;
  }

  /** @return the scope's revision when the conflict was found */
  public long actualRevision() {
    return actualRevision;
  }
}
