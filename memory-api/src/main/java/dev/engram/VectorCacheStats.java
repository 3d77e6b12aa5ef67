/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

/**
 * Counters of an engine's vector block cache (one block per searched scope), since the engine was built.
 * A search asks the cache once per scope it searches; the block it gets was either current
 * ({@code hits}), brought up to date from the revisions written since ({@code updates}, reading only
 * the changed versions), or read whole from the store ({@code loads}).
 *
 * @param hits requests answered by a current block
 * @param updates requests answered by a block updated from the change sets since it was cached
 * @param loads requests that read the scope's vectors from the store
 * @param evictions blocks dropped to stay within {@code maxBytes}
 * @param blocks blocks held now
 * @param bytes the estimated size of the blocks held now (vectors, their one-bit copy, bookkeeping, text)
 * @param maxBytes the bound on {@code bytes} ({@link EngramBuilder#vectorCacheBytes(long)})
 */
public record VectorCacheStats(
    long hits, long updates, long loads, long evictions, int blocks, long bytes, long maxBytes) {

  /**
   * @return the share of requests served without reading the whole scope from the store
   *     ({@code (hits + updates) / requests}), 0 before the first request
   */
  public double hitRate() {
    long requests = hits + updates + loads;
    return requests == 0 ? 0 : (double) (hits + updates) / requests;
  }
}
