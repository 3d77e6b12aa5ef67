/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * One committed revision of a scope and its change set. Revisions of a scope are 1, 2, 3, … without gaps.
 *
 * @param scope the scope the revision belongs to
 * @param revision the revision number, from 1
 * @param changes what the revision did, in commit order
 * @param at when it was committed
 */
public record Revision(String scope, long revision, List<Change> changes, Instant at) {
  /**
   * Checks the components and copies the change set.
   *
   * @param scope the scope
   * @param revision the revision number, {@code >= 1}
   * @param changes the change set
   * @param at when it was committed
   * @throws NullPointerException when {@code scope}, {@code changes} or {@code at} is null
   * @throws InvalidInputException when {@code revision} is below 1
   */
  public Revision {
    Objects.requireNonNull(scope, "scope");
    changes = List.copyOf(changes);
    Objects.requireNonNull(at, "at");
    if (revision < 1) {
      throw new InvalidInputException("revision", "must be >= 1, was " + revision);
    }
  }
}
