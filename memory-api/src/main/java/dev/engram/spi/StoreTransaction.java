/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.spi;

import dev.engram.EntryStatus;
import dev.engram.MemoryEntry;
import dev.engram.MemoryEvent;
import dev.engram.Revision;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import dev.engram.CapabilityNotSupportedException;
import org.jspecify.annotations.Nullable;

/**
 * A unit of work on one scope, handed out by {@link MemoryStore#inTransaction}. All changes made
 * through it commit together when the work returns, or not at all when it throws.
 *
 * <p>Writes are bound to {@link #scope()}: a version, event, revision, topic row or source of another
 * scope, and a status, vector or erasure change of another scope's version or entry, is refused with an
 * {@link IllegalStateException} and changes nothing. Reads are not bound: they answer for any scope, as
 * the store does, and include this transaction's own changes. Nesting follows
 * {@link MemoryStore#inTransaction}.
 *
 * <p>Like every read, every write may throw {@link dev.engram.StoreException} when the store fails;
 * the transaction then commits nothing.
 */
public interface StoreTransaction extends StoreReader {

  /**
   * The scope this transaction holds the head of.
   *
   * @return the scope
   */
  String scope();

  /**
   * Stores a new version. Its {@code versionId} is new.
   *
   * @param version the version
   */
  void insertVersion(MemoryEntry version);

  /**
   * Changes the status of an existing version (the only in-place change a version ever gets).
   *
   * @param versionId the version
   * @param status its new status
   * @param supersededBy the version that replaces it, or null
   * @param updatedAt when
   */
  void updateStatus(String versionId, EntryStatus status, @Nullable String supersededBy, Instant updatedAt);

  /**
   * Stores an event. Its {@code eventId} is new; a store refuses one it already holds (history is never
   * overwritten).
   *
   * @param event the event
   */
  void appendEvent(MemoryEvent event);

  /**
   * Records a revision of the transaction's scope and makes it the head. Its number must be the
   * current head + 1; a store throws {@link IllegalStateException} otherwise.
   *
   * @param revision the revision
   */
  void appendRevision(Revision revision);

  /**
   * Marks the topics as written at {@code revision} (they become dirty). Creates missing topic rows.
   *
   * @param scope the scope
   * @param topics the topics written
   * @param revision the revision that wrote them
   * @param at when
   */
  void markTopicsWritten(String scope, Collection<String> topics, long revision, Instant at);

  /**
   * Records a curation pass: the topic is clean as of {@code revision}; a non-null blurb replaces the old one.
   *
   * @param scope the scope
   * @param topic the topic
   * @param revision the revision the topic is clean as of
   * @param blurb the new blurb, or null to keep the old one
   */
  void markTopicCurated(String scope, String topic, long revision, @Nullable String blurb);

  /**
   * Erases an entry: every version, every event, its full-text and vector rows, and the topic rows of
   * its scope that no remaining version carries.
   *
   * @param entryId the entry
   * @return the number of versions removed
   */
  int eraseEntry(String entryId);

  /**
   * Erases everything stored for the transaction's scope but its revision head and revision log (ids
   * only): versions, events, indexes, topic rows, (in stores with {@link StoreCapability#SOURCES}) its
   * source records and source state, and (in stores with {@link StoreCapability#REVIEW}) its experience
   * versions, review items and incubation cursor, and (in stores with {@link StoreCapability#MODEL_USAGE})
   * its model usage counters.
   *
   * @return the number of entries removed
   */
  int eraseScopeContent();

  /**
   * Erases everything stored for the transaction's scope, as {@link #eraseScopeContent} erases it (and as
   * thoroughly: nothing of the erased content stays at rest once the transaction commits), and its revision
   * log and head too: afterwards, in this transaction's view, {@link #headRevision} of the scope is 0 and
   * {@link #hasScope} false, so the same transaction can write the scope anew from revision 1 (a restore).
   * When the transaction rolls back, the scope is as it was. Stores declaring
   * {@link StoreCapability#REPLACE_SCOPE} implement it.
   *
   * @return the number of entries removed
   * @throws CapabilityNotSupportedException if the store cannot replace a scope in one transaction
   */
  default int eraseScope() {
    throw new CapabilityNotSupportedException(getClass().getSimpleName() + " cannot replace a scope in one transaction");
  }

