/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.internal;

import dev.engram.EntryType;
import dev.engram.MemoryEntry;
import dev.engram.EntryStatus;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.StoredVector;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ForkJoinPool;

/**
 * Exact cosine search over the vectors of the active versions of each scope, served from blocks
 * cached in process and keyed by the scope's revision and the embedding profile: a change committed by
 * any process moves the revision, and the next search reloads that scope's block.
 */
final class VectorIndex {
  private final MemoryStore store;
  private final Map<String, Block> blocks = new ConcurrentHashMap<>();
  private final java.util.concurrent.atomic.AtomicLong invalidations = new java.util.concurrent.atomic.AtomicLong();

  VectorIndex(MemoryStore store) {
    this.store = store;
  }

  /** The vectors of one scope at one revision. Rows of one version are contiguous. */
  static final class Block {
    final long revision;
    final String profileId;
    final int dim;
    final MemoryEntry[] entries;
    final int[] rowEntry;
    final float[] data;
    final int missing;

    Block(long revision, String profileId, int dim, MemoryEntry[] entries, int[] rowEntry, float[] data, int missing) {
      this.revision = revision;
      this.profileId = profileId;
      this.dim = dim;
      this.entries = entries;
      this.rowEntry = rowEntry;
      this.data = data;
      this.missing = missing;
    }
  }

  record Scored(MemoryEntry entry, float cosine) {}

  /** The current block of {@code scope}, loaded when the scope moved past the cached revision. */
  Block block(String scope, String profileId, int dim) {
    long head = store.headRevision(scope);
    Block b = blocks.get(scope);
    if (b != null && b.revision == head && b.profileId.equals(profileId)) {
      return b;
    }
    long seen = invalidations.get();
    b = load(scope, head, profileId, dim);
    blocks.put(scope, b);
    if (invalidations.get() != seen) {
      blocks.remove(scope, b);
    }
    return b;
  }

  /**
   * Drops the cached block of {@code scope} (its versions with their content, and their vectors) now,
   * e.g. when the scope's entries are erased. A block a concurrent search loaded before the change is
   * not kept either.
   */
  void invalidate(String scope) {
    invalidations.incrementAndGet();
    blocks.remove(scope);
  }

  private Block load(String scope, long head, String profileId, int dim) {
    List<MemoryEntry> active = store.versionsIn(List.of(scope), EnumSet.of(EntryStatus.ACTIVE));
    Map<String, Integer> index = new HashMap<>(active.size() * 2);
    MemoryEntry[] entries = active.toArray(new MemoryEntry[0]);
    for (int i = 0; i < entries.length; i++) {
      index.put(entries[i].versionId(), i);
    }
    List<StoredVector> vectors = new ArrayList<>(store.activeVectors(scope, profileId));
    vectors.removeIf(v -> v.vector().length != dim || !index.containsKey(v.versionId()));
    vectors.sort((a, c) -> Integer.compare(index.get(a.versionId()), index.get(c.versionId())));
    int[] rowEntry = new int[vectors.size()];
    float[] data = new float[vectors.size() * dim];
    boolean[] covered = new boolean[entries.length];
    for (int r = 0; r < vectors.size(); r++) {
      StoredVector v = vectors.get(r);
      int e = index.get(v.versionId());
      rowEntry[r] = e;
      covered[e] = true;
      System.arraycopy(v.vector(), 0, data, r * dim, dim);
    }
    int missing = 0;
    for (boolean c : covered) {
      if (!c) {
        missing++;
      }
    }
    return new Block(head, profileId, dim, entries, rowEntry, data, missing);
  }

  /**
   * Multiply-adds a parallel slice scores at least: a search smaller than two slices (about 11,000
   * rows of 384 values) runs on the calling thread alone.
   */
  static final long MIN_SLICE_WORK = 1L << 21;

  /**
   * The best {@code depth} versions over {@code blocks} with cosine at or above {@code floor}, best
   * first. Large searches are split into slices scored in parallel on the common fork-join pool (the
   * calling thread takes the first slice); the result does not depend on the split.
   */
  static List<Scored> search(
      Collection<Block> blocks, float[] q, float floor, int depth, Set<String> topics, Set<EntryType> types) {
    int threads = Math.min(Runtime.getRuntime().availableProcessors(), ForkJoinPool.getCommonPoolParallelism() + 1);
    return search(blocks, q, floor, depth, topics, types, threads);
  }

