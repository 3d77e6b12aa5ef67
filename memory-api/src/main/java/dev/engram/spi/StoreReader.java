/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.spi;

import dev.engram.EntryStatus;
import dev.engram.MemoryEntry;
import dev.engram.MemoryEvent;
import dev.engram.Revision;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import dev.engram.CapabilityNotSupportedException;

/**
 * The queries a store answers. Scopes passed in are already validated and authorized by the engine;
 * a store returns exactly what is asked and applies no policy of its own. Each call sees a consistent
 * state; inside a {@link StoreTransaction} it also sees the transaction's own changes.
 *
 * <p>Every method may throw {@link dev.engram.StoreException} when the store itself fails (the
 * database is unreachable, a statement fails: {@code STORE_UNAVAILABLE}) or was closed
 * ({@code STORE_CLOSED}); the methods below name only the other exceptions they throw.
 */
public interface StoreReader {

  /**
   * The scope's current revision.
   *
   * @param scope the scope
   * @return its head revision, 0 when nothing was ever committed there
   */
  long headRevision(String scope);

  /**
   * One version by id, whatever its status.
   *
   * @param versionId the version
   * @return the version, or empty when unknown
   */
  Optional<MemoryEntry> version(String versionId);

  /**
   * Every version of an entry.
   *
   * @param entryId the entry
   * @return its versions ordered by version number ascending; empty when unknown
   */
  List<MemoryEntry> versions(String entryId);

  /**
   * The current version of an entry: the one with the highest version number, whatever its status.
   * This is the lookup behind every operation on "the entry" (get, correct, retire, move, …), so a
   * store answers it from an index on (entry, version) without reading the rest of the chain: its
   * cost must not grow with the number of versions. The default reads the whole chain and exists only
   * so that older stores keep compiling; every store of this project overrides it.
   *
   * @param entryId the entry
   * @return its newest version, or empty when unknown
   */
  default Optional<MemoryEntry> currentVersion(String entryId) {
    List<MemoryEntry> all = versions(entryId);
    return all.isEmpty() ? Optional.empty() : Optional.of(all.get(all.size() - 1));
  }

  /**
   * The active version in {@code scope} whose content hash matches.
   *
   * @param scope the scope
   * @param contentHash the canonical content hash
   * @return the version, or empty when none matches
   */
  Optional<MemoryEntry> findActiveByHash(String scope, String contentHash);

  /**
   * {@link #findActiveByHash} for many hashes at once: a batch write asks once for all its items. The
   * default asks once per hash; a store with round trips answers in one.
   *
   * @param scope the scope
   * @param contentHashes canonical content hashes
   * @return for each hash that has an active version, the version {@link #findActiveByHash} returns
   */
  default java.util.Map<String, MemoryEntry> findActiveByHashes(String scope, Collection<String> contentHashes) {
    java.util.Map<String, MemoryEntry> out = new java.util.HashMap<>();
    for (String hash : new java.util.LinkedHashSet<>(contentHashes)) {
      findActiveByHash(scope, hash).ifPresent(e -> out.put(hash, e));
    }
    return out;
  }

  /**
   * The active version in {@code scope} with this path.
   *
   * @param scope the scope
   * @param path the path
   * @return the version, or empty when none has the path
   */
  Optional<MemoryEntry> findActiveByPath(String scope, String path);

  /**
   * Active versions in any of {@code scopes} carrying {@code topic}, newest first (by versionId
   * descending; ids are time-ordered), at most {@code limit}.
   *
   * @param scopes the scopes
   * @param topic the topic
   * @param limit the most versions returned
   * @return the versions, newest first
   */
  List<MemoryEntry> activeByTopic(Collection<String> scopes, String topic, int limit);

  /**
   * Versions in any of {@code scopes} whose status is in {@code statuses}.
   *
   * @param scopes the scopes
   * @param statuses the statuses wanted
   * @return the versions, in any order
   */
  List<MemoryEntry> versionsIn(Collection<String> scopes, Set<EntryStatus> statuses);

  /**
   * The history of an entry.
   *
   * @param entryId the entry
   * @return its events ordered by revision, then event id; empty when unknown
   */
  List<MemoryEvent> events(String entryId);

