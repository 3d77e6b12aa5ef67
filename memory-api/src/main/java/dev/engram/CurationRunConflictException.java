/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

/**
 * A curation run cannot be undone: it is not the most recent run for its scopes, or something it
 * touched changed after it. Nothing was reverted in the scope named.
 */
public class CurationRunConflictException extends RevisionConflictException {
  private static final long serialVersionUID = 1L;
  /** The run asked to be undone. */
  private final String runId;

  /**
   * @param runId the run asked to be undone
   * @param scope the scope where the conflict was found
   * @param actualRevision that scope's head
   * @param message what happened since the run
   */
  public CurationRunConflictException(String runId, String scope, long actualRevision, String message) {
    super(scope, null, actualRevision, message);
    this.runId = runId;
  }

  /** @return the run asked to be undone */
  public String runId() {
    return runId;
  }
}
