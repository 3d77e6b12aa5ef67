/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * The root of every domain and backend failure Engram reports. The {@link #code()} is stable and
 * meant for programs; the message is meant for people and names what was wrong.
 */
public class MemoryException extends RuntimeException {
  private static final long serialVersionUID = 1L;
  /** The machine-readable reason. */
  private final ErrorCode code;

  /**
   * @param code the machine-readable reason
   * @param message what was wrong, for people
   * @throws NullPointerException when {@code code} is null
   */
  public MemoryException(ErrorCode code, String message) {
    this(code, message, null);
  }

  /**
   * @param code the machine-readable reason
   * @param message what was wrong, for people
   * @param cause the underlying failure, or null
   * @throws NullPointerException when {@code code} is null
   */
  public MemoryException(ErrorCode code, String message, @Nullable Throwable cause) {
    super(message, cause);
    this.code = Objects.requireNonNull(code, "code");
  }

  /** @return the machine-readable reason, stable across releases */
  public ErrorCode code() {
    return code;
  }
}
