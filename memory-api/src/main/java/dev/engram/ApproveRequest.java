/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * An approval of a review item ({@link ReviewInbox#approve}): the version the reviewer read, who the
 * reviewer is (the actor of every change the approval commits), and optionally a note and an origin.
 */
public final class ApproveRequest {
  private final long expectedVersion;
  private final String reviewer;
  private final @Nullable String note;
  private final String origin;

  private ApproveRequest(Builder b) {
    this.expectedVersion = b.expectedVersion;
    this.reviewer = b.reviewer;
    this.note = b.note;
    this.origin = b.origin;
  }

  /**
   * @param expectedVersion the item version the reviewer read
   * @param reviewer who approves (kept as the actor of the changes)
   * @return a builder
   */
  public static Builder builder(long expectedVersion, String reviewer) {
    return new Builder(expectedVersion, reviewer);
  }

  /**
   * An approval without note, from the application.
   *
   * @param expectedVersion the item version the reviewer read
   * @param reviewer who approves
   * @return the request
   */
  public static ApproveRequest of(long expectedVersion, String reviewer) {
    return builder(expectedVersion, reviewer).build();
  }

  /** @return the item version the reviewer read */
  public long expectedVersion() {
    return expectedVersion;
  }

  /** @return who approves */
  public String reviewer() {
    return reviewer;
  }

  /** @return the reviewer's note, kept as the item's reason, or null */
  public @Nullable String note() {
    return note;
  }

  /**
   * @return the origin recorded on the history events the approval makes (a curation op's approval is
   *     always recorded as {@code curator}, so {@link Engram#undoCuration} treats it as curation)
   */
  public String origin() {
    return origin;
  }

  /** Builds an {@link ApproveRequest}. */
  public static final class Builder {
    private final long expectedVersion;
    private final String reviewer;
    private @Nullable String note;
    private String origin = "application";

    private Builder(long expectedVersion, String reviewer) {
      this.expectedVersion = expectedVersion;
      this.reviewer = Objects.requireNonNull(reviewer, "reviewer");
    }

    /**
     * @param text the reviewer's note
     * @return this builder
     */
    public Builder note(String text) {
      this.note = Objects.requireNonNull(text, "note");
      return this;
    }

    /**
     * @param where where the approval comes from (e.g. {@code console})
     * @return this builder
     */
    public Builder origin(String where) {
      this.origin = OpenIds.check("origin", where);
      return this;
    }

    /** @return the request */
    public ApproveRequest build() {
      return new ApproveRequest(this);
    }
  }
}
