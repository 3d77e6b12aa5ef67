/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

/** The entry is not in a state that allows the operation (e.g. correcting a retired entry). */
public class EntryStateException extends MemoryException {
  private static final long serialVersionUID = 1L;

  /**
   * @param message which entry, and what its state does not allow
   */
  public EntryStateException(String message) {
    super(ErrorCode.ENTRY_STATE, message);
  }
}
