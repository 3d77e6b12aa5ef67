/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

/** Machine-readable reason carried by every {@link MemoryException}. */
public enum ErrorCode {
  /** A value handed to Engram is malformed ({@link InvalidInputException}); nothing was stored or changed. */
  INVALID_INPUT,
  /**
   * A grant or namespace is malformed, or a protected-namespace policy forbids it ({@link
   * InvalidGrantException}).
   */
  INVALID_GRANT,
  /**
   * The call would write to, or erase in, a namespace the grants do not make writable ({@link
   * ScopeViolationException}).
   */
  SCOPE_VIOLATION,
  /**
   * The entry, version, event or scope does not exist or is not visible to the grants ({@link
   * NotFoundException}).
   */
  NOT_FOUND,
  /**
   * The scope's revision or the cited version is no longer the one the caller expected ({@link
   * RevisionConflictException}).
   */
  REVISION_CONFLICT,
  /** A review item or experience is not at the version the caller expected (or no longer pending); nothing changed. */
  VERSION_CONFLICT,
  /** A capture named a source id its scope already holds with other content; nothing was stored. */
  SOURCE_CONFLICT,
  /**
   * The entry's state does not allow the operation, such as correcting a retired entry ({@link
   * EntryStateException}).
   */
  ENTRY_STATE,
  /**
   * The scope already holds as many active entries at the priority as its cap allows ({@link
   * PriorityCapExceededException}).
   */
  PRIORITY_CAP_EXCEEDED,
  /**
   * The reasoner could not answer, e.g. its model endpoint failed ({@link ReasonerException}); nothing was
   * written.
   */
  REASONER_FAILED,
  /**
   * The reasoner answered with a proposal that fails validation ({@link ReasonerException}); nothing was
   * written.
   */
  INVALID_MODEL_OUTPUT,
  /**
   * The store or the wiring lacks a capability the request needs ({@link CapabilityNotSupportedException}).
   */
  CAPABILITY_NOT_SUPPORTED,
  /** The backing store failed or cannot be reached ({@link StoreException}); the cause is kept. */
  STORE_UNAVAILABLE,
  /** The store's data or schema is not something this version can use ({@link StoreException}). */
  STORE_INCOMPATIBLE,
  /** The engine or store was closed; no call after {@code close()} reads or changes anything. */
  STORE_CLOSED
}
