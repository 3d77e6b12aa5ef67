/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.sqlite;

import dev.engram.EntryStatus;
import dev.engram.MemoryEntry;
import dev.engram.MemoryEvent;
import dev.engram.Revision;
import dev.engram.spi.FullTextQuery;
import dev.engram.spi.ScoredEntry;
import dev.engram.spi.StoreReader;
import dev.engram.spi.StoredVector;
import dev.engram.spi.TopicState;
import java.sql.SQLException;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Every read of the SQLite store, written once: the store runs each on a pooled read connection (or
 * the idle writer connection for short point reads), a transaction on its own writer connection, so it
 * sees its own changes and answers exactly what the store answers (full-text search and vectors too).
 */
abstract class SessionReads implements StoreReader {

  /** One read on a {@link Session}. */
  @FunctionalInterface
  interface Read<T> {
    T run(Session s) throws SQLException;
  }

  /**
   * Runs {@code query} on the session this reader reads from.
   *
   * @param what what the query does, for the error message
   * @param point whether it is a short point read (the store may run it on its idle writer connection)
   * @param query the query
   */
  abstract <T> T read(String what, boolean point, Read<T> query);

  /** Up to this many versions, reading their retrieval keys is a short point read. */
  private static final int POINT_KEYS = 16;

  // ---- StoreReader, each read written once for the store and its transactions

  @Override
  public dev.engram.spi.SourceState sourceState(String scope) {
    return read("read the source state", true, s -> Queries.sourceState(s, scope));
  }

  @Override
  public Optional<dev.engram.CapturedSource> source(String scope, String sourceId) {
    return read("read a source", true, s -> Queries.source(s, scope, sourceId));
  }

  @Override
  public List<dev.engram.CapturedSource> sources(String scope, dev.engram.spi.SourceFilter filter) {
    return read("read sources", false, s -> Queries.sources(s, scope, filter));
  }

  @Override
  public long headRevision(String scope) {
    return read("read a head revision", true, s -> Queries.headRevision(s, scope));
  }

  @Override
  public Optional<MemoryEntry> version(String versionId) {
    return read("read a version", true, s -> Queries.version(s, versionId));
  }

  @Override
  public List<MemoryEntry> versions(String entryId) {
    return read("read the versions of an entry", true, s -> Queries.versions(s, entryId));
  }

  @Override
  public Optional<MemoryEntry> currentVersion(String entryId) {
    return read("read the current version of an entry", true, s -> Queries.currentVersion(s, entryId));
  }

  @Override
  public Optional<MemoryEntry> findActiveByHash(String scope, String contentHash) {
    return read("find an active entry by content hash", true, s -> Queries.findActiveByHash(s, scope, contentHash));
  }

  @Override
  public Optional<MemoryEntry> findActiveByPath(String scope, String path) {
    return read("find an active entry by path", true, s -> Queries.findActiveByPath(s, scope, path));
  }

  @Override
  public List<MemoryEntry> activeByTopic(Collection<String> scopes, String topic, int limit) {
    return read("read the active entries of a topic", true, s -> Queries.activeByTopic(s, scopes, topic, limit));
  }

  @Override
  public List<MemoryEntry> versionsIn(Collection<String> scopes, Set<EntryStatus> statuses) {
    return read("list versions", false, s -> Queries.versionsIn(s, scopes, statuses));
  }

  @Override
  public List<MemoryEvent> events(String entryId) {
    return read("read the events of an entry", true, s -> Queries.events(s, entryId));
  }

  @Override
  public List<MemoryEvent> events(String entryId, long afterRevision, String afterEventId, int limit) {
    return read("read a page of the events of an entry", true,
        s -> Queries.events(s, entryId, afterRevision, afterEventId, limit));
  }

  @Override
  public Optional<MemoryEvent> event(String eventId) {
    return read("read an event", true, s -> Queries.event(s, eventId));
  }

  @Override
  public List<Revision> revisions(String scope, long sinceExclusive, int limit) {
    return read("read revisions", false, s -> Queries.revisions(s, scope, sinceExclusive, limit));
  }

  @Override
  public List<TopicState> topics(Collection<String> scopes) {
    return read("read topics", true, s -> Queries.topics(s, scopes));
  }

