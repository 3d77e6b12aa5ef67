/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

/**
 * The entry, version, event or scope does not exist, or is not visible to the grants. The two cases
 * are deliberately indistinguishable so that grants never leak what lies outside them.
 */
public class NotFoundException extends MemoryException {
  private static final long serialVersionUID = 1L;

  /**
   * @param message what was looked for; it must not say whether the thing exists outside the grants
   */
  public NotFoundException(String message) {
    super(ErrorCode.NOT_FOUND, message);
  }
}
