/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

/**
 * A value handed to Engram is malformed: empty or oversized content, a control character, an unpaired
 * surrogate, an unknown type, a bad path. {@link #field()} names the offending argument. Nothing is
 * stored or changed when it is thrown.
 */
public class InvalidInputException extends MemoryException {
  private static final long serialVersionUID = 1L;
  /** The argument or option that was wrong. */
  private final String field;

  /**
   * An {@link ErrorCode#INVALID_INPUT} failure; the message becomes {@code field + ": " + message}.
   *
   * @param field the argument or option that was wrong, e.g. {@code "content"}
   * @param message what was wrong with it
   */
  public InvalidInputException(String field, String message) {
    this(ErrorCode.INVALID_INPUT, field, message);
  }

  /**
   * A failure of a subclass with its own code; the message becomes {@code field + ": " + message}.
   *
   * @param code the machine-readable reason
   * @param field the argument or option that was wrong
   * @param message what was wrong with it
   */
  protected InvalidInputException(ErrorCode code, String field, String message) {
    super(code, field + ": " + message);
    this.field = field;
  }

  /** @return the name of the argument or option that was wrong, e.g. {@code "content"} */
  public String field() {
    return field;
  }
}
