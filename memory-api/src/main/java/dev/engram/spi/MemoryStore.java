/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.spi;

import java.util.Collection;
import java.util.Set;

/**
 * Storage for entries, versions, events, revisions and topic bookkeeping. A store decides no policy:
 * the engine validates and authorizes everything before it calls in. Implementations are thread-safe.
 *
 * <p>Every implementation passes the behavioural contract in {@code memory-store-tck}.
 */
public interface MemoryStore extends StoreReader, AutoCloseable {

  /**
   * What this store can do beyond the basic contract.
   *
   * @return the capabilities
   */
  Set<StoreCapability> capabilities();

  /**
   * Runs {@code work} as one atomic unit on {@code scope}: transactions on the same scope are
   * serialized (across processes for multi-process stores), everything the work writes commits
   * together, and nothing commits when it throws. The work's exception is rethrown unchanged.
   *
   * <p>Every store follows the same rules:
   *
   * <ul>
   *   <li><b>Reads.</b> The transaction answers every {@link StoreReader} query the store answers,
   *       with the same capabilities (full-text search and vectors included), and sees its own
   *       uncommitted changes.
   *   <li><b>Scope.</b> The transaction is bound to {@code scope}: every write names it (the version's,
   *       event's, revision's, source's and topic rows' scope, and the scope of the versions and entries
   *       whose status, vectors or existence it changes). A write for another scope is refused with an
   *       {@link IllegalStateException} before anything is changed, and the transaction stays usable.
   *   <li><b>Nesting.</b> {@code inTransaction} called by the work itself (on the same thread, on the
   *       same store) runs as a nested unit of the running transaction, like an SQL savepoint: it sees
   *       the outer changes, may be bound to another scope (whose head it then holds too), and never
   *       waits for a lock the outer transaction holds. When its work returns, its changes become part
   *       of the outer transaction and commit or roll back with it; when its work throws, only its own
   *       changes are undone and the outer work may carry on.
   *   <li><b>After the work.</b> The {@link StoreTransaction} handed to the work must not be used once
   *       the work returned; its methods then throw {@link IllegalStateException}.
   * </ul>
   *
   * @param <T> what the work returns
   * @param scope the scope whose head the transaction holds
   * @param work the work
   * @return what the work returned
   * @throws dev.engram.StoreException when the store fails
   */
  <T> T inTransaction(String scope, StoreWork<T> work);

  /**
   * {@link #inTransaction(String, StoreWork)} for work that looks up the active holders of
   * {@code contentHashes} in {@code scope} ({@link StoreReader#findActiveByHashes}) before it writes, as
   * a write does for its dedupe check. The transaction and every answer it gives are exactly those of
   * {@link #inTransaction(String, StoreWork)}; a store that pays a round trip per statement may read the
   * holders together with the scope's head lock, and answer those lookups from what it read for as long
   * as the transaction has written nothing. The default ignores the hint.
   *
   * <p>Such a store may also run the work before it holds the head lock, on the head and holders it
   * expects, and check both once it holds the lock; when they differ it rolls back everything that run
   * wrote and runs the work again, so only the last run's writes commit and only its result or exception
   * reaches the caller. Work passed here therefore keeps nothing of a run outside the transaction.
   *
   * @param <T> what the work returns
   * @param scope the scope whose head the transaction holds
   * @param contentHashes canonical content hashes the work will look up in {@code scope}
   * @param work the work
   * @return what the work returned
   * @throws dev.engram.StoreException when the store fails
   */
  default <T> T inTransaction(String scope, Collection<String> contentHashes, StoreWork<T> work) {
    java.util.Objects.requireNonNull(contentHashes, "contentHashes");
    return inTransaction(scope, work);
  }

  /**
   * The embedding profile ids ({@link EmbeddingProfile#id()}) under which the store holds at least one
   * vector, in any scope, sorted. Tools that open a store an application keeps use it to embed with the
   * application's model ({@link EmbedderSpec#AUTO}). Stores declaring {@link StoreCapability#VECTOR_STORAGE}
   * implement it; the default, for stores without vectors, is empty.
   *
   * @return the profile ids
   * @throws dev.engram.StoreException when the store fails
   */
  default java.util.List<String> vectorProfiles() {
    return java.util.List.of();
  }

