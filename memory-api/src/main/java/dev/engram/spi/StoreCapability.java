/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.spi;

/** Optional abilities a store declares; the engine checks them instead of catching surprises. */
public enum StoreCapability {
  /** Data survives a restart of the process. */
  DURABLE,
  /** Several processes may share the data at once. */
  MULTI_PROCESS,
  /** Full-text search over content, glossary, disclosure and topics. */
  FULL_TEXT_SEARCH,
  /** Embedding vectors persisted per version. */
  VECTOR_STORAGE,
  /** Captured source records, their per-scope order and the extraction cursor. */
  SOURCES,
  /**
   * Retrieval keys: extra texts of a version (such as a conversation turn together with the turn before
   * it) kept with the version and searched by full text as an arm of their own
   * ({@link StoreTransaction#putKeys}, {@link StoreReader#keysOf}, {@link StoreReader#searchKeys}).
   */
  RETRIEVAL_KEYS,
  /**
   * Experience and the review inbox: experience versions searched by full text of their own
   * ({@link StoreTransaction#insertExperience}, {@link StoreReader#experienceVersions},
   * {@link StoreReader#searchExperience}), review items ({@link StoreTransaction#putReviewItem},
   * {@link StoreReader#reviewItems}) and, in stores with {@link #SOURCES}, the incubation cursor
   * ({@link StoreTransaction#advanceIncubationCursor}). All of it is erased with its scope.
   */
  REVIEW,
  /**
   * Leased work claims shared by every process using the store: dirty (scope, topic) pairs
   * ({@link MemoryStore#claimDirtyTopics}) and scopes with captured sources after their cursor
   * ({@link MemoryStore#claimPendingSources}), so that maintenance runners in several processes curate and
   * flush disjoint work. While a claim's lease runs no other claimer gets the same item; once it has passed
   * (or the claim was released, {@link MemoryStore#releaseClaim}) the item is claimable again.
   */
  WORK_CLAIMS,

  /**
   * Replacing a scope inside one transaction ({@link StoreTransaction#eraseScope}): everything the scope
   * holds, its revision log and head included, is erased in the transaction that then writes the scope
   * anew, so a restore ({@link dev.engram.ImportMode#REPLACE}) that fails leaves the old scope intact.
   */
  REPLACE_SCOPE,

  /**
   * Model usage: per scope, day (UTC), provider, model and reasoner job, counters of model calls, input
   * and output tokens and failed calls ({@link StoreTransaction#addModelUsage},
   * {@link StoreReader#modelUsage}). Erased with its scope ({@link StoreTransaction#eraseScopeContent}).
   */
  MODEL_USAGE
}
