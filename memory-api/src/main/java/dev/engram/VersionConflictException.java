/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

/**
 * Optimistic concurrency failed on a review item or an experience: the caller's expected version is not
 * the current one (another reviewer decided or revised it first, or the experience changed), or the
 * item is no longer pending. Nothing was changed; read the current state and decide again.
 */
public class VersionConflictException extends MemoryException {
  private static final long serialVersionUID = 1L;
  /** What conflicted: {@code "review item"} or {@code "experience"}. */
  private final String subject;
  /** The id of the review item or experience. */
  private final String id;
  /** The version the caller expected. */
  private final long expectedVersion;
  /** The current version when the conflict was found. */
  private final long actualVersion;

  /**
   * @param subject what conflicted ({@code "review item"}, {@code "experience"})
   * @param id its id
   * @param expectedVersion the version the caller expected
   * @param actualVersion its current version
   * @param message what happened
   */
  public VersionConflictException(String subject, String id, long expectedVersion, long actualVersion, String message) {
    super(ErrorCode.VERSION_CONFLICT, message);
    this.subject = java.util.Objects.requireNonNull(subject, "subject");
    this.id = java.util.Objects.requireNonNull(id, "id");
    this.expectedVersion = expectedVersion;
    this.actualVersion = actualVersion;
  }

  /** @return what conflicted: {@code "review item"} or {@code "experience"} */
  public String subject() {
    return subject;
  }

  /** @return the id of the review item or experience */
  public String id() {
    return id;
  }

  /** @return the version the caller expected */
  public long expectedVersion() {
    return expectedVersion;
  }

  /** @return the current version */
  public long actualVersion() {
    return actualVersion;
  }
}
