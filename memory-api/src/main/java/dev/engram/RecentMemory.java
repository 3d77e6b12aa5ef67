/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.time.Instant;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A recently written memory as the boot block lists it: where it is and when it matters, never its
 * content (read it when it becomes relevant).
 *
 * @param scope the entry's scope
 * @param entryId the entry
 * @param path the entry's path, when it has one
 * @param priority 0 core, 1 key, 2+ general
 * @param disclosure when the memory should surface, when set
 * @param writtenAt when its current version was written
 */
public record RecentMemory(
    String scope, String entryId, @Nullable String path, int priority, @Nullable String disclosure,
    Instant writtenAt) {
  /**
   * Checks the required components.
   *
   * @param scope the entry's scope
   * @param entryId the entry
   * @param path the entry's path, or null
   * @param priority 0 core, 1 key, 2+ general
   * @param disclosure when the memory should surface, or null
   * @param writtenAt when its current version was written
   * @throws NullPointerException when {@code scope}, {@code entryId} or {@code writtenAt} is null
   */
  public RecentMemory {
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(entryId, "entryId");
    Objects.requireNonNull(writtenAt, "writtenAt");
  }
}
