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
 */
public interface StoreReader {

  /** The scope's current revision, 0 when nothing was ever committed there. */
  long headRevision(String scope);

  /** One version by id, whatever its status. */
  Optional<MemoryEntry> version(String versionId);

  /** Every version of an entry, ordered by version number ascending; empty when unknown. */
  List<MemoryEntry> versions(String entryId);

  /** The active version in {@code scope} whose content hash matches, if any. */
  Optional<MemoryEntry> findActiveByHash(String scope, String contentHash);

  /** The active version in {@code scope} with this path, if any. */
  Optional<MemoryEntry> findActiveByPath(String scope, String path);

  /**
   * Active versions in any of {@code scopes} carrying {@code topic}, newest first (by versionId
   * descending; ids are time-ordered), at most {@code limit}.
   */
  List<MemoryEntry> activeByTopic(Collection<String> scopes, String topic, int limit);

  /** Versions in any of {@code scopes} whose status is in {@code statuses}, in any order. */
  List<MemoryEntry> versionsIn(Collection<String> scopes, Set<EntryStatus> statuses);

  /** Events of an entry ordered by revision, then event id. */
  List<MemoryEvent> events(String entryId);

  Optional<MemoryEvent> event(String eventId);

  /** Revisions of a scope with number greater than {@code sinceExclusive}, ascending, at most {@code limit}. */
  List<Revision> revisions(String scope, long sinceExclusive, int limit);

  /** Topic bookkeeping of every (scope, topic) pair in {@code scopes}, ordered by scope then topic. */
  List<TopicState> topics(Collection<String> scopes);

  /** Dirty (scope, topic) pairs across the whole store, ordered by scope then topic, at most {@code limit}. */
  List<TopicState> dirtyTopics(int limit);

  /**
   * Active entries with this priority in exactly {@code scope} (not the scopes below it): priority
   * caps are per scope, so one tenant's entries never count against another's.
   */
  int countActiveWithPriority(String scope, int priority);

  /** Scopes that hold any version, topic row or source record and equal {@code prefix} or (when recursive) lie below it. */
  List<String> scopes(String prefix, boolean recursive);

  // ---- search (optional capabilities)

  /**
   * Active versions in {@code scopes} matching at least one query term, best first, at most
   * {@code limit}. Stores declaring {@link StoreCapability#FULL_TEXT_SEARCH} implement it.
   */
  default List<ScoredEntry> searchFullText(Collection<String> scopes, FullTextQuery query, int limit) {
    throw new CapabilityNotSupportedException(getClass().getSimpleName() + " has no full-text search");
  }

  /**
   * Vectors stored under {@code profileId} for the active versions of {@code scope}. Stores declaring
   * {@link StoreCapability#VECTOR_STORAGE} implement it.
   */
  default List<StoredVector> activeVectors(String scope, String profileId) {
    throw new CapabilityNotSupportedException(getClass().getSimpleName() + " stores no vectors");
  }

  /** Active versions of {@code scope} without any vector under {@code profileId}. */
  default int countActiveWithoutVectors(String scope, String profileId) {
    throw new CapabilityNotSupportedException(getClass().getSimpleName() + " stores no vectors");
  }

  // ---- sources (optional capability)

  /**
   * The source bookkeeping of {@code scope} ({@link SourceState#EMPTY} when nothing was captured there).
   * Stores declaring {@link StoreCapability#SOURCES} implement it.
   */
  default SourceState sourceState(String scope) {
    throw new CapabilityNotSupportedException(getClass().getSimpleName() + " stores no sources");
  }

  /** The record of {@code scope} with this id, if any. */
  default Optional<dev.engram.CapturedSource> source(String scope, String sourceId) {
    throw new CapabilityNotSupportedException(getClass().getSimpleName() + " stores no sources");
  }

  /** Records of {@code scope} matching {@code filter}, by position ascending, at most {@code filter.limit()}. */
  default List<dev.engram.CapturedSource> sources(String scope, SourceFilter filter) {
    throw new CapabilityNotSupportedException(getClass().getSimpleName() + " stores no sources");
  }
}