  /**
   * One page of the history of an entry: its events ordered by revision, then event id, strictly
   * after the position ({@code afterRevision}, {@code afterEventId}), at most {@code limit}. Start with
   * {@code (0, "")}; continue from the revision and id of the last event of the previous page. A store
   * answers it from an index on (entry, revision, event id), so one page costs the same at any depth of
   * a long chain. The default filters {@link #events(String)} and exists only so that older stores keep
   * compiling; every store of this project overrides it.
   *
   * @param entryId the entry
   * @param afterRevision the revision of the last event already seen (0 to start)
   * @param afterEventId the id of the last event already seen ({@code ""} to start)
   * @param limit the most events returned, at least 1
   * @return the events of the page, ordered; fewer than {@code limit} only at the end of the history
   */
  default List<MemoryEvent> events(String entryId, long afterRevision, String afterEventId, int limit) {
    List<MemoryEvent> out = new java.util.ArrayList<>();
    for (MemoryEvent e : events(entryId)) {
      if (out.size() < limit && (e.revision() > afterRevision
          || (e.revision() == afterRevision && e.eventId().compareTo(afterEventId) > 0))) {
        out.add(e);
      }
    }
    return out;
  }

  /**
   * One event by id.
   *
   * @param eventId the event
   * @return the event, or empty when unknown
   */
  Optional<MemoryEvent> event(String eventId);

  /**
   * Revisions of a scope after a given one.
   *
   * @param scope the scope
   * @param sinceExclusive revisions with a greater number are returned
   * @param limit the most revisions returned
   * @return the revisions, ascending
   */
  List<Revision> revisions(String scope, long sinceExclusive, int limit);

  /**
   * Topic bookkeeping of every (scope, topic) pair in {@code scopes}.
   *
   * @param scopes the scopes
   * @return the topic rows, ordered by scope then topic
   */
  List<TopicState> topics(Collection<String> scopes);

  /**
   * Dirty (scope, topic) pairs across the whole store.
   *
   * @param limit the most rows returned
   * @return the dirty topic rows, ordered by scope then topic
   */
  List<TopicState> dirtyTopics(int limit);

  /**
   * Counts active entries with a priority in exactly {@code scope} (not the scopes below it): priority
   * caps are per scope, so one tenant's entries never count against another's.
   *
   * @param scope the scope
   * @param priority the priority
   * @return the number of active entries with this priority in {@code scope}
   */
  int countActiveWithPriority(String scope, int priority);

  /**
   * Whether {@code scope} holds any version, topic row, source state, experience version or review item.
   *
   * @param scope the scope
   * @return whether the store holds anything of it
   */
  boolean hasScope(String scope);

  /**
   * The scopes that hold any version, topic row, source state, experience version or review item and equal {@code prefix} or lie
   * below it ({@code app/u1} gives {@code app/u1} and {@code app/u1/notes}, never {@code app/u10}).
   *
   * @param prefix the scope
   * @return the scopes, sorted
   */
  List<String> scopesFrom(String prefix);

  // ---- search (optional capabilities)

  /**
   * Active versions in {@code scopes} matching at least one query term, best first, at most
   * {@code limit}. Stores declaring {@link StoreCapability#FULL_TEXT_SEARCH} implement it. The query's
   * filters (topics, types, event time) apply before the limit: the hits are the best {@code limit}
   * versions that pass them.
   *
   * @param scopes the scopes
   * @param query the analysed query
   * @param limit the most hits returned
   * @return the hits, best first
   * @throws CapabilityNotSupportedException if the store has no full-text search
   */
  default List<ScoredEntry> searchFullText(Collection<String> scopes, FullTextQuery query, int limit) {
    throw new CapabilityNotSupportedException(getClass().getSimpleName() + " has no full-text search");
  }

  /**
   * {@link #searchFullText}, saying whether the hits were ranked among a bounded candidate set (a store
   * that keeps large scopes' searches cheap by ranking only some of the matching versions, as the durable
   * stores do past their {@code fullTextCandidates} setting). The hits are exactly those
   * {@link #searchFullText} returns. The engine searches through this method; the default, for stores that
   * always rank every matching version, wraps {@link #searchFullText} as {@link FullTextResult#exact}.
   *
   * @param scopes the scopes
   * @param query the analysed query
   * @param limit the most hits returned
   * @return the hits and whether their ranking was bounded
   * @throws CapabilityNotSupportedException if the store has no full-text search
   */
  default FullTextResult rankFullText(Collection<String> scopes, FullTextQuery query, int limit) {
    return FullTextResult.exact(searchFullText(scopes, query, limit));
  }

