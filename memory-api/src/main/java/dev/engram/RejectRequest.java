/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.util.Objects;

/**
 * A rejection of a review item ({@link ReviewInbox#reject}): the version the reviewer read, who rejects,
 * and why (required, at most {@value ReviewItem#MAX_REASON_CHARS} characters).
 */
public final class RejectRequest {
  private final long expectedVersion;
  private final String reviewer;
  private final String reason;

  private RejectRequest(long expectedVersion, String reviewer, String reason) {
    this.expectedVersion = expectedVersion;
    this.reviewer = Objects.requireNonNull(reviewer, "reviewer");
    this.reason = Objects.requireNonNull(reason, "reason");
  }

  /**
   * @param expectedVersion the item version the reviewer read
   * @param reviewer who rejects
   * @param reason why (required)
   * @return a builder
   */
  public static Builder builder(long expectedVersion, String reviewer, String reason) {
    return new Builder(expectedVersion, reviewer, reason);
  }

  /**
   * @param expectedVersion the item version the reviewer read
   * @param reviewer who rejects
   * @param reason why
   * @return the request
   */
  public static RejectRequest of(long expectedVersion, String reviewer, String reason) {
    return builder(expectedVersion, reviewer, reason).build();
  }

  /** @return the item version the reviewer read */
  public long expectedVersion() {
    return expectedVersion;
  }

  /** @return who rejects */
  public String reviewer() {
    return reviewer;
  }

  /** @return why */
  public String reason() {
    return reason;
  }

  /** Builds a {@link RejectRequest}. */
  public static final class Builder {
    private final long expectedVersion;
    private final String reviewer;
    private final String reason;

    private Builder(long expectedVersion, String reviewer, String reason) {
      this.expectedVersion = expectedVersion;
      this.reviewer = Objects.requireNonNull(reviewer, "reviewer");
      this.reason = Objects.requireNonNull(reason, "reason");
    }

    /** @return the request */
    public RejectRequest build() {
      return new RejectRequest(expectedVersion, reviewer, reason);
    }
  }
}