  @Override
  public List<TopicState> dirtyTopics(int limit) {
    return read("read dirty topics", false, s -> Queries.dirtyTopics(s, limit));
  }

  @Override
  public int countActiveWithPriority(String namespace, int priority) {
    return read("count active entries by priority", true, s -> Queries.countActiveWithPriority(s, namespace, priority));
  }

  @Override
  public boolean hasScope(String scope) {
    return !read("list scopes", false, s -> Queries.scopes(s, scope, false)).isEmpty();
  }

  @Override
  public List<String> scopesFrom(String prefix) {
    return read("list scopes", false, s -> Queries.scopes(s, prefix, true));
  }

  @Override
  public List<ScoredEntry> searchFullText(Collection<String> scopes, FullTextQuery query, int limit) {
    return rankFullText(scopes, query, limit).hits();
  }

  @Override
  public dev.engram.spi.FullTextResult rankFullText(Collection<String> scopes, FullTextQuery query, int limit) {
    return read("search the full-text index", false, s -> Queries.searchFullText(s, scopes, query, limit));
  }

  @Override
  public List<ScoredEntry> searchKeys(Collection<String> scopes, FullTextQuery query, int limit) {
    return read("search the retrieval keys", false, s -> Queries.searchKeys(s, scopes, query, limit));
  }

  @Override
  public java.util.Map<String, List<String>> keysOf(Collection<String> versionIds) {
    // the keys of a few versions (the write path asks for one) are a point read; a scope's many are not
    return read("read retrieval keys", versionIds.size() <= POINT_KEYS, s -> Queries.keysOf(s, versionIds));
  }

  @Override
  public Optional<dev.engram.Experience> experienceVersion(String versionId) {
    return read("read an experience version", true, s -> ExperienceRows.experience(s, versionId));
  }

  @Override
  public List<dev.engram.Experience> experienceVersions(String experienceId) {
    return read("read the versions of an experience", true, s -> ExperienceRows.chain(s, experienceId));
  }

  @Override
  public List<dev.engram.Experience> experiences(
      Collection<String> scopes, Set<dev.engram.ExperienceStatus> statuses, int limit) {
    return read("list experience", false, s -> ExperienceRows.experiences(s, scopes, statuses, limit));
  }

  @Override
  public List<dev.engram.spi.ScoredExperience> searchExperience(Collection<String> scopes, FullTextQuery query,
      int limit) {
    return read("search experience", false, s -> ExperienceRows.search(s, scopes, query, limit));
  }

  @Override
  public Optional<dev.engram.ReviewItem> reviewItem(String itemId) {
    return read("read a review item", true, s -> ExperienceRows.item(s, itemId));
  }

  @Override
  public List<dev.engram.ReviewItem> reviewItems(
      Collection<String> scopes, Set<dev.engram.ReviewState> states, String afterId, int limit) {
    return read("list review items", false, s -> ExperienceRows.items(s, scopes, states, afterId, limit));
  }

  @Override
  public List<dev.engram.ModelUsageRow> modelUsage(
      Collection<String> scopes, java.time.@org.jspecify.annotations.Nullable LocalDate from,
      java.time.@org.jspecify.annotations.Nullable LocalDate to) {
    java.util.Objects.requireNonNull(scopes, "scopes");
    return read("read model usage", false, s -> UsageRows.read(s, scopes, from, to));
  }

  @Override
  public long incubationCursor(String scope) {
    return read("read the incubation cursor", true, s -> ExperienceRows.incubation(s, scope));
  }

  @Override
  public List<StoredVector> activeVectors(String scope, String profileId) {
    return read("read vectors", false, s -> Queries.activeVectors(s, scope, profileId));
  }

  @Override
  public List<StoredVector> vectorsOf(String scope, String profileId, Collection<String> versionIds) {
    return read("read vectors of versions", false, s -> Queries.vectorsOf(s, scope, profileId, versionIds));
  }

  @Override
  public long vectorEpoch() {
    return read("read the vector epoch", true, Queries::vectorEpoch);
  }

  @Override
  public int countActiveWithoutVectors(String scope, String profileId) {
    return read("count versions without vectors", false, s -> Queries.countActiveWithoutVectors(s, scope, profileId));
  }

}
