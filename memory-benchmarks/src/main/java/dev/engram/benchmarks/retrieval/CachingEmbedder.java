/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.benchmarks.retrieval;

import dev.engram.spi.Embedder;
import dev.engram.spi.EmbeddingProfile;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Function;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * An embedder that remembers the vector of every text it has seen, optionally across runs in a file.
 * The delegate is created on the first text that is not cached, so a fully cached run never loads the
 * model. Vectors depend only on the text, so cached and fresh runs rank identically.
 */
final class CachingEmbedder implements Embedder {
  private static final int MAGIC = 0x454d4231;
  /** Longer texts may not fit {@link DataOutputStream#writeUTF}; they are embedded again next run. */
  private static final int MAX_SAVED_CHARS = 20_000;
  /** Cache keys of query vectors start with this (no stored text starts with a NUL). */
  private static final String QUERY_KEY = "\u0000query\u0000";

  private final EmbeddingProfile profile;
  private final Supplier<Embedder> factory;
  private final Map<String, float[]> cache = new ConcurrentHashMap<>();
  private final AtomicLong computed = new AtomicLong();
  private volatile @Nullable Embedder delegate;

  CachingEmbedder(EmbeddingProfile profile, Supplier<Embedder> factory) {
    this.profile = profile;
    this.factory = factory;
  }

  @Override
  public EmbeddingProfile profile() {
    return profile;
  }

  @Override
  public List<float[]> embed(List<String> texts) {
    return cached(texts, "", missing -> delegate().embed(missing));
  }

  /** Queries are cached apart from stored texts: an asymmetric model embeds the two differently. */
  @Override
  public List<float[]> embedQueries(List<String> queries) {
    return cached(queries, QUERY_KEY, missing -> delegate().embedQueries(missing));
  }

  private List<float[]> cached(List<String> texts, String keyPrefix, Function<List<String>, List<float[]>> model) {
    if (!keyPrefix.isEmpty()) {
      List<String> keys = new ArrayList<>(texts.size());
      for (String t : texts) {
        keys.add(keyPrefix + t);
      }
      Map<String, String> original = new HashMap<>();
      for (int i = 0; i < texts.size(); i++) {
        original.put(keys.get(i), texts.get(i));
      }
      return cached(keys, "", missing -> model.apply(missing.stream().map(original::get).toList()));
    }
    List<float[]> out = new ArrayList<>(texts.size());
    List<String> missing = new ArrayList<>();
    for (String t : texts) {
      float[] v = cache.get(t);
      out.add(v);
      if (v == null) {
        missing.add(t);
      }
    }
    if (missing.isEmpty()) {
      return out;
    }
    List<float[]> fresh = model.apply(missing);
    computed.addAndGet(missing.size());
    for (int i = 0; i < missing.size(); i++) {
      cache.put(missing.get(i), fresh.get(i));
    }
    for (int i = 0; i < texts.size(); i++) {
      if (out.get(i) == null) {
        out.set(i, cache.get(texts.get(i)));
      }
    }
    return out;
  }

  /** How many texts were embedded by the model (not served from the cache). */
  long computed() {
    return computed.get();
  }

  private Embedder delegate() {
    Embedder d = delegate;
    if (d == null) {
      synchronized (this) {
        d = delegate;
        if (d == null) {
          d = factory.get();
          delegate = d;
        }
      }
    }
    return d;
  }

  /** Loads vectors saved by {@link #save}; a missing file or one of another profile loads nothing. */
  int load(Path file) throws IOException {
    if (!Files.exists(file)) {
      return 0;
    }
    int n = 0;
    try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file), 1 << 16))) {
      if (in.readInt() != MAGIC || !in.readUTF().equals(profile.id())) {
        return 0;
      }
      int dim = profile.dimension();
      while (true) {
        String text;
        try {
          text = in.readUTF();
        } catch (EOFException e) {
          break;
        }
        float[] v = new float[dim];
        for (int i = 0; i < dim; i++) {
          v[i] = in.readFloat();
        }
        cache.put(text, v);
        n++;
      }
    }
    return n;
  }

  void save(Path file) throws IOException {
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    try (DataOutputStream out = new DataOutputStream(new BufferedOutputStream(Files.newOutputStream(tmp), 1 << 16))) {
      out.writeInt(MAGIC);
      out.writeUTF(profile.id());
      for (Map.Entry<String, float[]> e : cache.entrySet()) {
        if (e.getKey().length() > MAX_SAVED_CHARS) {
          continue;
        }
        out.writeUTF(e.getKey());
        for (float f : e.getValue()) {
          out.writeFloat(f);
        }
      }
    }
    Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
  }
}
