/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.reasoner.llm;

import dev.engram.ErrorCode;
import dev.engram.ReasonerException;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A model call failed or its answer was rejected. The {@link #kind()} says which; the message says
 * what happened in words and never contains the API key. When a write or curation fails with it,
 * nothing was stored.
 */
public final class LlmException extends ReasonerException {
  private static final long serialVersionUID = 1L;

  /** What went wrong. */
  public enum Kind {
    /** No API key is configured for a non-local base URL. */
    MISSING_KEY(ErrorCode.REASONER_FAILED),
    /** HTTP 401 or 403: the key is wrong or lacks access. */
    UNAUTHORIZED(ErrorCode.REASONER_FAILED),
    /** HTTP 429 on every attempt. */
    RATE_LIMITED(ErrorCode.REASONER_FAILED),
    /** HTTP 5xx on every attempt, or another HTTP status that is not retried. */
    HTTP_ERROR(ErrorCode.REASONER_FAILED),
    /** The server could not be reached or dropped the connection on every attempt. */
    CONNECTION(ErrorCode.REASONER_FAILED),
    /** No complete answer within the timeout on every attempt. */
    TIMEOUT(ErrorCode.REASONER_FAILED),
    /** The answer stopped at the output token limit. */
    TRUNCATED(ErrorCode.INVALID_MODEL_OUTPUT),
    /** The model refused or a content filter stopped it. */
    REFUSED(ErrorCode.INVALID_MODEL_OUTPUT),
    /** The answer was not JSON (an HTML page, prose, an empty body). */
    NOT_JSON(ErrorCode.INVALID_MODEL_OUTPUT),
    /** The answer was JSON but did not match the job's schema or failed its validation. */
    INVALID_ANSWER(ErrorCode.INVALID_MODEL_OUTPUT);

    private final ErrorCode code;

    Kind(ErrorCode code) {
      this.code = code;
    }

    /**
     * @return the error code an exception of this kind carries: {@link ErrorCode#REASONER_FAILED} when the
     *     call failed, {@link ErrorCode#INVALID_MODEL_OUTPUT} when its answer was refused
     */
    public ErrorCode code() {
      return code;
    }
  }

  /** What went wrong. */
  private final Kind kind;

  /**
   * @param kind what went wrong
   * @param message what happened, without secrets
   * @param cause the underlying failure, if any
   * @throws NullPointerException when {@code kind} is null
   */
  public LlmException(Kind kind, String message, @Nullable Throwable cause) {
    super(Objects.requireNonNull(kind, "kind").code(), message, cause);
    this.kind = kind;
  }

  /** @return what went wrong */
  public Kind kind() {
    return kind;
  }
}
