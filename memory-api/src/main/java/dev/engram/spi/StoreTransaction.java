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
   * only): versions, events, indexes, topic rows, and (in stores with {@link StoreCapability#SOURCES})
   * its source records and source state.
   *
   * @return the number of entries removed
   */
  int eraseScopeContent();

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
