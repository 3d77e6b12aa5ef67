/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.postgres;

import dev.engram.EntryStatus;
import dev.engram.MemoryEntry;
import dev.engram.MemoryEvent;
import dev.engram.Revision;
import dev.engram.spi.FullTextQuery;
import dev.engram.spi.ScoredEntry;
import dev.engram.spi.StoreReader;
import dev.engram.spi.StoredVector;
import dev.engram.spi.TopicState;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Every read of the PostgreSQL store, written once: the store runs each as one statement on a pooled
 * connection, a transaction on its own connection (after sending its queued writes), so it sees its
 * own changes and answers exactly what the store answers.
 */
abstract class ConnectionReads implements StoreReader {

  /** Work on one connection. */
  @FunctionalInterface
  interface SqlWork<T> {
    T run(Connection c) throws SQLException;
  }

  /** Runs {@code work} on the connection this reader reads from; {@code what} names it in errors. */
  abstract <T> T query(String what, SqlWork<T> work);

  /** The statements. */
  abstract Reads reads();

  /** The statements of experience, review items and the incubation cursor. */
  abstract ExperienceSql experience();

  /** The statements of the model usage counters. */
  abstract UsageSql usage();

  // ---- model usage (schema version 17)

  @Override
  public List<dev.engram.ModelUsageRow> modelUsage(
      Collection<String> scopes, java.time.@org.jspecify.annotations.Nullable LocalDate from,
      java.time.@org.jspecify.annotations.Nullable LocalDate to) {
    java.util.Objects.requireNonNull(scopes, "scopes");
    return query("reading model usage", c -> usage().read(c, scopes, from, to));
  }

  // ---- experience and review items (schema version 15)

  @Override
  public Optional<dev.engram.Experience> experienceVersion(String versionId) {
    return query("reading experience version " + versionId, c -> experience().experience(c, versionId));
  }

  @Override
  public List<dev.engram.Experience> experienceVersions(String experienceId) {
    return query("reading the versions of experience " + experienceId, c -> experience().chain(c, experienceId));
  }

  @Override
  public List<dev.engram.Experience> experiences(
      Collection<String> scopes, Set<dev.engram.ExperienceStatus> statuses, int limit) {
    return query("listing experience", c -> experience().experiences(c, scopes, statuses, limit));
  }

  @Override
  public List<dev.engram.spi.ScoredExperience> searchExperience(Collection<String> scopes, FullTextQuery query,
      int limit) {
    return query("searching experience", c -> experience().search(c, scopes, query, limit));
  }

  @Override
  public Optional<dev.engram.ReviewItem> reviewItem(String itemId) {
    return query("reading review item " + itemId, c -> experience().item(c, itemId));
  }

  @Override
  public List<dev.engram.ReviewItem> reviewItems(
      Collection<String> scopes, Set<dev.engram.ReviewState> states, String afterId, int limit) {
    return query("listing review items", c -> experience().items(c, scopes, states, afterId, limit));
  }

  @Override
  public long incubationCursor(String scope) {
    return query("reading the incubation cursor of " + scope, c -> experience().incubation(c, scope));
  }

  // ---------------------------------------------------------------------------------------------
  // StoreReader, each read written once for the store and its transactions

  @Override
  public long headRevision(String scope) {
    return query("reading the head of " + scope, c -> reads().headRevision(c, scope));
  }

  @Override
  public dev.engram.spi.SourceState sourceState(String scope) {
    return query("reading the source state of " + scope, c -> reads().sourceState(c, scope));
  }

  @Override
  public Optional<dev.engram.CapturedSource> source(String scope, String sourceId) {
    return query("reading a source of " + scope, c -> reads().source(c, scope, sourceId));
  }

  @Override
  public List<dev.engram.CapturedSource> sources(String scope, dev.engram.spi.SourceFilter filter) {
    return query("reading sources of " + scope, c -> reads().sources(c, scope, filter));
  }

  @Override
  public Optional<MemoryEntry> version(String versionId) {
    return query("reading version " + versionId, c -> reads().version(c, versionId));
  }

  @Override
  public List<MemoryEntry> versions(String entryId) {
    return query("reading the versions of " + entryId, c -> reads().versions(c, entryId));
  }

