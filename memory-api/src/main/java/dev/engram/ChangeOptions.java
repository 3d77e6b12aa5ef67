/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import org.jspecify.annotations.Nullable;

/**
 * Options of the calls that change an existing entry ({@code correct}, {@code retire},
 * {@code reactivate}, {@code rollback}).
 *
 * @param expectedRevision fail with {@link RevisionConflictException} unless the entry's scope is at
 *     this revision
 * @param source the actor recorded in history
 * @param reason why, recorded in history
 * @param origin where the change comes from, recorded in history (null: {@link Origin#APPLICATION})
 */
public record ChangeOptions(
    @Nullable Long expectedRevision, @Nullable String source, @Nullable String reason, @Nullable Origin origin) {
  private static final ChangeOptions NONE = new ChangeOptions(null, null, null);

  /**
   * Options without an origin.
   *
   * @param expectedRevision the expected revision, or null
   * @param source the actor, or null
   * @param reason why, or null
   */
  public ChangeOptions(@Nullable Long expectedRevision, @Nullable String source, @Nullable String reason) {
    this(expectedRevision, source, reason, null);
  }

  /**
   * @param newOrigin where the change comes from
   * @return these options with {@code newOrigin}
   */
  public ChangeOptions withOrigin(Origin newOrigin) {
    return new ChangeOptions(expectedRevision, source, reason, java.util.Objects.requireNonNull(newOrigin, "origin"));
  }

  public static ChangeOptions none() {
    return NONE;
  }

  public static ChangeOptions reason(String reason) {
    return new ChangeOptions(null, null, java.util.Objects.requireNonNull(reason, "reason"));
  }

  public static ChangeOptions expectedRevision(long revision) {
    return new ChangeOptions(revision, null, null);
  }

  public ChangeOptions withSource(String newSource) {
    return new ChangeOptions(expectedRevision, java.util.Objects.requireNonNull(newSource, "source"), reason, origin);
  }

  public ChangeOptions withReason(String newReason) {
    return new ChangeOptions(expectedRevision, source, java.util.Objects.requireNonNull(newReason, "reason"), origin);
  }

  public ChangeOptions withExpectedRevision(long revision) {
    return new ChangeOptions(revision, source, reason, origin);
  }
}
