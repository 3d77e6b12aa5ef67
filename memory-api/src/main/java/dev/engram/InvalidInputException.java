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
  private final String field;

  public InvalidInputException(String field, String message) {
    this(ErrorCode.INVALID_INPUT, field, message);
  }

  protected InvalidInputException(ErrorCode code, String field, String message) {
    super(code, field + ": " + message);
    this.field = field;
  }

  /** The name of the argument or option that was wrong, e.g. {@code "content"}. */
  public String field() {
    return field;
  }
}
