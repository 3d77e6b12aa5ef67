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
  private final ErrorCode code;

  public MemoryException(ErrorCode code, String message) {
    this(code, message, null);
  }

  public MemoryException(ErrorCode code, String message, @Nullable Throwable cause) {
    super(message, cause);
    this.code = Objects.requireNonNull(code, "code");
  }

  public ErrorCode code() {
    return code;
  }
}
