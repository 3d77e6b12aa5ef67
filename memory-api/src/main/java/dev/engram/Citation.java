/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.util.Objects;

/**
 * An exact reference to one version of an entry: readable forever (until erased) with
 * {@link Engram#get(Grants, Citation)}, and the target of {@code retire} / {@code reactivate}.
 *
 * @param scope the scope the entry lives in
 * @param entryId the entry
 * @param versionId exactly this version
 * @param revision the scope revision that created this version
 */
public record Citation(String scope, String entryId, String versionId, long revision) {
  /**
   * Checks the components.
   *
   * @param scope the scope the entry lives in
   * @param entryId the entry
   * @param versionId exactly this version
   * @param revision the scope revision that created this version, {@code >= 0}
   * @throws NullPointerException when {@code scope}, {@code entryId} or {@code versionId} is null
   * @throws InvalidInputException when {@code revision} is negative
   */
  public Citation {
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(entryId, "entryId");
    Objects.requireNonNull(versionId, "versionId");
    if (revision < 0) {
      throw new InvalidInputException("revision", "must be >= 0, was " + revision);
    }
  }

  /** @return {@code scope#entryId@versionId r<revision>}, the form {@link PreparedContext} renders */
  public String render() {
    return scope + "#" + entryId + "@" + versionId + " r" + revision;
  }
}
