/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.internal;

import dev.engram.spi.EntryViews;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.Reasoner;
import dev.engram.spi.StoreCapability;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Write-time embedding: the vectors (and retrieval keys) a version about to be committed gets, made
 * before its transaction. Writes, corrections, edits, extraction and the commit path ask here; none of
 * them needs search. Whether vectors are made at all depends on the wiring: an embedder is configured and
 * the store keeps vectors ({@link StoreCapability#VECTOR_STORAGE}); retrieval keys are kept when the store
 * declares {@link StoreCapability#RETRIEVAL_KEYS}, with or without vectors.
 */
final class WriteVectors {
  private final MemoryStore store;
  private final Reasoner reasoner;
  private final @Nullable Embeddings embeddings;
  private final ModelUsageMeter meter;

  WriteVectors(MemoryStore store, Reasoner reasoner, @Nullable Embeddings embeddings, ModelUsageMeter meter) {
    this.store = store;
    this.reasoner = reasoner;
    this.embeddings = embeddings;
    this.meter = meter;
  }

  /** Whether writes get vectors: an embedder is configured and the store keeps vectors. */
  boolean embedsOnWrite() {
    return embeddings != null && store.capabilities().contains(StoreCapability.VECTOR_STORAGE);
  }

  /** The embedder's profile id, or null when no embedder is configured. */
  @Nullable String profileId() {
    return embeddings == null ? null : embeddings.profile().id();
  }

  /** Whether the store keeps retrieval keys ({@link StoreCapability#RETRIEVAL_KEYS}). */
  boolean keepsKeys() {
    return store.capabilities().contains(StoreCapability.RETRIEVAL_KEYS);
  }

  /** Vectors for a version about to be written, when the wiring can store them; null otherwise or on failure. */
  Embeddings.@Nullable PendingVectors pendingFor(
      String scope, String content, @Nullable String disclosure, List<String> glossary, @Nullable String path) {
    return pendingFor(scope, content, disclosure, glossary, path, null);
  }

  /**
   * As {@link #pendingFor(String, String, String, List, String)} for a version of {@code scope} (the
   * scope a views call of the reasoner is counted for), with views the reasoner already wrote
   * (with its tag answer); when they are null or invalid, the reasoner's views step or the rules
   * make them.
   */
  Embeddings.@Nullable PendingVectors pendingFor(String scope, String content, @Nullable String disclosure,
      List<String> glossary, @Nullable String path, @Nullable EntryViews written) {
    meter.attribute(scope);
    if (!embedsOnWrite()) {
      List<String> keys = keepsKeys() ? Views.keys(written) : List.of();
      return keys.isEmpty() ? null : Embeddings.PendingVectors.keysOnly(content, disclosure, glossary, path, keys);
    }
    return embeddings.forVersion(reasoner, content, disclosure, glossary, path, keepsKeys() ? written : withoutKeys(written));
  }

  private static @Nullable EntryViews withoutKeys(@Nullable EntryViews views) {
    return views == null || views.keys().isEmpty() ? views : new EntryViews(views.gist(), views.questions());
  }
}
