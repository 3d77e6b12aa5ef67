/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.spi;

/**
 * How {@link StoreSpec#open(StoreOpenOptions)} opens a store. The default creates what is missing (a new
 * SQLite file, the tables of a new PostgreSQL schema); {@link Builder#mustExist()} refuses to, for tools
 * that only look at memory another program keeps.
 */
public final class StoreOpenOptions {
  private static final StoreOpenOptions DEFAULTS = new StoreOpenOptions(builder());

  private final boolean mustExist;

  private StoreOpenOptions(Builder b) {
    this.mustExist = b.mustExist;
  }

  /**
   * Open the store, creating it when it does not exist yet.
   *
   * @return the default options
   */
  public static StoreOpenOptions defaults() {
    return DEFAULTS;
  }

  /**
   * A builder starting from the defaults.
   *
   * @return a new builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * Whether a store that does not exist yet is refused instead of created. Stores kept in a file refuse a
   * missing file; stores on a server, whose database must exist anyway, ignore it.
   *
   * @return true when a missing store is refused
   */
  public boolean mustExist() {
    return mustExist;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof StoreOpenOptions other && other.mustExist == mustExist;
  }

  @Override
  public int hashCode() {
    return Boolean.hashCode(mustExist);
  }

  @Override
  public String toString() {
    return "StoreOpenOptions[mustExist=" + mustExist + "]";
  }

  /** Builds {@link StoreOpenOptions}; not thread-safe. */
  public static final class Builder {
    private boolean mustExist;

    private Builder() {}

    /**
     * Refuse a store that does not exist yet (a missing SQLite file) with a
     * {@link dev.engram.StoreException} naming it, and create nothing.
     *
     * @return this builder
     */
    public Builder mustExist() {
      this.mustExist = true;
      return this;
    }

    /**
     * The options.
     *
     * @return the options built
     */
    public StoreOpenOptions build() {
      return new StoreOpenOptions(this);
    }
  }
}
