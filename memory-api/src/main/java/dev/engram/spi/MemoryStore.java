/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.spi;

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
   * @param <T> what the work returns
   * @param scope the scope whose head the transaction holds
   * @param work the work
   * @return what the work returned
   * @throws dev.engram.StoreException when the store fails
   */
  <T> T inTransaction(String scope, StoreWork<T> work);

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
