/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What happened, as the caller hands it to {@link Engram#capture}: one conversation turn, tool result or
 * observation. Capture stores it as a {@link CapturedSource} and writes no entry; {@link Engram#flush}
 * later turns it into cited memories. Values are validated when the capture runs.
 *
 * <pre>{@code
 * engram.capture(grants, SourceRecord.of("session-7", "user", "I moved to Lisbon in May.")
 *     .at(Instant.parse("2026-05-03T10:15:00Z"))
 *     .id("turn-42"));
 * }</pre>
 *
 * @param id the caller's id; capturing an id already captured in the scope is a no-op. Null: a new id
 *     is made, so every capture is new. 1..128 characters of letters, digits, {@code _ - . :}
 * @param scope where to capture (a scope writable with the grants); null: the first grant
 * @param sessionId the conversation or run the record belongs to (same characters as {@code id})
 * @param speaker who said or produced it, e.g. {@code user}, {@code assistant} or a name (1..128 chars)
 * @param text what was said (at most {@link CapturedSource#MAX_TEXT_BYTES} UTF-8 bytes)
 * @param occurredAt when it happened; null: the time of capture
 * @param metadata small string attributes (at most {@link CapturedSource#MAX_METADATA} keys)
 */
public record SourceRecord(
    @Nullable String id,
    @Nullable String scope,
    String sessionId,
    String speaker,
    String text,
    @Nullable Instant occurredAt,
    Map<String, String> metadata) {

  /**
   * Checks the required components and copies the metadata (keeping its order).
   *
   * @param id the caller's id, or null for a new one
   * @param scope where to capture, or null for the first grant
   * @param sessionId the conversation or run the record belongs to
   * @param speaker who said or produced it
   * @param text what was said
   * @param occurredAt when it happened, or null for the time of capture
   * @param metadata small string attributes
   * @throws NullPointerException when {@code sessionId}, {@code speaker}, {@code text} or {@code metadata},
   *     or a metadata key or value, is null
   */
  public SourceRecord {
    Objects.requireNonNull(sessionId, "sessionId");
    Objects.requireNonNull(speaker, "speaker");
    Objects.requireNonNull(text, "text");
    Objects.requireNonNull(metadata, "metadata");
    for (Map.Entry<String, String> e : metadata.entrySet()) {
      Objects.requireNonNull(e.getKey(), "metadata key");
      Objects.requireNonNull(e.getValue(), "metadata value of " + e.getKey());
    }
    metadata = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(metadata));
  }

  /**
   * A record of {@code speaker} saying {@code text} in {@code sessionId}, now, with a new id, in the first
   * grant's scope.
   *
   * @param sessionId the conversation or run
   * @param speaker who said it, e.g. {@code user}
   * @param text what was said
   * @return the record
   * @throws NullPointerException when an argument is null
   */
  public static SourceRecord of(String sessionId, String speaker, String text) {
    return new SourceRecord(null, null, sessionId, speaker, text, null, Map.of());
  }

  /**
   * A task outcome: a record of {@code speaker} reporting how a task went, marked with the metadata
   * {@value Experience#KIND_METADATA_KEY}={@value Experience#TASK_OUTCOME}, now, with a new id. Such
   * records are what {@link Experiences#incubate} turns into pending experience; like every record, they
   * are also there for extraction.
   *
   * @param sessionId the conversation or run
   * @param speaker who reports it
   * @param text what the task was, what was done and how it turned out
   * @return the record
   */
  public static SourceRecord taskOutcome(String sessionId, String speaker, String text) {
    return new SourceRecord(null, null, sessionId, speaker, text, null,
        Map.of(Experience.KIND_METADATA_KEY, Experience.TASK_OUTCOME));
  }

  /**
   * A copy with the caller's id (capturing that id again in the scope is a no-op).
   *
   * @param newId the id, 1..128 characters of letters, digits, {@code _ - . :} (checked when the capture
   *     runs)
   * @return the copy
   * @throws NullPointerException when {@code newId} is null
   */
  public SourceRecord id(String newId) {
    return new SourceRecord(Objects.requireNonNull(newId, "id"), scope, sessionId, speaker, text, occurredAt, metadata);
  }

  /**
   * A copy that happened at {@code when}.
   *
   * @param when when it happened
   * @return the copy
   * @throws NullPointerException when {@code when} is null
   */
  public SourceRecord at(Instant when) {
    return new SourceRecord(id, scope, sessionId, speaker, text, Objects.requireNonNull(when, "occurredAt"), metadata);
  }

  /**
   * A copy captured into {@code target} (it must be writable with the grants of the capture).
   *
   * @param target the scope
   * @return the copy
   * @throws NullPointerException when {@code target} is null
   */
  public SourceRecord in(String target) {
    return new SourceRecord(id, Objects.requireNonNull(target, "scope"), sessionId, speaker, text, occurredAt, metadata);
  }

  /**
   * A copy with these metadata instead of the current ones.
   *
   * @param values the attributes (at most {@link CapturedSource#MAX_METADATA} keys, checked when the capture
   *     runs)
   * @return the copy
   * @throws NullPointerException when {@code values}, or a key or value in it, is null
   */
  public SourceRecord metadata(Map<String, String> values) {
    return new SourceRecord(id, scope, sessionId, speaker, text, occurredAt, values);
  }
}