  /**
   * The retrieval keys of the named versions (any status), in the order they were stored; versions
   * without keys (or unknown) are absent from the map. Stores declaring
   * {@link StoreCapability#RETRIEVAL_KEYS} implement it; others have no keys to return.
   *
   * @param versionIds the versions
   * @return version id → its keys
   */
  default java.util.Map<String, List<String>> keysOf(Collection<String> versionIds) {
    return java.util.Map.of();
  }

  /**
   * Active versions in {@code scopes} whose retrieval keys match at least one query term, best first, at
   * most {@code limit}: the same contract as {@link #searchFullText}, over a second index whose document
   * of a version is its keys joined by a space (their {@link TextAnalysis#terms terms}, one field, BM25
   * over the key documents of the scopes). A version's content, glossary, disclosure and topics are not
   * part of it, and its keys are never part of {@link #searchFullText}. Stores declaring
   * {@link StoreCapability#RETRIEVAL_KEYS} implement it; others find nothing.
   *
   * @param scopes the scopes
   * @param query the analysed query (its filters apply as for {@link #searchFullText})
   * @param limit the most hits returned
   * @return the hits, best first
   */
  default List<ScoredEntry> searchKeys(Collection<String> scopes, FullTextQuery query, int limit) {
    return List.of();
  }

  /**
   * Vectors stored under {@code profileId} for the active versions of {@code scope}. Stores declaring
   * {@link StoreCapability#VECTOR_STORAGE} implement it.
   *
   * @param scope the scope
   * @param profileId the embedding profile id
   * @return the vectors of its active versions
   * @throws CapabilityNotSupportedException if the store keeps no vectors
   */
  default List<StoredVector> activeVectors(String scope, String profileId) {
    throw new CapabilityNotSupportedException(getClass().getSimpleName() + " stores no vectors");
  }

  /**
   * The vectors stored under {@code profileId} for the named versions of {@code scope}, whatever their
   * status, grouped by version (the rows of one version in their stored order). The engine reads the
   * vectors of the versions a revision changed through it, instead of reloading the scope's vectors.
   * The default filters {@link #activeVectors}; stores keeping many vectors answer from an index.
   *
   * @param scope the scope
   * @param profileId the embedding profile id
   * @param versionIds the versions
   * @return their vectors; a version without vectors has none
   * @throws CapabilityNotSupportedException if the store keeps no vectors
   */
  default List<StoredVector> vectorsOf(String scope, String profileId, Collection<String> versionIds) {
    Set<String> wanted = Set.copyOf(versionIds);
    List<StoredVector> out = new java.util.ArrayList<>();
    for (StoredVector v : activeVectors(scope, profileId)) {
      if (wanted.contains(v.versionId())) {
        out.add(v);
      }
    }
    return out;
  }

  /**
   * The store's vector epoch: a counter {@link StoreTransaction#advanceVectorEpoch()} moves whenever
   * vectors of versions committed earlier are stored (reindex), which no revision records. Engines
   * cache vectors keyed by it together with the scope's revision, so vectors another process stored
   * are seen by the next search. Stores declaring {@link StoreCapability#VECTOR_STORAGE} keep it
   * durably and shared by every process using the store; the default (always 0) suits stores without.
   *
   * @return the epoch, 0 when it never moved
   */
  default long vectorEpoch() {
    return 0;
  }

  /**
   * Counts the active versions of {@code scope} without any vector under {@code profileId}.
   *
   * @param scope the scope
   * @param profileId the embedding profile id
   * @return the number of active versions lacking vectors
   * @throws CapabilityNotSupportedException if the store keeps no vectors
   */
  default int countActiveWithoutVectors(String scope, String profileId) {
    throw new CapabilityNotSupportedException(getClass().getSimpleName() + " stores no vectors");
  }

  // ---- experience and review items (StoreCapability.REVIEW); stores without them hold none

  /**
   * One experience version by id, whatever its status.
   *
   * @param versionId the version
   * @return the version, or empty when unknown
   */
  default Optional<dev.engram.Experience> experienceVersion(String versionId) {
    return Optional.empty();
  }

  /**
   * Every version of an experience.
   *
   * @param experienceId the experience
   * @return its versions by version number ascending; empty when unknown
   */
  default List<dev.engram.Experience> experienceVersions(String experienceId) {
    return List.of();
  }

