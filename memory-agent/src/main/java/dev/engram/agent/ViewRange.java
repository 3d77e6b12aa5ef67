/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.agent;

/**
 * The lines a {@code view} of a file shows: 1-based and inclusive, {@code end} {@value #TO_END} for
 * the end of the file. Whether they lie inside the file is checked when the view runs.
 *
 * @param start the first line, from 1
 * @param end the last line, or {@value #TO_END}
 */
public record ViewRange(long start, long end) {
  /** The {@code end} that means the last line of the file. */
  public static final long TO_END = -1;

  /**
   * A range.
   *
   * @param start the first line
   * @param end the last line, or {@value #TO_END}
   * @return the range
   */
  public static ViewRange of(long start, long end) {
    return new ViewRange(start, end);
  }
}
