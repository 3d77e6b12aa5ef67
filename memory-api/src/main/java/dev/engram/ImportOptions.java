/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Options of {@link EngramOperator#importFrom}: the {@link ImportMode} (into empty scopes, or replacing them)
 * and whether to validate only. Immutable; made by {@link #defaults()}, {@link #validateOnly()},
 * {@link #replace()} or {@link #builder()}.
 */
public final class ImportOptions {
  private static final ImportOptions WRITE = new ImportOptions(ImportMode.INTO_EMPTY, false);
  private static final ImportOptions DRY_RUN = new ImportOptions(ImportMode.INTO_EMPTY, true);
  private static final ImportOptions REPLACE = new ImportOptions(ImportMode.REPLACE, false);

  private final ImportMode mode;
  private final boolean dryRun;

  private ImportOptions(ImportMode mode, boolean dryRun) {
    this.mode = mode;
    this.dryRun = dryRun;
  }

  /**
   * Validate every record, then write into scopes that must be empty.
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
   * A restore ({@link ImportMode#REPLACE}): validate every record, then replace each scope of the export
   * with what the export holds for it, one transaction per scope.
   *
   * @return the restore options
   */
  public static ImportOptions replace() {
    return REPLACE;
  }

  /**
   * @return a builder with the default settings
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * @return a builder holding these settings
   */
  public Builder toBuilder() {
    return new Builder().mode(mode).dryRun(dryRun);
  }

  /**
   * @return what the import does with scopes the target store holds (default {@link ImportMode#INTO_EMPTY})
   */
  public ImportMode mode() {
    return mode;
  }

  /**
   * @return whether the import validates only and writes nothing
   */
  public boolean dryRun() {
    return dryRun;
  }

  @Override
  public boolean equals(@Nullable Object o) {
    return o instanceof ImportOptions other && mode == other.mode && dryRun == other.dryRun;
  }

  @Override
  public int hashCode() {
    return Objects.hash(mode, dryRun);
  }

  @Override
  public String toString() {
    if (mode == ImportMode.INTO_EMPTY) {
      return dryRun ? "ImportOptions[validateOnly]" : "ImportOptions[defaults]";
    }
    return dryRun ? "ImportOptions[replace, validateOnly]" : "ImportOptions[replace]";
  }

  /** A builder. */
  public static final class Builder {
    private ImportMode mode = ImportMode.INTO_EMPTY;
    private boolean dryRun;

    private Builder() {}

    /**
     * @param mode what the import does with scopes the target store holds
     * @return this builder
     * @throws NullPointerException when {@code mode} is null
     */
    public Builder mode(ImportMode mode) {
      this.mode = Objects.requireNonNull(mode, "mode");
      return this;
    }

    /**
     * @param dryRun true to validate only and write nothing
     * @return this builder
     */
    public Builder dryRun(boolean dryRun) {
      this.dryRun = dryRun;
      return this;
    }

    /**
     * @return the options
     */
    public ImportOptions build() {
      return new ImportOptions(mode, dryRun);
    }
  }
}
