/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.mcp;

/** A configuration the server cannot start with; the process exits with status 2 and the message. */
final class StartupException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  StartupException(String message) {
    super(message);
  }

  StartupException(String message, Throwable cause) {
    super(message, cause);
  }
}
