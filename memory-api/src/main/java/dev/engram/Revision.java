/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/** One committed revision of a scope and its change set. Revisions of a scope are 1, 2, 3, … without gaps. */
public record Revision(String scope, long revision, List<Change> changes, Instant at) {
  public Revision {
    Objects.requireNonNull(scope, "scope");
    changes = List.copyOf(changes);
    Objects.requireNonNull(at, "at");
    if (revision < 1) {
      throw new InvalidInputException("revision", "must be >= 1, was " + revision);
    }
  }
}
