/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import org.jspecify.annotations.Nullable;

/**
 * The reasoner failed ({@link ErrorCode#REASONER_FAILED}) or answered with a proposal that does not
 * pass validation ({@link ErrorCode#INVALID_MODEL_OUTPUT}). Model output is untrusted: when this is
 * thrown, nothing was written.
 */
public class ReasonerException extends MemoryException {
  private static final long serialVersionUID = 1L;

  /**
   * @param code {@link ErrorCode#REASONER_FAILED} or {@link ErrorCode#INVALID_MODEL_OUTPUT}
   * @param message what failed
   * @param cause the underlying failure (e.g. an I/O error talking to the model), or null
   * @throws NullPointerException when {@code code} is null
   */
  public ReasonerException(ErrorCode code, String message, @Nullable Throwable cause) {
    super(code, message, cause);
  }

  /**
   * The reasoner's answer fails validation ({@link ErrorCode#INVALID_MODEL_OUTPUT}).
   *
   * @param message what is wrong with the answer; the exception's message is {@code "reasoner output
   *     rejected: " + message}
   * @return the exception
   */
  public static ReasonerException invalidOutput(String message) {
    return new ReasonerException(ErrorCode.INVALID_MODEL_OUTPUT, "reasoner output rejected: " + message, null);
  }
}
