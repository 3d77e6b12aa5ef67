/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

/**
 * A path is already held by another active entry of the scope, so the entry cannot take it (move it
 * elsewhere, or retire the holder first).
 */
public class PathConflictException extends EntryStateException {
  private static final long serialVersionUID = 1L;
  /** The scope of both entries. */
  private final String scope;
  /** The path asked for. */
  private final String path;
  /** The active entry that holds the path. */
  private final String holderEntryId;

  /**
   * @param scope the scope of both entries
   * @param path the path asked for
   * @param holderEntryId the active entry that holds it
   */
  public PathConflictException(String scope, String path, String holderEntryId) {
    super("path '" + path + "' in " + scope + " is held by active entry " + holderEntryId
        + "; move or retire that entry first, or choose another path");
    this.scope = scope;
    this.path = path;
    this.holderEntryId = holderEntryId;
  }

  /** @return the scope of both entries */
  public String scope() {
    return scope;
  }

  /** @return the path that is taken */
  public String path() {
    return path;
  }

  /** @return the entry that holds the path */
  public String holderEntryId() {
    return holderEntryId;
  }
}
