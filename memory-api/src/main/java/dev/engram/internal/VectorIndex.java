/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.internal;

import dev.engram.Change;
import dev.engram.ChangeKind;
import dev.engram.EntryStatus;
import dev.engram.EntryType;
import dev.engram.MemoryEntry;
import dev.engram.Revision;
import dev.engram.VectorCacheStats;
import dev.engram.spi.FullTextQuery;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.StoredVector;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.jspecify.annotations.Nullable;

/**
 * Cosine search over the vectors of the active versions of each scope, served from blocks cached in
 * process. This class keeps the blocks fresh and runs a search; the parts it composes each do one job:
 * {@link VectorBlock} (row layout), {@link VectorBlockCache} (the bounded cache), {@link OneBit} (the
 * one-bit quantizer), {@link ScanSlices} (the slice scheduler), {@link TopK} (the best versions) and
 * {@link DotKernels} (the multiply-adds).
 *
 * <p><b>Freshness.</b> A block is keyed by the scope's revision, the embedding profile and the store's
 * {@linkplain dev.engram.spi.StoreReader#vectorEpoch() vector epoch}. When the scope moved on by a few
 * revisions, the block is updated from their change sets (the changed versions and their vectors are
 * read, nothing else); a moved epoch (vectors stored by a reindex, in any process) or a long gap
 * reloads the block.
 *
 * <p><b>Memory.</b> Blocks live in a least-recently-used cache bounded by an estimate of their bytes
 * (vectors, their one-bit copy, row bookkeeping and the versions' text); a block larger than the bound
 * is used by the search that loaded it and not kept.
 *
 * <p><b>Scan.</b> Searches over at least {@value #QUANTIZED_MIN_ROWS} rows first rank every version by
 * the Hamming distance of its one-bit copy to the query's ({@link OneBit}), then rescore the best
 * candidates exactly in float, with the same sums as the exact scan, so a version scores the same either
 * way; smaller searches, and every search with quantization turned off, score the floats only (the
 * reference). Large scans, and the rescoring after a split one-bit pass, are split into slices; the caller
 * takes slices itself, so a busy or refusing executor slows a search down but never stalls it.
 */
final class VectorIndex {
  /** Default bound of the block cache, in estimated bytes. */
  static final long DEFAULT_CACHE_BYTES = dev.engram.EngramBuilder.DEFAULT_VECTOR_CACHE_BYTES;
  /** Searches over fewer rows than this scan the float vectors only. */
  static final int QUANTIZED_MIN_ROWS = 4096;
  /** More revisions behind than this, a block is reloaded instead of updated. */
  static final int MAX_UPDATE_REVISIONS = 256;

  private final MemoryStore store;
  private final VectorBlockCache cache;
  private final Executor executor;
  private final @Nullable ExecutorService owned;
  private final int threads;
  private final boolean quantized;
  private final AtomicLong invalidations = new AtomicLong();
  /** Blocks of sparse profiles found empty, by cache key: not cached, since they hold nothing. */
  private final Map<String, VectorBlock> empty = new java.util.concurrent.ConcurrentHashMap<>();
  /** The most empty-block marks kept before they are dropped all at once. */
  static final int MAX_EMPTY_MARKS = 100_000;

  VectorIndex(MemoryStore store) {
    this(store, DEFAULT_CACHE_BYTES, null, true);
  }

  /**
   * @param cacheBytes the bound of the block cache
   * @param executor where slices of large scans run; null: a pool of daemon threads
   *     ({@code engram-vector-scan-N}) this index owns and {@link #close()} stops
   * @param quantized whether large searches rank by one-bit copies before rescoring exactly
   */
  VectorIndex(MemoryStore store, long cacheBytes, @Nullable Executor executor, boolean quantized) {
    this.store = store;
    this.cache = new VectorBlockCache(cacheBytes);
    int cores = Runtime.getRuntime().availableProcessors();
    this.threads = Math.max(1, cores);
    if (executor == null) {
      int helpers = Math.max(1, cores - 1);
      ThreadPoolExecutor pool = new ThreadPoolExecutor(helpers, helpers, 30, TimeUnit.SECONDS,
          new LinkedBlockingQueue<>(4 * helpers), Embeddings.daemonThreads("engram-vector-scan-"),
          new ThreadPoolExecutor.AbortPolicy());
      pool.allowCoreThreadTimeOut(true);
      this.owned = pool;
      this.executor = pool;
    } else {
      this.owned = null;
      this.executor = executor;
    }
    this.quantized = quantized;
  }

