/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One immutable version of one durable conclusion.
 *
 * @param entryId stable across versions
 * @param versionId identifies exactly this version
 * @param version 1, 2, … within the entry
 * @param previousVersionId the version this one replaced, or null for version 1
 * @param scope the namespace the entry lives in
 * @param content normalized text
 * @param topics lowercase, deduplicated, never empty ({@code general} by default; {@code core} marks
 *     the always-load profile)
 * @param priority 0 core, 1 key, 2+ general
 * @param disclosure the future situation in which the entry should surface
 * @param glossary the words people type when they mean this entry
 * @param path optional stable address, unique among the active entries of a scope
 * @param source the agent, session or run that wrote this version
 * @param evidence references to captured sources
 * @param contentHash SHA-256 (hex) of the canonical form of the content
 * @param supersededBy the version that replaced this one, when {@code SUPERSEDED}
 * @param createdAt when the entry's first version was written
 * @param updatedAt when this version was written or its status last changed
 * @param createdInRevision the scope revision that created this version
 */
public record MemoryEntry(
    String entryId,
    String versionId,
    int version,
    @Nullable String previousVersionId,
    String scope,
    String content,
    List<String> topics,
    EntryType type,
    int priority,
    @Nullable String disclosure,
    List<String> glossary,
    @Nullable String path,
    @Nullable String source,
    List<String> evidence,
    String contentHash,
    EntryStatus status,
    @Nullable String supersededBy,
    Instant createdAt,
    Instant updatedAt,
    long createdInRevision) {

  public MemoryEntry {
    Objects.requireNonNull(entryId, "entryId");
    Objects.requireNonNull(versionId, "versionId");
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(content, "content");
    topics = List.copyOf(topics);
    Objects.requireNonNull(type, "type");
    glossary = List.copyOf(glossary);
    evidence = List.copyOf(evidence);
    Objects.requireNonNull(contentHash, "contentHash");
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(updatedAt, "updatedAt");
    if (version < 1) {
      throw new InvalidInputException("version", "must be >= 1, was " + version);
    }
  }

  /** The exact citation of this version. */
  public Citation citation() {
    return new Citation(scope, entryId, versionId, createdInRevision);
  }

  public boolean isActive() {
    return status == EntryStatus.ACTIVE;
  }

  /** A copy with another status; versions are otherwise immutable. */
  public MemoryEntry withStatus(EntryStatus newStatus, @Nullable String newSupersededBy, Instant at) {
    return new MemoryEntry(
        entryId, versionId, version, previousVersionId, scope, content, topics, type, priority, disclosure,
        glossary, path, source, evidence, contentHash, newStatus, newSupersededBy, createdAt, at,
        createdInRevision);
  }
}
