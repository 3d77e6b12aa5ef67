/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

/** A grant or namespace is malformed, or a protected-namespace policy forbids it. */
public class InvalidGrantException extends InvalidInputException {
  private static final long serialVersionUID = 1L;

  /**
   * An {@link ErrorCode#INVALID_GRANT} failure; the message becomes {@code field + ": " + message}.
   *
   * @param field the grant, namespace or option that was wrong, e.g. {@code "grants[0]"}
   * @param message what was wrong with it
   */
  public InvalidGrantException(String field, String message) {
    super(ErrorCode.INVALID_GRANT, field, message);
  }
}
