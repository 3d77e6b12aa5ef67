/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.util.Objects;

/**
 * One domain in use: the {@code domain} of paths written as {@code domain://…} (for example
 * {@code core}, {@code preferences}, {@code project}), with the number of active entries whose path
 * lies in it across the scopes the grants can see.
 *
 * @param domain the path's scheme, without {@code ://}
 * @param entries active entries in the domain, at least 1
 */
public record DomainSummary(String domain, int entries) {
  /**
   * Checks the components.
   *
   * @param domain the path's scheme, without {@code ://}
   * @param entries active entries in the domain, at least 1
   * @throws NullPointerException when {@code domain} is null
   * @throws InvalidInputException when {@code entries} is below 1
   */
  public DomainSummary {
    Objects.requireNonNull(domain, "domain");
    if (entries < 1) {
      throw new InvalidInputException("entries", "must be >= 1, was " + entries);
    }
  }
}