  /** Stops the executor this index created (never one it was given). */
  void close() {
    if (owned != null) {
      owned.shutdownNow();
    }
  }

  VectorCacheStats stats() {
    return cache.stats();
  }

  record Scored(MemoryEntry entry, float cosine) {}

  /** The current block of {@code scope}, at the store's vector epoch {@code epoch} (read before this call). */
  VectorBlock block(String scope, String profileId, int dim, long epoch) {
    long head = store.headRevision(scope);
    long seen = invalidations.get();
    String key = cacheKey(scope, profileId);
    boolean sparse = profileId.endsWith(Embeddings.KEY_PROFILE_SUFFIX);
    if (sparse) {
      VectorBlock none = empty.get(key);
      if (none != null && none.revision == head && none.epoch == epoch && none.dim == dim) {
        return none;
      }
    }
    VectorBlock b = cache.get(key);
    if (b != null && b.profileId.equals(profileId) && b.dim == dim && b.epoch == epoch) {
      if (b.revision == head) {
        cache.hit();
        return b;
      }
      if (head > b.revision && head - b.revision <= MAX_UPDATE_REVISIONS) {
        VectorBlock u = update(b, head);
        if (u != null) {
          cache.updated();
          return keep(key, u, seen);
        }
      }
    }
    cache.loaded();
    VectorBlock loaded = load(scope, head, epoch, profileId, dim);
    if (sparse && loaded.entryCount == 0) {
      // most scopes have no retrieval keys: remember that without holding a cache slot
      if (empty.size() >= MAX_EMPTY_MARKS) {
        empty.clear();
      }
      empty.put(key, loaded);
      cache.remove(key);
      return loaded;
    }
    empty.remove(key);
    return keep(key, loaded, seen);
  }

  /**
   * The cache key of a scope's block under one profile: a scope has a block per profile it is searched
   * with (the embedder's, and the one of its retrieval keys).
   */
  private static String cacheKey(String scope, String profileId) {
    return scope + '\u0000' + profileId;
  }

