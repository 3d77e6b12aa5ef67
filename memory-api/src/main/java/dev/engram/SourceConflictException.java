/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.util.List;
import java.util.Objects;

/**
 * A capture named a source id that its scope already holds (or that its own batch names twice) with
 * other content. Captured records never change: capturing the same record again is a no-op that
 * returns the stored one, but a different record under a taken id is refused, and the call stores
 * nothing. Capture it under a new id, or delete the stored record first.
 */
public class SourceConflictException extends MemoryException {
  private static final long serialVersionUID = 1L;
  /** The scope that holds the id. */
  private final String scope;
  /** The source id. */
  private final String sourceId;
  /** The fields that differ. */
  private final List<String> fields;

  /**
   * @param scope the scope that holds the id
   * @param sourceId the id
   * @param fields the fields that differ ({@code sessionId}, {@code speaker}, {@code text},
   *     {@code occurredAt}, {@code metadata}), never their values
   * @throws NullPointerException when {@code scope}, {@code sourceId} or {@code fields} is null
   */
  public SourceConflictException(String scope, String sourceId, List<String> fields) {
    super(ErrorCode.SOURCE_CONFLICT, "source " + sourceId + " already exists in " + scope + " with a different "
        + String.join(", ", fields) + "; a captured record never changes: capture it under a new id, or delete"
        + " the stored one first (nothing was stored)");
    this.scope = Objects.requireNonNull(scope, "scope");
    this.sourceId = Objects.requireNonNull(sourceId, "sourceId");
    this.fields = List.copyOf(fields);
  }

  /** @return the scope that holds the id */
  public String scope() {
    return scope;
  }

  /** @return the source id */
  public String sourceId() {
    return sourceId;
  }

  /** @return the fields that differ from the stored record, never their values */
  public List<String> fields() {
    return fields;
  }
}
