/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

/**
 * Settings of one {@link Engram#flush}.
 *
 * @param windowRecords the most source records handed to the reasoner at once (1..256, default 32)
 * @param maxWindows the most windows processed per scope in this call (1..100,000, default 10,000);
 *     what is left stays after the cursor for the next flush
 */
public record FlushOptions(int windowRecords, int maxWindows) {
  public static final int DEFAULT_WINDOW_RECORDS = 32;
  public static final int MAX_WINDOW_RECORDS = 256;
  public static final int DEFAULT_MAX_WINDOWS = 10_000;

  public FlushOptions {
    if (windowRecords < 1 || windowRecords > MAX_WINDOW_RECORDS) {
      throw new InvalidInputException("windowRecords",
          "must be between 1 and " + MAX_WINDOW_RECORDS + ", was " + windowRecords);
    }
    if (maxWindows < 1 || maxWindows > 100_000) {
      throw new InvalidInputException("maxWindows", "must be between 1 and 100000, was " + maxWindows);
    }
  }

  public static FlushOptions defaults() {
    return new FlushOptions(DEFAULT_WINDOW_RECORDS, DEFAULT_MAX_WINDOWS);
  }

  public FlushOptions withWindowRecords(int records) {
    return new FlushOptions(records, maxWindows);
  }

  public FlushOptions withMaxWindows(int windows) {
    return new FlushOptions(windowRecords, windows);
  }
}
