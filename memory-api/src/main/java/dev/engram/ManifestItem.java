/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.util.Objects;

/**
 * One entry of a {@link Manifest}: the exact version that was the entry's current one at the
 * manifest's revision, and whether default recall selected it then.
 *
 * @param entryId the logical entry
 * @param versionId the entry's current version at that revision
 * @param contentHash that version's content hash
 * @param active false when the entry was retired or merged away at that revision
 */
public record ManifestItem(String entryId, String versionId, String contentHash, boolean active) {
  /**
   * Checks the components.
   *
   * @param entryId the logical entry
   * @param versionId the entry's current version at that revision
   * @param contentHash that version's content hash
   * @param active false when the entry was retired or merged away at that revision
   * @throws NullPointerException when an id or the hash is null
   */
  public ManifestItem {
    Objects.requireNonNull(entryId, "entryId");
    Objects.requireNonNull(versionId, "versionId");
    Objects.requireNonNull(contentHash, "contentHash");
  }
}
