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
  /** The state of a scope where nothing was ever captured. */
  public static final SourceState EMPTY = new SourceState(0, 0);

  /**
   * Checks that {@code 0 <= cursor <= lastPosition}.
   *
   * @param lastPosition the highest position ever captured in the scope
   * @param cursor the position up to which extraction has committed
   * @throws dev.engram.InvalidInputException when a position is negative or the cursor lies beyond the last
   *     position
   */
  public SourceState {
    if (lastPosition < 0) {
      throw new dev.engram.InvalidInputException("lastPosition", "must be >= 0, was " + lastPosition);
    }
    if (cursor < 0 || cursor > lastPosition) {
      throw new dev.engram.InvalidInputException("cursor", "must be between 0 and lastPosition " + lastPosition
          + ", was " + cursor);
    }
  }

  /** @return whether records were captured after the cursor, waiting for extraction */
  public boolean pending() {
    return lastPosition > cursor;
  }
}