  /**
   * Replaces the vectors stored under {@code profileId} for the versions named in {@code vectors}.
   * Stores declaring {@link StoreCapability#VECTOR_STORAGE} implement it; erasure removes vectors too.
   *
   * @param profileId the embedding profile id
   * @param vectors the vectors, one or more per version
   * @throws CapabilityNotSupportedException if the store keeps no vectors
   */
  default void putVectors(String profileId, List<StoredVector> vectors) {
    throw new CapabilityNotSupportedException(getClass().getSimpleName() + " stores no vectors");
  }

  /**
   * Moves the store's {@link #vectorEpoch() vector epoch} forward by one when this transaction commits.
   * The engine calls it when it stores vectors for versions committed earlier (reindex), so every
   * process's cache notices them. Stores declaring {@link StoreCapability#VECTOR_STORAGE} implement it.
   *
   * @throws CapabilityNotSupportedException if the store keeps no vectors
   */
  default void advanceVectorEpoch() {
    throw new CapabilityNotSupportedException(getClass().getSimpleName() + " stores no vectors");
  }

  /**
   * Stores the retrieval keys of a version of this transaction's scope, written in the same transaction
   * as the version: extra texts that search finds the version by, each an arm of its own beside the
   * version's content (see {@link StoreReader#searchKeys}). A version's keys never change once stored;
   * they are erased with the version ({@link #eraseEntry}, {@link #eraseScopeContent}). An empty list
   * stores nothing. Stores declaring {@link StoreCapability#RETRIEVAL_KEYS} implement it; a store throws
   * {@link IllegalStateException} when the version does not exist, belongs to another scope, or already
   * has keys.
   *
   * @param versionId the version the keys belong to
   * @param keys the keys in order, each non-blank
   * @throws CapabilityNotSupportedException if the store keeps no retrieval keys
   */
  default void putKeys(String versionId, List<String> keys) {
    throw new CapabilityNotSupportedException(getClass().getSimpleName() + " keeps no retrieval keys");
  }

  // ---- experience and review items (stores declaring StoreCapability.REVIEW)

  /**
   * Stores a new experience version of the transaction's scope. Its {@code versionId} is new; an active
   * version is indexed for {@link StoreReader#searchExperience}, and an experience has at most one
   * active version (a store throws {@link IllegalStateException} for a second one, for a version id it
   * holds, for a version number its experience already has, and for another scope).
   *
   * @param version the version
   * @throws CapabilityNotSupportedException if the store keeps no experience
   */
  default void insertExperience(dev.engram.Experience version) {
    throw new CapabilityNotSupportedException(getClass().getSimpleName() + " keeps no experience");
  }

  /**
   * Changes the status of an experience version of the transaction's scope (the only in-place change a
   * version gets); it leaves the full-text index when it stops being active and enters it when it
   * becomes active. A store throws {@link IllegalStateException} for an unknown version, another scope,
   * or a second active version of one experience.
   *
   * @param versionId the version
   * @param status its new status
   * @param at when
   * @throws CapabilityNotSupportedException if the store keeps no experience
   */
  default void updateExperienceStatus(String versionId, dev.engram.ExperienceStatus status, Instant at) {
    throw new CapabilityNotSupportedException(getClass().getSimpleName() + " keeps no experience");
  }

  /**
   * Erases an experience of the transaction's scope: every version and its full-text rows.
   *
   * @param experienceId the experience
   * @return the number of versions removed (0 when there was none)
   * @throws CapabilityNotSupportedException if the store keeps no experience
   */
  default int eraseExperience(String experienceId) {
    throw new CapabilityNotSupportedException(getClass().getSimpleName() + " keeps no experience");
  }

  /**
   * Stores a review item of the transaction's scope: a new one (any version, as an import carries it),
   * or the next version of one it holds, which replaces it. A store throws {@link IllegalStateException}
   * when the item belongs to another scope, or replaces a held item with a version other than the held
   * version + 1 or with another kind.
   *
   * @param item the item
   * @throws CapabilityNotSupportedException if the store keeps no review items
   */
  default void putReviewItem(dev.engram.ReviewItem item) {
    throw new CapabilityNotSupportedException(getClass().getSimpleName() + " keeps no review items");
  }

