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
 * @param revision the scope revision that created this version
 */
public record Citation(String scope, String entryId, String versionId, long revision) {
  public Citation {
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(entryId, "entryId");
    Objects.requireNonNull(versionId, "versionId");
    if (revision < 0) {
      throw new InvalidInputException("revision", "must be >= 0, was " + revision);
    }
  }

  /** {@code scope#entryId@versionId r<revision>}, the form PreparedContext renders. */
  public String render() {
    return scope + "#" + entryId + "@" + versionId + " r" + revision;
  }
}