  /**
   * Experience versions in any of {@code scopes} whose status is in {@code statuses}, ordered by scope,
   * experience id, then version, at most {@code limit}.
   *
   * @param scopes the scopes
   * @param statuses the statuses wanted
   * @param limit the most versions returned
   * @return the versions, in that order
   */
  default List<dev.engram.Experience> experiences(
      Collection<String> scopes, Set<dev.engram.ExperienceStatus> statuses, int limit) {
    return List.of();
  }

  /**
   * Active experience versions in {@code scopes} whose document holds at least one query term, best
   * first (the same BM25 family as {@link #searchFullText}), ties by version id descending, at most
   * {@code limit}. A version's document is {@link dev.engram.Experience#text()} in the one text analysis
   * ({@link TextAnalysis#terms}); the query's topic, type and event-time filters do not apply to
   * experience and are ignored.
   *
   * @param scopes the scopes
   * @param query the analysed query
   * @param limit the most hits returned
   * @return the hits, best first
   */
  default List<ScoredExperience> searchExperience(Collection<String> scopes, FullTextQuery query, int limit) {
    return List.of();
  }

  /**
   * One review item by id.
   *
   * @param itemId the item
   * @return the item, or empty when unknown
   */
  default Optional<dev.engram.ReviewItem> reviewItem(String itemId) {
    return Optional.empty();
  }

  /**
   * Review items in any of {@code scopes} whose state is in {@code states} and whose id is greater than
   * {@code afterId}, by id ascending, at most {@code limit}.
   *
   * @param scopes the scopes
   * @param states the states wanted
   * @param afterId list ids after this one ({@code ""} from the start)
   * @param limit the most items returned
   * @return the items, by id
   */
  default List<dev.engram.ReviewItem> reviewItems(
      Collection<String> scopes, Set<dev.engram.ReviewState> states, String afterId, int limit) {
    return List.of();
  }

  /**
   * The incubation cursor of {@code scope}: the source position up to which experience incubation
   * committed (0 when it never ran). Its own, independent of {@link SourceState#cursor()}; never above
   * {@link SourceState#lastPosition()}.
   *
   * @param scope the scope
   * @return the cursor
   */
  default long incubationCursor(String scope) {
    return 0;
  }

  // ---- sources (optional capability)

  /**
   * The source bookkeeping of {@code scope} ({@link SourceState#EMPTY} when nothing was captured there).
   * Stores declaring {@link StoreCapability#SOURCES} implement it.
   *
   * @param scope the scope
   * @return the scope's last captured position and extraction cursor
   * @throws CapabilityNotSupportedException if the store keeps no sources
   */
  default SourceState sourceState(String scope) {
    throw new CapabilityNotSupportedException(getClass().getSimpleName() + " stores no sources");
  }

  /**
   * The record of {@code scope} with this id, if any. Stores declaring {@link StoreCapability#SOURCES}
   * implement it.
   *
   * @param scope the scope
   * @param sourceId the record's id
   * @return the record, or empty when the scope holds none with that id
   * @throws CapabilityNotSupportedException if the store keeps no sources
   */
  default Optional<dev.engram.CapturedSource> source(String scope, String sourceId) {
    throw new CapabilityNotSupportedException(getClass().getSimpleName() + " stores no sources");
  }

  /**
   * Records of {@code scope} matching {@code filter}, by position ascending, at most {@code filter.limit()}.
   * Stores declaring {@link StoreCapability#SOURCES} implement it.
   *
   * @param scope the scope
   * @param filter which records, and how many
   * @return the matching records in position order
   * @throws CapabilityNotSupportedException if the store keeps no sources
   */
  default List<dev.engram.CapturedSource> sources(String scope, SourceFilter filter) {
    throw new CapabilityNotSupportedException(getClass().getSimpleName() + " stores no sources");
  }

  /**
   * The model usage counters of {@code scopes} whose day lies between {@code from} and {@code to} (both
   * included; null for no bound), one row per (scope, day, provider, model, job), ordered by scope, day,
   * provider, model and job. Stores declaring {@link StoreCapability#MODEL_USAGE} implement it; the
   * default, for stores without, is empty.
   *
   * @param scopes the scopes
   * @param from the first day (UTC), or null
   * @param to the last day (UTC), or null
   * @return the rows
   */
  default List<dev.engram.ModelUsageRow> modelUsage(
      Collection<String> scopes, java.time.@org.jspecify.annotations.Nullable LocalDate from,
      java.time.@org.jspecify.annotations.Nullable LocalDate to) {
    return List.of();
  }
}
