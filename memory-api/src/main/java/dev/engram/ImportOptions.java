/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

/**
 * Options of {@link Engram#importFrom}.
 *
 * @param dryRun validate every record against the grants and the target store, write nothing
 */
public record ImportOptions(boolean dryRun) {
  private static final ImportOptions WRITE = new ImportOptions(false);
  private static final ImportOptions DRY_RUN = new ImportOptions(true);

  /** Validate, then write. */
  public static ImportOptions defaults() {
    return WRITE;
  }

  /** Validate only. */
  public static ImportOptions validateOnly() {
    return DRY_RUN;
  }
}