  /**
   * Erases a review item of the transaction's scope.
   *
   * @param itemId the item
   * @return false when there was none with this id
   * @throws CapabilityNotSupportedException if the store keeps no review items
   */
  default boolean eraseReviewItem(String itemId) {
    throw new CapabilityNotSupportedException(getClass().getSimpleName() + " keeps no review items");
  }

  /**
   * Moves the incubation cursor of the transaction's scope to {@code position}, which must lie between
   * the current incubation cursor and the scope's {@link SourceState#lastPosition()} (a store throws
   * {@link IllegalStateException} otherwise). Stores declaring both {@link StoreCapability#REVIEW} and
   * {@link StoreCapability#SOURCES} implement it; {@link #eraseScopeContent} resets it with the sources.
   *
   * @param position the new cursor
   * @throws CapabilityNotSupportedException if the store keeps no sources or no review items
   */
  default void advanceIncubationCursor(long position) {
    throw new CapabilityNotSupportedException(getClass().getSimpleName() + " keeps no incubation cursor");
  }

  // ---- model usage (stores declaring StoreCapability.MODEL_USAGE)

  /**
   * Adds model usage to the counters of the transaction's scope: each row's calls, tokens and failures
   * are added to the counters of its (day, provider, model, job), which start at zero. Adding never
   * makes a revision, an event or a topic mark. A store throws {@link IllegalStateException} for a row of
   * another scope, before anything is added.
   *
   * @param rows the usage to add, each of this transaction's scope
   * @throws CapabilityNotSupportedException if the store keeps no model usage
   */
  default void addModelUsage(List<dev.engram.ModelUsageRow> rows) {
    throw new CapabilityNotSupportedException(getClass().getSimpleName() + " keeps no model usage");
  }

  // ---- sources (stores declaring StoreCapability.SOURCES)

  /**
   * Stores a record of the transaction's scope. Its position must be greater than the scope's {@link
   * SourceState#lastPosition()}, which becomes it; its id must be new in the scope. A store throws {@link
   * IllegalStateException} otherwise.
   *
   * @param source the record, already validated by the engine
   * @throws IllegalStateException when the position or the id is taken
   * @throws CapabilityNotSupportedException if the store keeps no sources
   */
  default void insertSource(dev.engram.CapturedSource source) {
    throw new CapabilityNotSupportedException(getClass().getSimpleName() + " stores no sources");
  }

  /**
   * Moves the extraction cursor of the transaction's scope to {@code position}, which must lie between the
   * current cursor and the last position; a store throws {@link IllegalStateException} otherwise.
   *
   * @param position the new cursor
   * @throws IllegalStateException when {@code position} is before the cursor or after the last position
   * @throws CapabilityNotSupportedException if the store keeps no sources
   */
  default void advanceSourceCursor(long position) {
    throw new CapabilityNotSupportedException(getClass().getSimpleName() + " stores no sources");
  }

  /**
   * Sets the source bookkeeping of the transaction's scope to what an import carries: the last position
   * (which may lie beyond the highest stored record when the last records were erased, so positions
   * are never reused) and the cursor. {@code state.lastPosition()} must be at least the scope's current
   * {@link SourceState#lastPosition()}; a store throws {@link IllegalStateException} otherwise.
   *
   * @param state the last position and cursor to keep
   */
  default void restoreSourceState(SourceState state) {
    throw new CapabilityNotSupportedException(getClass().getSimpleName() + " stores no sources");
  }

  /**
   * Erases one record of the transaction's scope. The scope's last position stays, so positions are never
   * reused.
   *
   * @param sourceId the record's id
   * @return true when a record was erased, false when there was none with this id
   * @throws CapabilityNotSupportedException if the store keeps no sources
   */
  default boolean eraseSource(String sourceId) {
    throw new CapabilityNotSupportedException(getClass().getSimpleName() + " stores no sources");
  }
}
