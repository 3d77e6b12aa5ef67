/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One item of a revision's change set: what happened to which entry version. Ids only, never content.
 *
 * @param kind what happened
 * @param entryId the entry it happened to
 * @param versionId the version concerned; null for a {@link ChangeKind#DELETE}, which erases every version
 */
public record Change(ChangeKind kind, String entryId, @Nullable String versionId) {
  /**
   * Checks the required components.
   *
   * @param kind what happened
   * @param entryId the entry it happened to
   * @param versionId the version concerned, or null (a {@link ChangeKind#DELETE} names none)
   * @throws NullPointerException when {@code kind} or {@code entryId} is null
   */
  public Change {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(entryId, "entryId");
  }
}
