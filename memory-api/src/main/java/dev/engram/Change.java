/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** One item of a revision's change set: what happened to which entry version. Ids only, never content. */
public record Change(ChangeKind kind, String entryId, @Nullable String versionId) {
  public Change {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(entryId, "entryId");
  }
}
