/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

/**
 * Options of {@link EngramOperator#importFrom}. Immutable; made by {@link #defaults()} or
 * {@link #validateOnly()}.
 */
public final class ImportOptions {
  private static final ImportOptions WRITE = new ImportOptions(false);
  private static final ImportOptions DRY_RUN = new ImportOptions(true);

  private final boolean dryRun;

  private ImportOptions(boolean dryRun) {
    this.dryRun = dryRun;
  }

  /**
   * Validate every record, then write.
   *
   * @return the default options
   */
  public static ImportOptions defaults() {
    return WRITE;
  }

  /**
   * Validate every record against the grants and the target store, and write nothing.
   *
   * @return the dry-run options
   */
  public static ImportOptions validateOnly() {
    return DRY_RUN;
  }

  /**
   * @return whether the import validates only and writes nothing
   */
  public boolean dryRun() {
    return dryRun;
  }

  @Override
  public String toString() {
    return dryRun ? "ImportOptions[validateOnly]" : "ImportOptions[defaults]";
  }
}