  /** As {@link #search(Collection, float[], float, int, Set, Set)}, in at most {@code threads} slices. */
  static List<Scored> search(
      Collection<Block> blocks, float[] q, float floor, int depth, Set<String> topics, Set<EntryType> types,
      int threads) {
    long work = 0;
    for (Block b : blocks) {
      work += (long) b.rowEntry.length * b.dim;
    }
    int parts = (int) Math.max(1, Math.min(threads, work / MIN_SLICE_WORK));
    List<List<Segment>> slices = partition(blocks, parts);
    List<CompletableFuture<PriorityQueue<Scored>>> others = new ArrayList<>();
    for (int i = 1; i < slices.size(); i++) {
      List<Segment> slice = slices.get(i);
      others.add(CompletableFuture.supplyAsync(
          () -> scan(slice, q, floor, depth, topics, types), ForkJoinPool.commonPool()));
    }
    PriorityQueue<Scored> top = slices.isEmpty()
        ? new PriorityQueue<>(VectorIndex::compare)
        : scan(slices.get(0), q, floor, depth, topics, types);
    for (CompletableFuture<PriorityQueue<Scored>> f : others) {
      PriorityQueue<Scored> part;
      try {
        part = f.join();
      } catch (CompletionException e) {
        if (e.getCause() instanceof RuntimeException r) {
          throw r;
        }
        throw e;
      }
      for (Scored s : part) {
        offer(top, s, depth);
      }
    }
    List<Scored> out = new ArrayList<>(top);
    out.sort((a, b) -> compare(b, a));
    return out;
  }

  /** Rows {@code [from, to)} of a block; never splits the rows of one version. */
  record Segment(Block block, int from, int to) {}

  /** Up to {@code parts} slices of about equal rows, in block order. */
  static List<List<Segment>> partition(Collection<Block> blocks, int parts) {
    long total = 0;
    for (Block b : blocks) {
      total += b.rowEntry.length;
    }
    long target = Math.max(1, (total + parts - 1) / parts);
    List<List<Segment>> out = new ArrayList<>(parts);
    List<Segment> cur = new ArrayList<>();
    long curRows = 0;
    for (Block b : blocks) {
      int rows = b.rowEntry.length;
      int r = 0;
      while (r < rows) {
        long room = out.size() == parts - 1 ? rows - r : target - curRows;
        int end = (int) (r + Math.min(rows - r, room));
        while (end < rows && end > r && b.rowEntry[end] == b.rowEntry[end - 1]) {
          end++;
        }
        cur.add(new Segment(b, r, end));
        curRows += end - r;
        r = end;
        if (curRows >= target && out.size() < parts - 1) {
          out.add(cur);
          cur = new ArrayList<>();
          curRows = 0;
        }
      }
    }
    if (!cur.isEmpty()) {
      out.add(cur);
    }
    return out;
  }

  /** The best {@code depth} versions of one slice, worst at the head. */
  private static PriorityQueue<Scored> scan(
      List<Segment> slice, float[] q, float floor, int depth, Set<String> topics, Set<EntryType> types) {
    PriorityQueue<Scored> top = new PriorityQueue<>(depth + 1, VectorIndex::compare);
    for (Segment seg : slice) {
      Block b = seg.block();
      int r = seg.from();
      int rows = seg.to();
      while (r < rows) {
        int e = b.rowEntry[r];
        float best = -2;
        while (r < rows && b.rowEntry[r] == e) {
          float s = dot(q, b.data, r * b.dim, b.dim);
          if (s > best) {
            best = s;
          }
          r++;
        }
        if (best < floor || top.size() >= depth && best < top.peek().cosine) {
          continue;
        }
        MemoryEntry entry = b.entries[e];
        if (!topics.isEmpty() && entry.topics().stream().noneMatch(topics::contains)) {
          continue;
        }
        if (!types.isEmpty() && !types.contains(entry.type())) {
          continue;
        }
        offer(top, new Scored(entry, best), depth);
      }
    }
    return top;
  }

  private static void offer(PriorityQueue<Scored> top, Scored s, int depth) {
    if (top.size() < depth) {
      top.add(s);
    } else if (compare(s, top.peek()) > 0) {
      top.poll();
      top.add(s);
    }
  }

  /** Ascending: lower cosine first; among equal cosines the older version first. */
  private static int compare(Scored a, Scored b) {
    int c = Float.compare(a.cosine, b.cosine);
    return c != 0 ? c : a.entry.versionId().compareTo(b.entry.versionId());
  }

  /** Dot product of {@code q} with {@code data[off .. off+dim)}, unrolled by eight. */
  static float dot(float[] q, float[] data, int off, int dim) {
    float s0 = 0;
    float s1 = 0;
    float s2 = 0;
    float s3 = 0;
    float s4 = 0;
    float s5 = 0;
    float s6 = 0;
    float s7 = 0;
    int i = 0;
    int end = dim - 7;
    for (; i < end; i += 8) {
      s0 += q[i] * data[off + i];
      s1 += q[i + 1] * data[off + i + 1];
      s2 += q[i + 2] * data[off + i + 2];
      s3 += q[i + 3] * data[off + i + 3];
      s4 += q[i + 4] * data[off + i + 4];
      s5 += q[i + 5] * data[off + i + 5];
      s6 += q[i + 6] * data[off + i + 6];
      s7 += q[i + 7] * data[off + i + 7];
    }
    float s = (s0 + s1) + (s2 + s3) + (s4 + s5) + (s6 + s7);
    for (; i < dim; i++) {
      s += q[i] * data[off + i];
    }
    return s;
  }
}
