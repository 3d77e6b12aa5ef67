/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A captured source record as stored. Sources of a scope are ordered by {@code position} (1, 2, 3, …
 * in capture order, never reused, gaps where records were deleted); this order is theirs alone and is
 * not the scope's revision: capturing changes no entry, so it makes no revision.
 *
 * @param id unique within the scope (the caller's id, or one the engine made)
 * @param scope the scope it was captured into
 * @param position its place in the scope's capture order
 * @param sessionId the conversation or run it belongs to
 * @param speaker who said or produced it
 * @param text what was said, normalized as entry content is
 * @param occurredAt when it happened (the caller's event time)
 * @param metadata small string attributes
 * @param capturedAt when it was captured
 */
public record CapturedSource(
    String id,
    String scope,
    long position,
    String sessionId,
    String speaker,
    String text,
    Instant occurredAt,
    Map<String, String> metadata,
    Instant capturedAt) {
  /** The largest text a record may hold, in UTF-8 bytes. */
  public static final int MAX_TEXT_BYTES = 65_536;
  /** The most metadata keys a record may carry. */
  public static final int MAX_METADATA = 16;
  /** The longest id, session id or speaker, in characters. */
  public static final int MAX_ID_CHARS = 128;

  /**
   * Checks the required components and copies the metadata, sorted by key.
   *
   * @param id unique within the scope
   * @param scope the scope it was captured into
   * @param position its place in the scope's capture order, from 1
   * @param sessionId the conversation or run it belongs to
   * @param speaker who said or produced it
   * @param text what was said
   * @param occurredAt when it happened
   * @param metadata small string attributes
   * @param capturedAt when it was captured
   * @throws NullPointerException when a component, or a metadata key or value, is null
   * @throws InvalidInputException when {@code position} is below 1
   */
  public CapturedSource {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(sessionId, "sessionId");
    Objects.requireNonNull(speaker, "speaker");
    Objects.requireNonNull(text, "text");
    Objects.requireNonNull(occurredAt, "occurredAt");
    metadata = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(metadata));
    Objects.requireNonNull(capturedAt, "capturedAt");
    if (position < 1) {
      throw new InvalidInputException("position", "must be >= 1, was " + position);
    }
  }

  /** @return whether this record is a task outcome ({@link SourceRecord#taskOutcome}), what incubation reads */
  public boolean isTaskOutcome() {
    return Experience.TASK_OUTCOME.equals(metadata.get(Experience.KIND_METADATA_KEY));
  }

  /**
   * @param key a metadata key
   * @return the metadata value of {@code key}, or null when the record has none
   */
  public @Nullable String metadata(String key) {
    return metadata.get(key);
  }
}
