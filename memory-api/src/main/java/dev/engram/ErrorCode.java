/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

/** Machine-readable reason carried by every {@link MemoryException}. */
public enum ErrorCode {
  INVALID_INPUT,
  INVALID_GRANT,
  SCOPE_VIOLATION,
  NOT_FOUND,
  REVISION_CONFLICT,
  /** A review item or experience is not at the version the caller expected (or no longer pending); nothing changed. */
  VERSION_CONFLICT,
  /** A capture named a source id its scope already holds with other content; nothing was stored. */
  SOURCE_CONFLICT,
  ENTRY_STATE,
  PRIORITY_CAP_EXCEEDED,
  REASONER_FAILED,
  INVALID_MODEL_OUTPUT,
  CAPABILITY_NOT_SUPPORTED,
  STORE_UNAVAILABLE,
  STORE_INCOMPATIBLE,
  /** The engine or store was closed; no call after {@code close()} reads or changes anything. */
  STORE_CLOSED
}
