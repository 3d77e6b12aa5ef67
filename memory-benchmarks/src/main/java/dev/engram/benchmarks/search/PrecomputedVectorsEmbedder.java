/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.benchmarks.search;

import dev.engram.spi.Embedder;
import dev.engram.spi.EmbeddingProfile;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * Benchmark-only embedder: returns vectors computed ahead of time, looked up by text, so the engine
 * stores exactly the vectors the baseline store gets, through its normal write path. Texts without a
 * precomputed vector go to {@code fallback} (the real model, for live query embedding) or fail when
 * there is none. Not for production use: it knows only the texts it was given.
 */
final class PrecomputedVectorsEmbedder implements Embedder {
  private final EmbeddingProfile profile;
  private final Map<String, float[]> vectors = new ConcurrentHashMap<>();
  private final @Nullable Embedder fallback;
  private final AtomicLong served = new AtomicLong();
  private final AtomicLong delegated = new AtomicLong();

  PrecomputedVectorsEmbedder(EmbeddingProfile profile, @Nullable Embedder fallback) {
    this.profile = profile;
    this.fallback = fallback;
    if (fallback != null && !fallback.profile().equals(profile)) {
      throw new IllegalArgumentException("fallback profile " + fallback.profile() + " differs from " + profile);
    }
  }

  /** Registers the vector returned for {@code text}. */
  void put(String text, float[] vector) {
    if (vector.length != profile.dimension()) {
      throw new IllegalArgumentException("vector of " + vector.length + " values, expected " + profile.dimension());
    }
    vectors.put(text, vector);
  }

  @Override
  public EmbeddingProfile profile() {
    return profile;
  }

  @Override
  public List<float[]> embed(List<String> texts) {
    List<float[]> out = new ArrayList<>(texts.size());
    List<String> unknown = new ArrayList<>();
    for (String t : texts) {
      float[] v = vectors.get(t);
      out.add(v);
      if (v == null) {
        unknown.add(t);
      }
    }
    served.addAndGet(texts.size() - unknown.size());
    if (unknown.isEmpty()) {
      return out;
    }
    if (fallback == null) {
      throw new IllegalStateException("no precomputed vector for '" + unknown.get(0) + "'");
    }
    List<float[]> fresh = fallback.embed(unknown);
    delegated.addAndGet(unknown.size());
    int j = 0;
    for (int i = 0; i < out.size(); i++) {
      if (out.get(i) == null) {
        out.set(i, fresh.get(j++));
      }
    }
    return out;
  }

  /** Texts answered from the precomputed vectors. */
  long served() {
    return served.get();
  }

  /** Texts embedded by the fallback model. */
  long delegated() {
    return delegated.get();
  }
}