  @Override
  public Optional<MemoryEntry> currentVersion(String entryId) {
    return query("reading the current version of " + entryId, c -> reads().currentVersion(c, entryId));
  }

  @Override
  public Optional<MemoryEntry> findActiveByHash(String scope, String contentHash) {
    return query("finding by content hash in " + scope, c -> reads().findActiveByHash(c, scope, contentHash));
  }

  @Override
  public java.util.Map<String, MemoryEntry> findActiveByHashes(String scope, Collection<String> contentHashes) {
    return query("finding by content hashes in " + scope, c -> reads().findActiveByHashes(c, scope, contentHashes));
  }

  @Override
  public Optional<MemoryEntry> findActiveByPath(String scope, String path) {
    return query("finding by path in " + scope, c -> reads().findActiveByPath(c, scope, path));
  }

  @Override
  public List<MemoryEntry> activeByTopic(Collection<String> scopes, String topic, int limit) {
    return query("reading topic " + topic, c -> reads().activeByTopic(c, scopes, topic, limit));
  }

  @Override
  public List<MemoryEntry> versionsIn(Collection<String> scopes, Set<EntryStatus> statuses) {
    return query("listing versions", c -> reads().versionsIn(c, scopes, statuses));
  }

  @Override
  public List<MemoryEvent> events(String entryId) {
    return query("reading the events of " + entryId, c -> reads().events(c, entryId));
  }

  @Override
  public List<MemoryEvent> events(String entryId, long afterRevision, String afterEventId, int limit) {
    return query("reading a page of the events of " + entryId,
        c -> reads().events(c, entryId, afterRevision, afterEventId, limit));
  }

  @Override
  public Optional<MemoryEvent> event(String eventId) {
    return query("reading event " + eventId, c -> reads().event(c, eventId));
  }

  @Override
  public List<Revision> revisions(String scope, long sinceExclusive, int limit) {
    return query("reading the revisions of " + scope, c -> reads().revisions(c, scope, sinceExclusive, limit));
  }

  @Override
  public List<TopicState> topics(Collection<String> scopes) {
    return query("reading topics", c -> reads().topics(c, scopes));
  }

  @Override
  public List<TopicState> dirtyTopics(int limit) {
    return query("reading dirty topics", c -> reads().dirtyTopics(c, limit));
  }

  @Override
  public int countActiveWithPriority(String namespace, int priority) {
    return query("counting priorities in " + namespace, c -> reads().countActiveWithPriority(c, namespace, priority));
  }

  @Override
  public boolean hasScope(String scope) {
    return !query("listing scopes under " + scope, c -> reads().scopes(c, scope, false)).isEmpty();
  }

  @Override
  public List<String> scopesFrom(String prefix) {
    return query("listing scopes under " + prefix, c -> reads().scopes(c, prefix, true));
  }

  @Override
  public List<ScoredEntry> searchFullText(Collection<String> scopes, FullTextQuery query, int limit) {
    return rankFullText(scopes, query, limit).hits();
  }

  @Override
  public dev.engram.spi.FullTextResult rankFullText(Collection<String> scopes, FullTextQuery query, int limit) {
    return query("searching full text", c -> reads().searchFullText(c, scopes, query, limit));
  }

  @Override
  public java.util.Map<String, List<String>> keysOf(Collection<String> versionIds) {
    return query("reading retrieval keys", c -> reads().keysOf(c, versionIds));
  }

  @Override
  public List<ScoredEntry> searchKeys(Collection<String> scopes, FullTextQuery query, int limit) {
    return query("searching retrieval keys", c -> reads().searchKeys(c, scopes, query, limit));
  }

  @Override
  public List<StoredVector> activeVectors(String scope, String profileId) {
    return query("reading vectors of " + scope, c -> reads().activeVectors(c, scope, profileId));
  }

  @Override
  public List<StoredVector> vectorsOf(String scope, String profileId, Collection<String> versionIds) {
    return query("reading vectors of versions in " + scope, c -> reads().vectorsOf(c, scope, profileId, versionIds));
  }

  @Override
  public long vectorEpoch() {
    return query("reading the vector epoch", c -> reads().vectorEpoch(c));
  }

  @Override
  public int countActiveWithoutVectors(String scope, String profileId) {
    return query("counting versions without vectors in " + scope,
        c -> reads().countActiveWithoutVectors(c, scope, profileId));
  }

}
