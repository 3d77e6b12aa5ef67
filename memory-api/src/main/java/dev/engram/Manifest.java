/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.util.List;
import java.util.Objects;

/**
 * The authoritative directory of one scope at one revision, computed from the revision log: every
 * entry that existed then, with its exact version, content hash and active/inactive state. Entries
 * erased since are absent (erasure removes them from every revision).
 *
 * @param scope the scope
 * @param revision the revision the manifest describes
 * @param items ordered by entry id
 */
public record Manifest(String scope, long revision, List<ManifestItem> items) {
  /**
   * Checks the components and copies the items.
   *
   * @param scope the scope
   * @param revision the revision the manifest describes, {@code >= 0}
   * @param items ordered by entry id
   * @throws NullPointerException when {@code scope} or {@code items} (or an item) is null
   * @throws InvalidInputException when {@code revision} is negative
   */
  public Manifest {
    Objects.requireNonNull(scope, "scope");
    items = List.copyOf(items);
    if (revision < 0) {
      throw new InvalidInputException("revision", "must be >= 0, was " + revision);
    }
  }
}
