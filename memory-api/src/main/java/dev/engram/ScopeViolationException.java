/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

/** An operation would write to, or erase in, a namespace the grants do not make writable. */
public class ScopeViolationException extends MemoryException {
  private static final long serialVersionUID = 1L;

  /**
   * @param message which namespace the call would have reached, and why it may not
   */
  public ScopeViolationException(String message) {
    super(ErrorCode.SCOPE_VIOLATION, message);
  }
}
