/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.spi;

/**
 * The source bookkeeping of one scope.
 *
 * @param lastPosition the highest position ever captured in the scope (0: none); deletions never lower it
 * @param cursor the position up to which extraction has committed (0: nothing extracted yet)
 */
public record SourceState(long lastPosition, long cursor) {
  public static final SourceState EMPTY = new SourceState(0, 0);

  public SourceState {
    if (lastPosition < 0) {
      throw new dev.engram.InvalidInputException("lastPosition", "must be >= 0, was " + lastPosition);
    }
    if (cursor < 0 || cursor > lastPosition) {
      throw new dev.engram.InvalidInputException("cursor", "must be between 0 and lastPosition " + lastPosition
          + ", was " + cursor);
    }
  }

  /** Whether records were captured after the cursor. */
  public boolean pending() {
    return lastPosition > cursor;
  }
}
