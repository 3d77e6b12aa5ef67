/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

/**
 * Settings of one {@link Experiences#incubate}: how many captured task outcomes the reasoner sees at
 * once, and how many windows a call works through per scope.
 */
public final class IncubateOptions {
  /** The most (and default) task outcomes in one window. */
  public static final int MAX_WINDOW_RECORDS = 32;
  /** The default {@link #maxWindows()}. */
  public static final int DEFAULT_MAX_WINDOWS = 100;
  /** The largest {@link #maxWindows()}. */
  public static final int MAX_WINDOWS = 10_000;
  private static final IncubateOptions DEFAULTS = builder().build();

  private final int windowRecords;
  private final int maxWindows;

  private IncubateOptions(Builder b) {
    this.windowRecords = b.windowRecords;
    this.maxWindows = b.maxWindows;
  }

  /** @return windows of {@value #MAX_WINDOW_RECORDS} task outcomes, at most {@value #DEFAULT_MAX_WINDOWS} per scope */
  public static IncubateOptions defaults() {
    return DEFAULTS;
  }

  /** @return a builder starting from the defaults */
  public static Builder builder() {
    return new Builder();
  }

  /** @return the most task outcomes the reasoner sees at once */
  public int windowRecords() {
    return windowRecords;
  }

  /** @return the most windows processed per scope in one call; the rest stays after the cursor */
  public int maxWindows() {
    return maxWindows;
  }

  /** Builds {@link IncubateOptions}. */
  public static final class Builder {
    private int windowRecords = MAX_WINDOW_RECORDS;
    private int maxWindows = DEFAULT_MAX_WINDOWS;

    private Builder() {}

    /**
     * @param records 1..{@value #MAX_WINDOW_RECORDS}
     * @return this builder
     * @throws InvalidInputException when out of range
     */
    public Builder windowRecords(int records) {
      if (records < 1 || records > MAX_WINDOW_RECORDS) {
        throw new InvalidInputException("windowRecords",
            "must be between 1 and " + MAX_WINDOW_RECORDS + ", was " + records);
      }
      this.windowRecords = records;
      return this;
    }

    /**
     * @param windows 1..{@value #MAX_WINDOWS}
     * @return this builder
     * @throws InvalidInputException when out of range
     */
    public Builder maxWindows(int windows) {
      if (windows < 1 || windows > MAX_WINDOWS) {
        throw new InvalidInputException("maxWindows", "must be between 1 and " + MAX_WINDOWS + ", was " + windows);
      }
      this.maxWindows = windows;
      return this;
    }

    /** @return the options */
    public IncubateOptions build() {
      return new IncubateOptions(this);
    }
  }
}