  /**
   * Claims, for {@code workerId} and for the length of {@code lease}, up to {@code limit} dirty (scope,
   * topic) pairs of exactly {@code scopes} (never of a scope not named, an ancestor or a descendant),
   * ordered by scope then topic. Pairs another claimer holds under an unexpired lease are skipped, as are
   * pairs another claimer is claiming at this instant, so concurrent claimers in any number of processes get
   * disjoint claims and never wait for each other. A claim ends when released ({@link #releaseClaim}) or when
   * its lease passes; it does not change dirty tracking (the pair stays dirty until a curation marks it
   * curated). Stores declaring {@link StoreCapability#WORK_CLAIMS} implement it; the default refuses.
   *
   * @param workerId names the claimer (1..256 non-blank characters)
   * @param scopes the scopes to claim in (valid namespaces)
   * @param limit the most pairs claimed (1..10,000)
   * @param lease how long the claims last (positive, at most 365 days)
   * @return the claims, of kind {@link WorkClaim.Kind#DIRTY_TOPIC}, ordered by scope then topic
   * @throws NullPointerException when an argument is null
   * @throws dev.engram.InvalidInputException naming the argument that is out of range
   * @throws dev.engram.CapabilityNotSupportedException when the store does not declare {@code WORK_CLAIMS}
   * @throws dev.engram.StoreException when the store fails
   */
  default java.util.List<WorkClaim> claimDirtyTopics(
      String workerId, Collection<String> scopes, int limit, java.time.Duration lease) {
    throw new dev.engram.CapabilityNotSupportedException(getClass().getSimpleName() + " does not declare WORK_CLAIMS");
  }

  /**
   * Claims, as {@link #claimDirtyTopics} does, up to {@code limit} of exactly {@code scopes} whose last
   * captured source position is past their extraction cursor ({@link SourceState#pending()}), ordered by
   * scope. The claim only spreads work: a flush commit still checks the cursor, so a window is never
   * committed twice, also by a worker whose lease ran out. Stores declaring
   * {@link StoreCapability#WORK_CLAIMS} (and {@link StoreCapability#SOURCES}) implement it; the default
   * refuses.
   *
   * @param workerId names the claimer (1..256 non-blank characters)
   * @param scopes the scopes to claim in (valid namespaces)
   * @param limit the most scopes claimed (1..10,000)
   * @param lease how long the claims last (positive, at most 365 days)
   * @return the claims, of kind {@link WorkClaim.Kind#PENDING_SOURCES}, ordered by scope
   * @throws NullPointerException when an argument is null
   * @throws dev.engram.InvalidInputException naming the argument that is out of range
   * @throws dev.engram.CapabilityNotSupportedException when the store does not declare {@code WORK_CLAIMS}
   * @throws dev.engram.StoreException when the store fails
   */
  default java.util.List<WorkClaim> claimPendingSources(
      String workerId, Collection<String> scopes, int limit, java.time.Duration lease) {
    throw new dev.engram.CapabilityNotSupportedException(getClass().getSimpleName() + " does not declare WORK_CLAIMS");
  }

  /**
   * Ends a claim this store handed out, so its item is claimable again at once. False when the claim had
   * already ended: released before, or taken over by another claimer after its lease passed (the token no
   * longer matches).
   *
   * @param claim the claim
   * @return true when the claim was held and is now released
   * @throws NullPointerException when {@code claim} is null
   * @throws dev.engram.CapabilityNotSupportedException when the store does not declare {@code WORK_CLAIMS}
   * @throws dev.engram.StoreException when the store fails
   */
  default boolean releaseClaim(WorkClaim claim) {
    throw new dev.engram.CapabilityNotSupportedException(getClass().getSimpleName() + " does not declare WORK_CLAIMS");
  }

  /** Releases resources the store owns (pools it created, files). Idempotent. */
  @Override
  void close();

  /**
   * A unit of work run inside {@link #inTransaction}.
   *
   * @param <T> what the work returns
   */
  @FunctionalInterface
  interface StoreWork<T> {
    /**
     * Does the work.
     *
     * @param tx the transaction
     * @return the result handed back by {@link #inTransaction}
     */
    T run(StoreTransaction tx);
  }
}
