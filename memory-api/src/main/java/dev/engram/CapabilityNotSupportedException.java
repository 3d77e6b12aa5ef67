/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

/** The store (or the configured wiring) lacks a capability the request needs; the mode is never changed silently. */
public class CapabilityNotSupportedException extends MemoryException {
  private static final long serialVersionUID = 1L;

  /**
   * @param message which capability is missing, and what needs it
   */
  public CapabilityNotSupportedException(String message) {
    super(ErrorCode.CAPABILITY_NOT_SUPPORTED, message);
  }
}