  private VectorBlock keep(String key, VectorBlock b, long seen) {
    cache.put(key, b);
    if (invalidations.get() != seen) {
      cache.remove(key, b);
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
    cache.removeScope(scope + '\u0000');
    empty.keySet().removeIf(k -> k.startsWith(scope + '\u0000'));
  }

  /**
   * Loads the block of {@code scope} under {@code profileId}. A sparse profile (the one of retrieval keys,
   * which only some versions have) holds only the versions with vectors, and a scope without any is loaded
   * without reading its versions.
   */
  private VectorBlock load(String scope, long head, long epoch, String profileId, int dim) {
    boolean sparse = profileId.endsWith(Embeddings.KEY_PROFILE_SUFFIX);
    Map<String, List<float[]>> byVersion = new HashMap<>();
    for (StoredVector v : store.activeVectors(scope, profileId)) {
      if (v.vector().length == dim) {
        byVersion.computeIfAbsent(v.versionId(), x -> new ArrayList<>(4)).add(v.vector());
      }
    }
    List<MemoryEntry> active = sparse && byVersion.isEmpty() ? List.of()
        : store.versionsIn(List.of(scope), EnumSet.of(EntryStatus.ACTIVE));
    if (sparse) {
      active = active.stream().filter(e -> byVersion.containsKey(e.versionId())).toList();
    }
    int rows = 0;
    List<List<float[]>> ordered = new ArrayList<>(active.size());
    for (MemoryEntry e : active) {
      List<float[]> vs = byVersion.getOrDefault(e.versionId(), List.of());
      rows += vs.size();
      ordered.add(vs);
    }
    VectorBlock.Backing k = new VectorBlock.Backing(profileId, dim, active.size() + active.size() / 8, rows + rows / 8,
        OneBit.mean(ordered, dim));
    for (MemoryEntry e : active) {
      k.append(e, byVersion.getOrDefault(e.versionId(), List.of()));
    }
    synchronized (k) {
      return k.publish(scope, head, epoch);
    }
  }

  /**
   * {@code b} moved to the scope's revision {@code head} by the change sets in between, or null when
   * a reload is the better way (too many changes, or a newer block of the scope was made meanwhile).
   */
  private @Nullable VectorBlock update(VectorBlock b, long head) {
    List<Revision> revisions = store.revisions(b.scope, b.revision, (int) (head - b.revision));
    if (revisions.isEmpty()) {
      return null;
    }
    long to = revisions.get(revisions.size() - 1).revision();
    Set<String> versionIds = new LinkedHashSet<>();
    Set<String> erased = new LinkedHashSet<>();
    for (Revision r : revisions) {
      for (Change c : r.changes()) {
        if (c.versionId() != null) {
          versionIds.add(c.versionId());
        } else if (c.kind() == ChangeKind.DELETE) {
          erased.add(c.entryId());
        }
      }
    }
    if (versionIds.size() + erased.size() > Math.max(64, b.live / 4)) {
      return null;
    }
    // The current state of each changed version; a version changed again after `to` is fixed up by the
    // next update, whose change set names it too.
    Map<String, MemoryEntry> active = new LinkedHashMap<>();
    for (String id : versionIds) {
      store.version(id).filter(v -> v.scope().equals(b.scope) && v.status() == EntryStatus.ACTIVE)
          .ifPresent(v -> active.put(id, v));
    }
    Map<String, List<float[]>> vectors = new HashMap<>();
    if (!active.isEmpty()) {
      for (StoredVector v : store.vectorsOf(b.scope, b.profileId, active.keySet())) {
        if (v.vector().length == b.dim) {
          vectors.computeIfAbsent(v.versionId(), x -> new ArrayList<>(4)).add(v.vector());
        }
      }
    }
    VectorBlock.Backing k = b.backing;
    synchronized (k) {
      if (k.latest != b) {
        VectorBlock newest = k.latest;
        return newest != null && newest.revision >= to && newest.epoch == b.epoch ? newest : null;
      }
      for (String entryId : erased) {
        Integer idx = k.byEntry.get(entryId);
        if (idx != null) {
          k.kill(idx);
        }
      }
      for (String id : versionIds) {
        Integer idx = k.byVersion.get(id);
        MemoryEntry now = active.get(id);
        if (idx != null && now == null) {
          k.kill(idx);
        } else if (idx == null && now != null) {
          Integer other = k.byEntry.get(now.entryId());
          if (other != null) {
            k.kill(other);
          }
          List<float[]> vs = vectors.getOrDefault(id, List.of());
          if (!vs.isEmpty() || !k.profileId.endsWith(Embeddings.KEY_PROFILE_SUFFIX)) {
            k.append(now, vs);
          }
        }
      }
      VectorBlock.Backing target = k.wasteful() ? k.compacted() : k;
      synchronized (target) {
        return target.publish(b.scope, to, b.epoch);
      }
    }
  }

  // ---- scanning

  /** The best {@code depth} versions over {@code blocks} with cosine at or above {@code floor}, best first. */
  List<Scored> search(Collection<VectorBlock> blocks, float[] q, float floor, int depth, Filter filter) {
    return search(blocks, q, floor, depth, filter, executor, threads, quantized);
  }

  /**
   * What a scan admits besides the cosine floor: versions carrying one of {@code topics} (empty = any),
   * of one of {@code types} (empty = any), and, when either bound is given, with an
   * {@link MemoryEntry#occurredAt()} in {@code [from, to)} ({@link FullTextQuery#occurredIn}). The scan
   * applies it to each version before that version can take a place among the best {@code depth}, so a
   * narrow filter still yields its best versions.
   */
  record Filter(Set<String> topics, Set<EntryType> types, @Nullable Instant from, @Nullable Instant to) {
    static final Filter NONE = new Filter(Set.of(), Set.of(), null, null);

    Filter {
      topics = Set.copyOf(topics);
      types = Set.copyOf(types);
    }

    static Filter of(Set<String> topics, Set<EntryType> types) {
      return new Filter(topics, types, null, null);
    }

    boolean isEmpty() {
      return topics.isEmpty() && types.isEmpty() && from == null && to == null;
    }

    boolean admits(MemoryEntry entry) {
      if (!topics.isEmpty() && entry.topics().stream().noneMatch(topics::contains)) {
        return false;
      }
      return (types.isEmpty() || types.contains(entry.type())) && FullTextQuery.occurredIn(entry.occurredAt(), from, to);
    }
  }

  /**
   * How a search over some blocks runs: with the one-bit first pass or exact only, in how many slices,
   * over how many rows. {@link #plan} decides it; the search follows it.
   */
  record Plan(boolean oneBit, int parts, long rows) {}

  /**
   * The plan of a search over {@code blocks} with at most {@code threads} threads: the one-bit pass when
   * {@code quantized} and the blocks hold at least {@value #QUANTIZED_MIN_ROWS} rows, else exact; the
   * slices by the work ({@link ScanSlices#parts}).
   */
  static Plan plan(Collection<VectorBlock> blocks, int threads, boolean quantized) {
    long rows = 0;
    long work = 0;
    for (VectorBlock b : blocks) {
      rows += b.rows;
      work += (long) b.rows * b.dim;
    }
    boolean oneBit = quantized && rows >= QUANTIZED_MIN_ROWS;
    return new Plan(oneBit, ScanSlices.parts(work, threads, oneBit), rows);
  }

  /**
   * The best {@code depth} versions over {@code blocks} with cosine at or above {@code floor}, best
   * first, as {@link #plan} decides for {@code threads} and {@code quantized}. The result does not
   * depend on the split.
   */
  static List<Scored> search(Collection<VectorBlock> blocks, float[] q, float floor, int depth, Filter filter,
      Executor executor, int threads, boolean quantized) {
    return search(blocks, plan(blocks, threads, quantized), q, floor, depth, filter, executor);
  }

  /**
   * {@link #search} following {@code plan}: with the one-bit first pass, its candidates rescored exactly
   * in shares on the slices' threads; otherwise every row of every slice scored exactly.
   */
  static List<Scored> search(Collection<VectorBlock> blocks, Plan plan, float[] q, float floor, int depth,
      Filter filter, Executor executor) {
    List<List<ScanSlices.Segment>> slices = ScanSlices.partition(blocks, plan.parts());
    PriorityQueue<TopK.Candidate> top;
    if (plan.oneBit()) {
      int keep = OneBit.candidates(plan.rows(), depth);
      // the candidates' rows are read at random, so threads rescoring shares of them fetch more at once
      List<List<TopK.Candidate>> shares =
          ScanSlices.shares(OneBit.pass(slices, q, keep, filter, executor), slices.size());
      List<float[]> scores = ScanSlices.run(shares, executor, share -> DotKernels.rescore(share, q));
      top = TopK.heap(depth);
      for (int s = 0; s < shares.size(); s++) {
        List<TopK.Candidate> share = shares.get(s);
        float[] best = scores.get(s);
        for (int i = 0; i < best.length; i++) {
          if (best[i] >= floor) {
            TopK.Candidate c = share.get(i);
            TopK.offer(top, new TopK.Candidate(c.block(), c.entry(), best[i]), depth);
          }
        }
      }
    } else {
      List<PriorityQueue<TopK.Candidate>> found =
          ScanSlices.run(slices, executor, slice -> scan(slice, q, floor, depth, filter));
      top = TopK.heap(depth);
      for (PriorityQueue<TopK.Candidate> part : found) {
        for (TopK.Candidate c : part) {
          TopK.offer(top, c, depth);
        }
      }
    }
    List<Scored> out = new ArrayList<>(top.size());
    for (TopK.Candidate c : TopK.bestFirst(top)) {
      out.add(new Scored(c.block().entries[c.entry()], c.score()));
    }
    return out;
  }

  /** The best {@code depth} versions of one slice by exact cosine, worst at the head. */
  private static PriorityQueue<TopK.Candidate> scan(
      List<ScanSlices.Segment> slice, float[] q, float floor, int depth, Filter filter) {
    PriorityQueue<TopK.Candidate> top = TopK.heap(depth);
    for (ScanSlices.Segment seg : slice) {
      VectorBlock b = seg.block();
      int r = seg.from();
      int rows = seg.to();
      while (r < rows) {
        int e = b.rowEntry[r];
        if (b.isDead(e)) {
          r += b.rowCount[e];
          continue;
        }
        float best = -2;
        while (r < rows && b.rowEntry[r] == e) {
          float s = DotKernels.dot(q, b.data, r * b.dim, b.dim);
          if (s > best) {
            best = s;
          }
          r++;
        }
        if (best < floor || top.size() >= depth && best < top.peek().score()) {
          continue;
        }
        if (filter.admits(b.entries[e])) {
          TopK.offer(top, new TopK.Candidate(b, e, best), depth);
        }
      }
    }
    return top;
  }
}
