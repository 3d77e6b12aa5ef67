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
 * @param type what kind of conclusion it holds
 * @param priority 0 core, 1 key, 2+ general
 * @param disclosure the future situation in which the entry should surface
 * @param glossary the words people type when they mean this entry
 * @param path optional stable address, unique among the active entries of a scope
 * @param source the agent, session or run that wrote this version
 * @param evidence references to captured sources
 * @param contentHash SHA-256 (hex) of the canonical form of the content
 * @param status whether this version is the entry's current one ({@code ACTIVE}), was replaced
 *     ({@code SUPERSEDED}) or retired ({@code RETIRED})
 * @param supersededBy the version that replaced this one, when {@code SUPERSEDED}
 * @param occurredAt when the remembered thing happened (event time, from the write's options or the
 *     cited sources); null when nobody said. Distinct from {@code createdAt}, when it was written
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
    @Nullable Instant occurredAt,
    Instant createdAt,
    Instant updatedAt,
    long createdInRevision) {

  /**
   * Checks the required components and copies the lists. Engines and stores build entries; applications read
   * them.
   *
   * @param entryId stable across versions
   * @param versionId identifies exactly this version
   * @param version 1, 2, … within the entry
   * @param previousVersionId the version this one replaced, or null
   * @param scope the namespace the entry lives in
   * @param content normalized text
   * @param topics the topics
   * @param type what kind of conclusion it holds
   * @param priority 0 core, 1 key, 2+ general
   * @param disclosure when the entry should surface, or null
   * @param glossary the words people type when they mean this entry
   * @param path the stable address, or null
   * @param source who wrote this version, or null
   * @param evidence references to captured sources
   * @param contentHash SHA-256 (hex) of the canonical content
   * @param status the version's lifecycle state
   * @param supersededBy the version that replaced this one, or null
   * @param occurredAt when the remembered thing happened, or null
   * @param createdAt when the entry's first version was written
   * @param updatedAt when this version was written or its status last changed
   * @param createdInRevision the scope revision that created this version
   * @throws NullPointerException when a component that may not be null is null, or a list holds a null
   * @throws InvalidInputException when {@code version} is below 1
   */
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

  /** @return the exact citation of this version: its scope, entry, version and creating revision */
  public Citation citation() {
    return new Citation(scope, entryId, versionId, createdInRevision);
  }

  /** @return whether this is the current version of a live entry ({@link EntryStatus#ACTIVE}) */
  public boolean isActive() {
    return status == EntryStatus.ACTIVE;
  }

  /**
   * A copy with another status; versions are otherwise immutable.
   *
   * @param newStatus the status of the copy
   * @param newSupersededBy the version that replaced this one, or null
   * @param at when the status changed (the copy's {@code updatedAt})
   * @return the copy
   * @throws NullPointerException when {@code newStatus} or {@code at} is null
   */
  public MemoryEntry withStatus(EntryStatus newStatus, @Nullable String newSupersededBy, Instant at) {
    return new MemoryEntry(
        entryId, versionId, version, previousVersionId, scope, content, topics, type, priority, disclosure,
        glossary, path, source, evidence, contentHash, newStatus, newSupersededBy, occurredAt, createdAt, at,
        createdInRevision);
  }
}
