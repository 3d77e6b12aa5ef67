/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.embeddings.http;

import dev.engram.ErrorCode;
import dev.engram.MemoryException;
import java.util.OptionalInt;
import org.jspecify.annotations.Nullable;

/**
 * An embedding server could not be used: it was unreachable, timed out or answered with an error
 * ({@link ErrorCode#REASONER_FAILED}), or its answer was not one valid vector per text ({@link
 * ErrorCode#INVALID_MODEL_OUTPUT}). The message names the endpoint, the HTTP status and what the
 * server said, never the API key.
 */
public final class EmbeddingException extends MemoryException {
  private static final long serialVersionUID = 1L;

  /** The HTTP status of an error answer, 0 when the failure was not one. */
  private final int httpStatus;

  EmbeddingException(ErrorCode code, String message, int httpStatus, @Nullable Throwable cause) {
    super(code, message, cause);
    this.httpStatus = httpStatus;
  }

  static EmbeddingException failed(String message, @Nullable Throwable cause) {
    return new EmbeddingException(ErrorCode.REASONER_FAILED, message, 0, cause);
  }

  static EmbeddingException httpStatus(String message, int httpStatus) {
    return new EmbeddingException(ErrorCode.REASONER_FAILED, message, httpStatus, null);
  }

  static EmbeddingException invalidResponse(String message) {
    return new EmbeddingException(ErrorCode.INVALID_MODEL_OUTPUT, message, 0, null);
  }

  /**
   * @return the HTTP status the server answered with, when the failure is an error status; empty otherwise
   */
  public OptionalInt httpStatus() {
    return httpStatus == 0 ? OptionalInt.empty() : OptionalInt.of(httpStatus);
  }
}
