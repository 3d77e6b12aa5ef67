/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.test;

import dev.engram.spi.Embedder;
import dev.engram.spi.EmbeddingProfile;
import dev.engram.spi.FullTextQuery;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A small deterministic embedder for tests: the non-stopword tokens of a text (their first four letters)
 * hashed into {@code dimension} signed buckets. Texts sharing words get a high cosine, unrelated texts a low
 * one, the same on every run and machine, with no model to load. It can be told to fail or to stall, to
 * exercise fallbacks. Thread-safe.
 */
public final class HashingEmbedder implements Embedder {
  private final EmbeddingProfile profile;
  private final AtomicBoolean failing = new AtomicBoolean();
  private volatile long stallMillis;
  private final AtomicInteger calls = new AtomicInteger();

  /** An embedder with model id {@code tck-hashing} and 64 buckets. */
  public HashingEmbedder() {
    this("tck-hashing", 64);
  }

  /**
   * An embedder with its own profile, e.g. to stand for another model.
   *
   * @param modelId the profile's model id
   * @param dimension the number of buckets, 1..8,192
   * @throws NullPointerException if {@code modelId} is null
   * @throws dev.engram.InvalidInputException if the profile is invalid (see {@link EmbeddingProfile})
   */
  public HashingEmbedder(String modelId, int dimension) {
    this.profile = new EmbeddingProfile(modelId, dimension);
  }

  /**
   * From now on every call throws an {@link IllegalStateException} (true) or works again (false).
   *
   * @param fail whether calls fail
   * @return this embedder
   */
  public HashingEmbedder failing(boolean fail) {
    failing.set(fail);
    return this;
  }

  /**
   * Every call sleeps this long first (an interrupt ends the sleep early).
   *
   * @param millis the pause in milliseconds; 0 or less: none
   * @return this embedder
   */
  public HashingEmbedder stalling(long millis) {
    stallMillis = millis;
    return this;
  }

  /** @return how many {@code embed} calls were made so far, failed and stalled ones included */
  public int calls() {
    return calls.get();
  }

  @Override
  public EmbeddingProfile profile() {
    return profile;
  }

  @Override
  public List<float[]> embed(List<String> texts) {
    calls.incrementAndGet();
    if (stallMillis > 0) {
      try {
        Thread.sleep(stallMillis);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    if (failing.get()) {
      throw new IllegalStateException("embedding service unavailable");
    }
    List<float[]> out = new ArrayList<>(texts.size());
    for (String text : texts) {
      float[] v = new float[profile.dimension()];
      for (String token : FullTextQuery.terms(text)) {
        String stem = token.length() > 4 ? token.substring(0, 4) : token;
        int h = stem.hashCode() * 0x9E3779B9;
        v[Math.floorMod(h, v.length)] += (h & 0x10000) == 0 ? 1f : -1f;
      }
      if (allZero(v)) {
        v[0] = 1f;
      }
      out.add(v);
    }
    return out;
  }

  private static boolean allZero(float[] v) {
    for (float f : v) {
      if (f != 0) {
        return false;
      }
    }
    return true;
  }
}
