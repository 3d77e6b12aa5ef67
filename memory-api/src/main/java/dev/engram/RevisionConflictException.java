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
  private final String scope;
  private final @Nullable Long expectedRevision;
  private final long actualRevision;

  public RevisionConflictException(
      String scope, @Nullable Long expectedRevision, long actualRevision, String message) {
    super(ErrorCode.REVISION_CONFLICT, message);
    this.scope = scope;
    this.expectedRevision = expectedRevision;
    this.actualRevision = actualRevision;
  }

  public String scope() {
    return scope;
  }

  /** The revision the caller expected, or null when the conflict is about a stale citation. */
  public @Nullable Long expectedRevision() {
    return expectedRevision;
  }

  public long actualRevision() {
    return actualRevision;
  }
}
