/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** Settings of one {@link Engram#flush}. Immutable; made by {@link #defaults()} or {@link #builder()}. */
public final class FlushOptions {
  /** The default {@link #windowRecords()}. */
  public static final int DEFAULT_WINDOW_RECORDS = 32;
  /** The largest {@link #windowRecords()}. */
  public static final int MAX_WINDOW_RECORDS = 256;
  /** The default {@link #maxWindows()}. */
  public static final int DEFAULT_MAX_WINDOWS = 10_000;
  private static final FlushOptions DEFAULTS = builder().build();

  private final int windowRecords;
  private final int maxWindows;

  private FlushOptions(int windowRecords, int maxWindows) {
    if (windowRecords < 1 || windowRecords > MAX_WINDOW_RECORDS) {
      throw new InvalidInputException("windowRecords",
          "must be between 1 and " + MAX_WINDOW_RECORDS + ", was " + windowRecords);
    }
    if (maxWindows < 1 || maxWindows > 100_000) {
      throw new InvalidInputException("maxWindows", "must be between 1 and 100000, was " + maxWindows);
    }
    this.windowRecords = windowRecords;
    this.maxWindows = maxWindows;
  }

  /**
   * @return the default settings
   */
  public static FlushOptions defaults() {
    return DEFAULTS;
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
    return new Builder().windowRecords(windowRecords).maxWindows(maxWindows);
  }

  /**
   * @return the most source records handed to the reasoner at once (1..256, default 32)
   */
  public int windowRecords() {
    return windowRecords;
  }

  /**
   * @return the most windows processed per scope in this call (1..100,000, default 10,000); what is
   *     left stays after the cursor for the next flush
   */
  public int maxWindows() {
    return maxWindows;
  }

  @Override
  public boolean equals(@Nullable Object o) {
    return o instanceof FlushOptions other && windowRecords == other.windowRecords && maxWindows == other.maxWindows;
  }

  @Override
  public int hashCode() {
    return Objects.hash(windowRecords, maxWindows);
  }

  @Override
  public String toString() {
    return "FlushOptions[windowRecords=" + windowRecords + ", maxWindows=" + maxWindows + "]";
  }

  /** A builder; the settings are checked when {@link #build()} runs. */
  public static final class Builder {
    private int windowRecords = DEFAULT_WINDOW_RECORDS;
    private int maxWindows = DEFAULT_MAX_WINDOWS;

    private Builder() {}

    /**
     * @param records the most source records handed to the reasoner at once (1..256)
     * @return this builder
     */
    public Builder windowRecords(int records) {
      this.windowRecords = records;
      return this;
    }

    /**
     * @param windows the most windows processed per scope in this call (1..100,000)
     * @return this builder
     */
    public Builder maxWindows(int windows) {
      this.maxWindows = windows;
      return this;
    }

    /**
     * @return the settings
     * @throws InvalidInputException naming the setting that is out of range
     */
    public FlushOptions build() {
      return new FlushOptions(windowRecords, maxWindows);
    }
  }
}
