/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.internal;

import dev.engram.VectorCacheStats;
import java.util.LinkedHashMap;
import org.jspecify.annotations.Nullable;

/** Blocks by scope and profile, least recently used first, bounded by their estimated bytes. */
final class VectorBlockCache {
  private final long maxBytes;
  private final LinkedHashMap<String, VectorBlock> blocks = new LinkedHashMap<>(16, 0.75f, true);
  private long bytes;
  private long hits;
  private long updates;
  private long loads;
  private long evictions;

  VectorBlockCache(long maxBytes) {
    this.maxBytes = maxBytes;
  }

  synchronized @Nullable VectorBlock get(String scope) {
    return blocks.get(scope);
  }

  synchronized void hit() {
    hits++;
  }

  synchronized void updated() {
    updates++;
  }

  synchronized void loaded() {
    loads++;
  }

  synchronized void put(String scope, VectorBlock b) {
    VectorBlock old = blocks.remove(scope);
    if (old != null) {
      bytes -= old.bytes;
    }
    if (b.bytes > maxBytes) {
      return;
    }
    blocks.put(scope, b);
    bytes += b.bytes;
    var it = blocks.entrySet().iterator();
    while (bytes > maxBytes && it.hasNext()) {
      VectorBlock eldest = it.next().getValue();
      it.remove();
      bytes -= eldest.bytes;
      evictions++;
    }
  }

  synchronized void remove(String scope) {
    VectorBlock old = blocks.remove(scope);
    if (old != null) {
      bytes -= old.bytes;
    }
  }

  synchronized void remove(String scope, VectorBlock b) {
    if (blocks.get(scope) == b) {
      remove(scope);
    }
  }

  /** Removes every block whose key starts with {@code prefix} (a scope's blocks under all profiles). */
  synchronized void removeScope(String prefix) {
    var it = blocks.entrySet().iterator();
    while (it.hasNext()) {
      var e = it.next();
      if (e.getKey().startsWith(prefix)) {
        bytes -= e.getValue().bytes;
        it.remove();
      }
    }
  }

  synchronized VectorCacheStats stats() {
    return new VectorCacheStats(hits, updates, loads, evictions, blocks.size(), bytes, maxBytes);
  }
}
