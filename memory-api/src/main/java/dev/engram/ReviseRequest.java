/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A reviewer's edit of a pending item ({@link ReviewInbox#revise}): the version the reviewer read, who
 * edits, and the fields to replace. An experience takes {@code situation}, {@code action},
 * {@code outcome} and {@code lesson}; an extracted memory and a curation op that carries text (rewrite,
 * merge with merged content, compact) take {@code content}. A field the item's kind does not have is an
 * {@link InvalidInputException}; a revision sets at least one field. The item stays pending at the next
 * version.
 */
public final class ReviseRequest {
  private final long expectedVersion;
  private final String reviewer;
  private final @Nullable String situation;
  private final @Nullable String action;
  private final @Nullable String outcome;
  private final @Nullable String lesson;
  private final @Nullable String content;
  private final @Nullable String reason;

  private ReviseRequest(Builder b) {
    this.expectedVersion = b.expectedVersion;
    this.reviewer = b.reviewer;
    this.situation = b.situation;
    this.action = b.action;
    this.outcome = b.outcome;
    this.lesson = b.lesson;
    this.content = b.content;
    this.reason = b.reason;
  }

  /**
   * @param expectedVersion the item version the reviewer read
   * @param reviewer who edits
   * @return a builder
   */
  public static Builder builder(long expectedVersion, String reviewer) {
    return new Builder(expectedVersion, reviewer);
  }

  /** @return the item version the reviewer read */
  public long expectedVersion() {
    return expectedVersion;
  }

  /** @return who edits */
  public String reviewer() {
    return reviewer;
  }

  /** @return the new situation of an experience, or null to keep it */
  public @Nullable String situation() {
    return situation;
  }

  /** @return the new action of an experience, or null to keep it */
  public @Nullable String action() {
    return action;
  }

  /** @return the new outcome of an experience, or null to keep it */
  public @Nullable String outcome() {
    return outcome;
  }

  /** @return the new lesson of an experience, or null to keep it */
  public @Nullable String lesson() {
    return lesson;
  }

  /** @return the new text of an extracted memory or curation op, or null to keep it */
  public @Nullable String content() {
    return content;
  }

  /** @return why, kept as the item's reason, or null */
  public @Nullable String reason() {
    return reason;
  }

  /** Builds a {@link ReviseRequest}. */
  public static final class Builder {
    private final long expectedVersion;
    private final String reviewer;
    private @Nullable String situation;
    private @Nullable String action;
    private @Nullable String outcome;
    private @Nullable String lesson;
    private @Nullable String content;
    private @Nullable String reason;

    private Builder(long expectedVersion, String reviewer) {
      this.expectedVersion = expectedVersion;
      this.reviewer = Objects.requireNonNull(reviewer, "reviewer");
    }

    /**
     * @param text the experience's new situation
     * @return this builder
     */
    public Builder situation(String text) {
      this.situation = Objects.requireNonNull(text, "situation");
      return this;
    }

    /**
     * @param text the experience's new action
     * @return this builder
     */
    public Builder action(String text) {
      this.action = Objects.requireNonNull(text, "action");
      return this;
    }

    /**
     * @param text the experience's new outcome
     * @return this builder
     */
    public Builder outcome(String text) {
      this.outcome = Objects.requireNonNull(text, "outcome");
      return this;
    }

    /**
     * @param text the experience's new lesson
     * @return this builder
     */
    public Builder lesson(String text) {
      this.lesson = Objects.requireNonNull(text, "lesson");
      return this;
    }

    /**
     * @param text the new text of an extracted memory or curation op
     * @return this builder
     */
    public Builder content(String text) {
      this.content = Objects.requireNonNull(text, "content");
      return this;
    }

    /**
     * @param why why the reviewer edits
     * @return this builder
     */
    public Builder reason(String why) {
      this.reason = Objects.requireNonNull(why, "reason");
      return this;
    }

    /** @return the request */
    public ReviseRequest build() {
      return new ReviseRequest(this);
    }
  }
}
