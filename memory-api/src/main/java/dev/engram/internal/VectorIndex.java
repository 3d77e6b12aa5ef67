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
import java.util.Arrays;
import java.util.Collection;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.PriorityQueue;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;

/**
 * Cosine search over the vectors of the active versions of each scope, served from blocks cached in
 * process.
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
 * <p><b>Scan.</b> Every row has a float copy (unit vector) and a one-bit copy: the sign of each value
 * after subtracting the block's mean vector (taken when the block is loaded or compacted), so the bits
 * spread over the directions that tell vectors apart. Searches over at least
 * {@value #QUANTIZED_MIN_ROWS} rows first rank every version by the Hamming distance of those bits to
 * the query's (popcounts, a few per row), then rescore the best {@value #CANDIDATE_FACTOR}× depth
 * candidates (at least {@value #MIN_CANDIDATES}, and at least one row in {@value #CANDIDATE_SHARE} of
 * those scanned) exactly in float, with the same sums as the exact scan, so a version scores the same
 * either way; smaller searches, and every search with quantization turned off, score the floats only
 * (the reference). Large scans, and the rescoring after a split one-bit pass, are split into slices;
 * the caller takes slices itself, so a busy or refusing executor slows a search down but never stalls
 * it.
 */
final class VectorIndex {
  /** Default bound of the block cache, in estimated bytes. */
  static final long DEFAULT_CACHE_BYTES = dev.engram.EngramBuilder.DEFAULT_VECTOR_CACHE_BYTES;
  /** Searches over fewer rows than this scan the float vectors only. */
  static final int QUANTIZED_MIN_ROWS = 4096;
  /** How many candidates per wanted result the one-bit pass hands to the exact rescoring. */
  static final int CANDIDATE_FACTOR = 20;
  /** The fewest candidates the one-bit pass hands to the exact rescoring. */
  static final int MIN_CANDIDATES = 400;
  /**
   * The one-bit pass hands at least one row in this many to the exact rescoring. How many of the true
   * nearest rows a Hamming ranking keeps depends on the share of rows rescored, not on their count: with
   * a fixed count, recall falls as a scope grows (at 1,000,000 rows, 2,000 candidates kept 0.973-0.981 of
   * the exact top 10, where at 100,000 they kept 0.997; 10,000 keep 0.998 at 1,000,000 for about 4 % more
   * time).
   */
  static final int CANDIDATE_SHARE = 100;
  /** More revisions behind than this, a block is reloaded instead of updated. */
  static final int MAX_UPDATE_REVISIONS = 256;
  /**
   * Multiply-adds a parallel slice scores at least: a search smaller than two slices (about 11,000
   * rows of 384 values) runs on the calling thread alone.
   */
  static final long MIN_SLICE_WORK = 1L << 21;
  /**
   * How many times the rows of an exact slice a slice of the one-bit pass covers at least. A row's
   * popcounts cost about a tenth of its multiply-adds (8-9 against 127 ns for 384 values on the
   * benchmark machine), so a one-bit slice (at least about 44,000 rows of 384 values, 0.4 ms) still costs
   * less than an exact one (0.7 ms), and a scan of 100,000 rows is split in two.
   */
  static final int ONE_BIT_SLICE_FACTOR = 8;

  private final MemoryStore store;
  private final BlockCache cache;
  private final Executor executor;
  private final @Nullable ExecutorService owned;
  private final int threads;
  private final boolean quantized;
  private final AtomicLong invalidations = new AtomicLong();
  /** Blocks of sparse profiles found empty, by cache key: not cached, since they hold nothing. */
  private final Map<String, Block> empty = new java.util.concurrent.ConcurrentHashMap<>();
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
    this.cache = new BlockCache(cacheBytes);
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

  /**
   * The vectors of one scope at one revision and epoch: an immutable view over rows that later views
   * of the same scope may extend. Rows of one version are contiguous; versions no longer active are
   * marked dead until the rows are compacted.
   */
  static final class Block {
    final String scope;
    final long revision;
    final long epoch;
    final String profileId;
    final int dim;
    final int rows;
    final float[] data;
    final long[] bits;
    final int words;
    final float[] mean;
    final int[] rowEntry;
    final int entryCount;
    final MemoryEntry[] entries;
    final int[] firstRow;
    final int[] rowCount;
    final long[] dead;
    final int live;
    final int missing;
    final long bytes;
    final Backing backing;

    private Block(Backing k, String scope, long revision, long epoch) {
      this.scope = scope;
      this.revision = revision;
      this.epoch = epoch;
      this.profileId = k.profileId;
      this.dim = k.dim;
      this.rows = k.rows;
      this.data = k.data;
      this.bits = k.bits;
      this.words = k.words;
      this.mean = k.mean;
      this.rowEntry = k.rowEntry;
      this.entryCount = k.entryCount;
      this.entries = k.entries;
      this.firstRow = k.firstRow;
      this.rowCount = k.rowCount;
      this.dead = k.dead;
      this.live = k.live;
      this.missing = k.missing;
      this.bytes = 4L * data.length + 8L * bits.length + 4L * mean.length + 4L * rowEntry.length
          + 16L * entries.length + 8L * dead.length + k.entryBytes;
      this.backing = k;
    }

    /** A block of {@code entries} whose vectors are {@code vectors.get(i)} (possibly none). */
    static Block of(String scope, long revision, long epoch, String profileId, int dim, List<MemoryEntry> entries,
        List<List<float[]>> vectors) {
      int rows = 0;
      for (List<float[]> v : vectors) {
        rows += v.size();
      }
      Backing k = new Backing(profileId, dim, entries.size(), rows, mean(vectors, dim));
      for (int i = 0; i < entries.size(); i++) {
        k.append(entries.get(i), vectors.get(i));
      }
      return k.publish(scope, revision, epoch);
    }

    boolean isDead(int e) {
      return (dead[e >>> 6] & (1L << e)) != 0;
    }
  }

  /**
   * The growing storage behind the blocks of one scope. Only the newest block may extend it (under its
   * lock); older blocks never look past their own row and entry counts, so appends do not disturb the
   * searches using them.
   */
  static final class Backing {
    final String profileId;
    final int dim;
    int rows;
    float[] data;
    final int words;
    final float[] mean;
    long[] bits;
    int[] rowEntry;
    int entryCount;
    MemoryEntry[] entries;
    int[] firstRow;
    int[] rowCount;
    long[] dead;
    boolean deadShared;
    int live;
    int missing;
    int deadRows;
    long entryBytes;
    final Map<String, Integer> byVersion = new HashMap<>();
    final Map<String, Integer> byEntry = new HashMap<>();
    @Nullable Block latest;

    Backing(String profileId, int dim, int entryCapacity, int rowCapacity, float[] mean) {
      this.profileId = profileId;
      this.dim = dim;
      this.mean = mean;
      this.words = (dim + 63) >>> 6;
      this.data = new float[rowCapacity * dim];
      this.bits = new long[rowCapacity * words];
      this.rowEntry = new int[rowCapacity];
      this.entries = new MemoryEntry[entryCapacity];
      this.firstRow = new int[entryCapacity];
      this.rowCount = new int[entryCapacity];
      this.dead = new long[(entryCapacity + 63) >>> 6];
    }

    void append(MemoryEntry e, List<float[]> vectors) {
      ensure(entryCount + 1, rows + vectors.size());
      int idx = entryCount++;
      entries[idx] = e;
      firstRow[idx] = rows;
      rowCount[idx] = vectors.size();
      for (float[] v : vectors) {
        int off = rows * dim;
        System.arraycopy(v, 0, data, off, dim);
        signs(v, mean, bits, rows * words);
        rowEntry[rows] = idx;
        rows++;
      }
      live++;
      if (vectors.isEmpty()) {
        missing++;
      }
      entryBytes += 160 + 2L * e.content().length();
      byVersion.put(e.versionId(), idx);
      byEntry.put(e.entryId(), idx);
    }

    void kill(int idx) {
      if (deadShared) {
        dead = dead.clone();
        deadShared = false;
      }
      if ((dead[idx >>> 6] & (1L << idx)) != 0) {
        return;
      }
      dead[idx >>> 6] |= 1L << idx;
      live--;
      deadRows += rowCount[idx];
      if (rowCount[idx] == 0) {
        missing--;
      }
      MemoryEntry e = entries[idx];
      byVersion.remove(e.versionId(), idx);
      byEntry.remove(e.entryId(), idx);
    }

    private void ensure(int entriesNeeded, int rowsNeeded) {
      if (entriesNeeded > entries.length) {
        int cap = Math.max(entriesNeeded, entries.length + (entries.length >> 1) + 4);
        entries = Arrays.copyOf(entries, cap);
        firstRow = Arrays.copyOf(firstRow, cap);
        rowCount = Arrays.copyOf(rowCount, cap);
      }
      int deadWords = (entriesNeeded + 63) >>> 6;
      if (deadWords > dead.length) {
        dead = Arrays.copyOf(dead, Math.max(deadWords, dead.length + (dead.length >> 1) + 1));
        deadShared = false;
      }
      if (rowsNeeded > rowEntry.length) {
        int cap = Math.max(rowsNeeded, rowEntry.length + (rowEntry.length >> 1) + 4);
        data = Arrays.copyOf(data, cap * dim);
        bits = Arrays.copyOf(bits, cap * this.words);
        rowEntry = Arrays.copyOf(rowEntry, cap);
      }
    }

    /** Whether dead rows or versions take so much room that copying the live ones out pays. */
    boolean wasteful() {
      int deadEntries = entryCount - live;
      return deadRows > 1024 + rows / 4 || deadEntries > 1024 + entryCount / 4;
    }

    /** A new backing with the live versions only, in their order. */
    Backing compacted() {
      List<MemoryEntry> keep = new ArrayList<>(live);
      List<List<float[]>> vectors = new ArrayList<>(live);
      for (int e = 0; e < entryCount; e++) {
        if ((dead[e >>> 6] & (1L << e)) == 0) {
          List<float[]> vs = new ArrayList<>(rowCount[e]);
          for (int r = firstRow[e]; r < firstRow[e] + rowCount[e]; r++) {
            vs.add(Arrays.copyOfRange(data, r * dim, (r + 1) * dim));
          }
          keep.add(entries[e]);
          vectors.add(vs);
        }
      }
      int liveRows = rows - deadRows;
      Backing k = new Backing(profileId, dim, live + live / 8, liveRows + liveRows / 8, mean(vectors, dim));
      for (int i = 0; i < keep.size(); i++) {
        k.append(keep.get(i), vectors.get(i));
      }
      return k;
    }

    Block publish(String scope, long revision, long epoch) {
      Block b = new Block(this, scope, revision, epoch);
      deadShared = true;
      latest = b;
      return b;
    }
  }

  /** The current block of {@code scope}, at the store's vector epoch {@code epoch} (read before this call). */
  Block block(String scope, String profileId, int dim, long epoch) {
    long head = store.headRevision(scope);
    long seen = invalidations.get();
    String key = cacheKey(scope, profileId);
    boolean sparse = profileId.endsWith(Embeddings.KEY_PROFILE_SUFFIX);
    if (sparse) {
      Block none = empty.get(key);
      if (none != null && none.revision == head && none.epoch == epoch && none.dim == dim) {
        return none;
      }
    }
    Block b = cache.get(key);
    if (b != null && b.profileId.equals(profileId) && b.dim == dim && b.epoch == epoch) {
      if (b.revision == head) {
        cache.hit();
        return b;
      }
      if (head > b.revision && head - b.revision <= MAX_UPDATE_REVISIONS) {
        Block u = update(b, head);
        if (u != null) {
          cache.updated();
          return keep(key, u, seen);
        }
      }
    }
    cache.loaded();
    Block loaded = load(scope, head, epoch, profileId, dim);
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

  private Block keep(String key, Block b, long seen) {
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
  private Block load(String scope, long head, long epoch, String profileId, int dim) {
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
    Backing k = new Backing(profileId, dim, active.size() + active.size() / 8, rows + rows / 8,
        mean(ordered, dim));
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
  private @Nullable Block update(Block b, long head) {
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
    Backing k = b.backing;
    synchronized (k) {
      if (k.latest != b) {
        Block newest = k.latest;
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
      Backing target = k.wasteful() ? k.compacted() : k;
      synchronized (target) {
        return target.publish(b.scope, to, b.epoch);
      }
    }
  }

  // ---- scanning

  /** The best {@code depth} versions over {@code blocks} with cosine at or above {@code floor}, best first. */
  List<Scored> search(Collection<Block> blocks, float[] q, float floor, int depth, Filter filter) {
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
   * The best {@code depth} versions over {@code blocks} with cosine at or above {@code floor}, best
   * first, scanned in at most {@code threads} slices on {@code executor} and the calling thread. With
   * {@code quantized} and at least {@value #QUANTIZED_MIN_ROWS} rows, one-bit estimates pick the
   * candidates that are rescored exactly; otherwise every row is scored exactly. The result does not
   * depend on the split.
   */
  static List<Scored> search(Collection<Block> blocks, float[] q, float floor, int depth, Filter filter,
      Executor executor, int threads, boolean quantized) {
    long rows = 0;
    long work = 0;
    for (Block b : blocks) {
      rows += b.rows;
      work += (long) b.rows * b.dim;
    }
    boolean approximate = quantized && rows >= QUANTIZED_MIN_ROWS;
    long sliceWork = approximate ? MIN_SLICE_WORK * ONE_BIT_SLICE_FACTOR : MIN_SLICE_WORK;
    int parts = (int) Math.max(1, Math.min(threads, work / sliceWork));
    return search(blocks, rows, q, floor, depth, filter, executor, parts, approximate);
  }

  /**
   * {@link #search} in {@code parts} slices, with the one-bit first pass when {@code approximate}
   * ({@code rows}: the rows of {@code blocks}).
   */
  static List<Scored> search(Collection<Block> blocks, long rows, float[] q, float floor, int depth, Filter filter,
      Executor executor, int parts, boolean approximate) {
    List<List<Segment>> slices = partition(blocks, parts);
    int keep = approximate ? candidates(rows, depth) : depth;
    PriorityQueue<Candidate> top;
    if (approximate) {
      // the candidates' rows are read at random, so threads rescoring shares of them fetch more at once
      List<List<Candidate>> shares = shares(oneBitPass(slices, q, keep, filter, executor), slices.size());
      List<float[]> scores = runSlices(shares, executor, share -> rescore(share, q));
      top = new PriorityQueue<>(depth + 1, VectorIndex::compare);
      for (int s = 0; s < shares.size(); s++) {
        List<Candidate> share = shares.get(s);
        float[] best = scores.get(s);
        for (int i = 0; i < best.length; i++) {
          if (best[i] >= floor) {
            Candidate c = share.get(i);
            offer(top, new Candidate(c.block, c.entry, best[i]), depth);
          }
        }
      }
    } else {
      List<PriorityQueue<Candidate>> found = runSlices(slices, executor, slice -> scan(slice, q, floor, keep, filter));
      top = new PriorityQueue<>(keep + 1, VectorIndex::compare);
      for (PriorityQueue<Candidate> part : found) {
        for (Candidate c : part) {
          offer(top, c, keep);
        }
      }
    }
    List<Candidate> ordered = new ArrayList<>(top);
    ordered.sort((a, b) -> compare(b, a));
    List<Scored> out = new ArrayList<>(ordered.size());
    for (Candidate c : ordered) {
      out.add(new Scored(c.block.entries[c.entry], c.score));
    }
    return out;
  }

  /**
   * The {@code keep} versions over {@code slices} nearest to {@code q} by the Hamming distance of their
   * sign bits, in scan order; of those at the cut distance, the first in scan order, whatever the split.
   */
  static List<Candidate> oneBitPass(List<List<Segment>> slices, float[] q, int keep, Filter filter,
      Executor executor) {
    List<List<Candidate>> found = runSlices(slices, executor, slice -> scanBits(slice, q, keep, filter));
    List<Candidate> pool = new ArrayList<>();
    for (List<Candidate> part : found) {
      pool.addAll(part);
    }
    return nearest(pool, keep);
  }

  /** How many one-bit candidates a search of {@code rows} rows for {@code depth} results rescores exactly. */
  static int candidates(long rows, int depth) {
    long wanted = Math.max(Math.max(MIN_CANDIDATES, (long) depth * CANDIDATE_FACTOR), rows / CANDIDATE_SHARE);
    return (int) Math.min(Integer.MAX_VALUE - 1, wanted);
  }

  /** {@code all} cut into at most {@code parts} consecutive shares of about equal size. */
  private static <T> List<List<T>> shares(List<T> all, int parts) {
    int n = Math.max(1, Math.min(parts, all.size()));
    List<List<T>> out = new ArrayList<>(n);
    for (int k = 0; k < n; k++) {
      out.add(all.subList((int) ((long) all.size() * k / n), (int) ((long) all.size() * (k + 1) / n)));
    }
    return out;
  }

  /** Runs {@code scan} over every slice: helpers on {@code executor} and the calling thread claim slices in turn. */
  private static <S, R> List<R> runSlices(List<S> slices, Executor executor,
      java.util.function.Function<S, R> scan) {
    int n = slices.size();
    if (n <= 1) {
      return n == 0 ? List.of() : List.of(scan.apply(slices.get(0)));
    }
    @SuppressWarnings("unchecked")
    R[] out = (R[]) new Object[n];
    AtomicInteger next = new AtomicInteger();
    CountDownLatch done = new CountDownLatch(n);
    AtomicReference<RuntimeException> failure = new AtomicReference<>();
    Runnable worker = () -> {
      for (int i; (i = next.getAndIncrement()) < n; ) {
        try {
          out[i] = scan.apply(slices.get(i));
        } catch (RuntimeException e) {
          failure.compareAndSet(null, e);
        } finally {
          done.countDown();
        }
      }
    };
    for (int i = 1; i < n; i++) {
      try {
        executor.execute(worker);
      } catch (RejectedExecutionException e) {
        break; // the calling thread scans what no helper took
      }
    }
    worker.run();
    boolean interrupted = false;
    while (true) {
      try {
        done.await();
        break;
      } catch (InterruptedException e) {
        interrupted = true; // slices claimed by helpers are running and finish
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    if (failure.get() != null) {
      throw failure.get();
    }
    return Arrays.asList(out);
  }

  /** Rows {@code [from, to)} of a block; never splits the rows of one version. */
  record Segment(Block block, int from, int to) {}

  /** Up to {@code parts} slices of about equal rows, in block order. */
  static List<List<Segment>> partition(Collection<Block> blocks, int parts) {
    long total = 0;
    for (Block b : blocks) {
      total += b.rows;
    }
    long target = Math.max(1, (total + parts - 1) / parts);
    List<List<Segment>> out = new ArrayList<>(parts);
    List<Segment> cur = new ArrayList<>();
    long curRows = 0;
    for (Block b : blocks) {
      int rows = b.rows;
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

  /** A version of a block and its score. */
  record Candidate(Block block, int entry, float score) {}

  /** The best {@code depth} versions of one slice by exact cosine, worst at the head. */
  private static PriorityQueue<Candidate> scan(
      List<Segment> slice, float[] q, float floor, int depth, Filter filter) {
    PriorityQueue<Candidate> top = new PriorityQueue<>(depth + 1, VectorIndex::compare);
    for (Segment seg : slice) {
      Block b = seg.block();
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
          float s = dot(q, b.data, r * b.dim, b.dim);
          if (s > best) {
            best = s;
          }
          r++;
        }
        if (best < floor || top.size() >= depth && best < top.peek().score) {
          continue;
        }
        if (filter.admits(b.entries[e])) {
          offer(top, new Candidate(b, e, best), depth);
        }
      }
    }
    return top;
  }

  /** The mean of {@code vectors} (all rows), or zeros when there are none. */
  static float[] mean(List<List<float[]>> vectors, int dim) {
    double[] sum = new double[dim];
    long n = 0;
    for (List<float[]> vs : vectors) {
      for (float[] v : vs) {
        if (v.length == dim) {
          for (int i = 0; i < dim; i++) {
            sum[i] += v[i];
          }
          n++;
        }
      }
    }
    float[] out = new float[dim];
    for (int i = 0; n > 0 && i < dim; i++) {
      out[i] = (float) (sum[i] / n);
    }
    return out;
  }

  /** Writes the signs of {@code v - mean} as bits into {@code bits[off ..]}, one bit per value. */
  static void signs(float[] v, float[] mean, long[] bits, int off) {
    int words = (v.length + 63) >>> 6;
    for (int w = 0; w < words; w++) {
      long word = 0;
      for (int i = w << 6, end = Math.min(v.length, (w + 1) << 6); i < end; i++) {
        if (v[i] > mean[i]) {
          word |= 1L << i;
        }
      }
      bits[off + w] = word;
    }
  }

  /**
   * The {@code keep} versions of one slice nearest to the query by the Hamming distance of their sign
   * bits (the best over a version's rows), as candidates scored minus the distance, those at the cut
   * distance in slice order. Distances are small integers: the scan keeps the versions at or below a
   * bound in plain arrays, and when they fill the arrays, counts them per distance, lowers the bound to
   * the distance that still keeps {@code keep} of them and drops the rest, so most rows cost their
   * popcounts and one comparison. Each block has its own mean, so the query's bits are made per block.
   */
  private static List<Candidate> scanBits(
      List<Segment> slice, float[] q, int keep, Filter filter) {
    boolean filtered = !filter.isEmpty();
    int maxWords = 0;
    for (Segment seg : slice) {
      maxWords = Math.max(maxWords, seg.block().words);
    }
    Kept kept = new Kept(keep, maxWords << 6);
    Block last = null;
    long[] qb = null;
    for (int si = 0; si < slice.size(); si++) {
      Segment seg = slice.get(si);
      Block b = seg.block();
      if (b != last) {
        qb = new long[b.words];
        signs(q, b.mean, qb, 0);
        last = b;
      }
      int words = b.words;
      long[] bits = b.bits;
      int[] rowEntry = b.rowEntry;
      int r = seg.from();
      int rows = seg.to();
      while (r < rows) {
        int e = rowEntry[r];
        if (b.isDead(e) || filtered && !filter.admits(b.entries[e])) {
          r += b.rowCount[e];
          continue;
        }
        int best = Integer.MAX_VALUE;
        while (r < rows && rowEntry[r] == e) {
          int h = 0;
          for (int w = 0, off = r * words; w < words; w++) {
            h += Long.bitCount(qb[w] ^ bits[off + w]);
          }
          best = Math.min(best, h);
          r++;
        }
        if (best <= kept.bound) {
          kept.add(si, e, best);
        }
      }
    }
    return kept.candidates(slice);
  }

  /**
   * The versions a one-bit scan keeps: segment, entry and distance of each at or below {@link #bound},
   * in scan order. When the arrays fill, the bound drops to the smallest distance that still keeps
   * {@code keep} versions and those above it are dropped (order kept); ties at the bound can leave the
   * arrays full, and then they grow.
   */
  private static final class Kept {
    int bound = Integer.MAX_VALUE;
    private int size;
    private int[] segment;
    private int[] entry;
    private int[] distance;
    private final int[] count;
    private final int keep;

    Kept(int keep, int maxDistance) {
      this.keep = keep;
      int cap = (int) Math.min(Integer.MAX_VALUE - 8, Math.max(1024L, 2L * keep));
      segment = new int[cap];
      entry = new int[cap];
      distance = new int[cap];
      count = new int[maxDistance + 1];
    }

    void add(int seg, int e, int d) {
      if (size == entry.length) {
        shrink();
        if (d > bound) {
          return;
        }
      }
      segment[size] = seg;
      entry[size] = e;
      distance[size] = d;
      size++;
    }

    private void shrink() {
      bound = cut(keep);
      int n = 0;
      for (int i = 0; i < size; i++) {
        if (distance[i] <= bound) {
          segment[n] = segment[i];
          entry[n] = entry[i];
          distance[n] = distance[i];
          n++;
        }
      }
      size = n;
      if (size > entry.length / 2) {
        int cap = (int) Math.min(Integer.MAX_VALUE - 8, 2L * entry.length);
        segment = Arrays.copyOf(segment, cap);
        entry = Arrays.copyOf(entry, cap);
        distance = Arrays.copyOf(distance, cap);
      }
    }

    /** The smallest distance at or below which at least {@code wanted} kept versions lie (the largest if fewer). */
    private int cut(int wanted) {
      Arrays.fill(count, 0);
      int max = 0;
      for (int i = 0; i < size; i++) {
        count[distance[i]]++;
        max = Math.max(max, distance[i]);
      }
      int d = 0;
      for (int below = 0; d < max && below + count[d] < wanted; d++) {
        below += count[d];
      }
      return d;
    }

    /** The best {@code keep} as candidates: every one below the cut distance, then those at it in scan order. */
    List<Candidate> candidates(List<Segment> slice) {
      int cut = size <= keep ? Integer.MAX_VALUE : cut(keep);
      int atCut = cut == Integer.MAX_VALUE ? 0 : keep;
      if (cut != Integer.MAX_VALUE) {
        for (int d = 0; d < cut; d++) {
          atCut -= count[d];
        }
      }
      List<Candidate> out = new ArrayList<>(Math.min(size, keep));
      for (int i = 0; i < size; i++) {
        int d = distance[i];
        if (d < cut || d == cut && atCut-- > 0) {
          out.add(new Candidate(slice.get(segment[i]).block(), entry[i], -d));
        }
      }
      return out;
    }
  }

  /**
   * The {@code keep} candidates with the highest (integer, non-positive) scores, those of the cut score
   * in the order given.
   */
  private static List<Candidate> nearest(List<Candidate> all, int keep) {
    if (all.size() <= keep) {
      return all;
    }
    int max = 0;
    for (Candidate c : all) {
      max = Math.max(max, (int) -c.score);
    }
    int[] count = new int[max + 1];
    for (Candidate c : all) {
      count[(int) -c.score]++;
    }
    int cut = 0;
    int below = 0;
    while (cut <= max && below + count[cut] < keep) {
      below += count[cut++];
    }
    int atCut = keep - below;
    List<Candidate> out = new ArrayList<>(keep);
    for (Candidate c : all) {
      int d = (int) -c.score;
      if (d < cut) {
        out.add(c);
      } else if (d == cut && atCut > 0) {
        out.add(c);
        atCut--;
      }
    }
    return out;
  }

  /**
   * The exact cosine of each candidate (the best over its rows), in the order given. The candidates' rows
   * lie scattered over the blocks, so they are scored four at a time: the four rows' memory is fetched
   * together instead of one row's after another's, which about halves the time of reading them. Each row
   * is summed exactly as {@link #dot} sums it, so a rescored version scores what the exact scan gives it.
   */
  private static float[] rescore(List<Candidate> chosen, float[] q) {
    int rows = 0;
    for (Candidate c : chosen) {
      rows += c.block.rowCount[c.entry];
    }
    float[][] arrays = new float[rows][];
    int[] offsets = new int[rows];
    int n = 0;
    for (Candidate c : chosen) {
      Block b = c.block;
      for (int r = b.firstRow[c.entry], end = r + b.rowCount[c.entry]; r < end; r++) {
        arrays[n] = b.data;
        offsets[n++] = r * b.dim;
      }
    }
    int dim = q.length;
    float[] scores = new float[rows];
    int i = 0;
    for (; i + 3 < rows; i += 4) {
      dot4(q, arrays, offsets, i, dim, scores);
    }
    for (; i < rows; i++) {
      scores[i] = dot(q, arrays[i], offsets[i], dim);
    }
    float[] best = new float[chosen.size()];
    n = 0;
    for (int k = 0; k < best.length; k++) {
      Candidate c = chosen.get(k);
      float b = -2;
      for (int r = 0, count = c.block.rowCount[c.entry]; r < count; r++) {
        b = Math.max(b, scores[n++]);
      }
      best[k] = b;
    }
    return best;
  }

  private static void offer(PriorityQueue<Candidate> top, Candidate c, int depth) {
    if (top.size() < depth) {
      top.add(c);
    } else if (compare(c, top.peek()) > 0) {
      top.poll();
      top.add(c);
    }
  }

  /** Ascending: lower score first; among equal scores the older version first. */
  private static int compare(Candidate a, Candidate b) {
    int c = Float.compare(a.score, b.score);
    return c != 0 ? c : a.block.entries[a.entry].versionId().compareTo(b.block.entries[b.entry].versionId());
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

  /**
   * {@link #dot} of {@code q} with four rows at once, row {@code k < 4} being {@code arrays[at + k]} from
   * {@code offsets[at + k]}, into {@code out[at + k]}: each row gets the same eight partial sums as
   * {@link #dot}, added in the same order, so the results are equal to its.
   */
  static void dot4(float[] q, float[][] arrays, int[] offsets, int at, int dim, float[] out) {
    float[] d0 = arrays[at];
    float[] d1 = arrays[at + 1];
    float[] d2 = arrays[at + 2];
    float[] d3 = arrays[at + 3];
    int o0 = offsets[at];
    int o1 = offsets[at + 1];
    int o2 = offsets[at + 2];
    int o3 = offsets[at + 3];
    float s00 = 0;
    float s01 = 0;
    float s02 = 0;
    float s03 = 0;
    float s04 = 0;
    float s05 = 0;
    float s06 = 0;
    float s07 = 0;
    float s10 = 0;
    float s11 = 0;
    float s12 = 0;
    float s13 = 0;
    float s14 = 0;
    float s15 = 0;
    float s16 = 0;
    float s17 = 0;
    float s20 = 0;
    float s21 = 0;
    float s22 = 0;
    float s23 = 0;
    float s24 = 0;
    float s25 = 0;
    float s26 = 0;
    float s27 = 0;
    float s30 = 0;
    float s31 = 0;
    float s32 = 0;
    float s33 = 0;
    float s34 = 0;
    float s35 = 0;
    float s36 = 0;
    float s37 = 0;
    int i = 0;
    for (int end = dim - 7; i < end; i += 8) {
      float q0 = q[i];
      float q1 = q[i + 1];
      float q2 = q[i + 2];
      float q3 = q[i + 3];
      float q4 = q[i + 4];
      float q5 = q[i + 5];
      float q6 = q[i + 6];
      float q7 = q[i + 7];
      s00 += q0 * d0[o0 + i];
      s01 += q1 * d0[o0 + i + 1];
      s02 += q2 * d0[o0 + i + 2];
      s03 += q3 * d0[o0 + i + 3];
      s04 += q4 * d0[o0 + i + 4];
      s05 += q5 * d0[o0 + i + 5];
      s06 += q6 * d0[o0 + i + 6];
      s07 += q7 * d0[o0 + i + 7];
      s10 += q0 * d1[o1 + i];
      s11 += q1 * d1[o1 + i + 1];
      s12 += q2 * d1[o1 + i + 2];
      s13 += q3 * d1[o1 + i + 3];
      s14 += q4 * d1[o1 + i + 4];
      s15 += q5 * d1[o1 + i + 5];
      s16 += q6 * d1[o1 + i + 6];
      s17 += q7 * d1[o1 + i + 7];
      s20 += q0 * d2[o2 + i];
      s21 += q1 * d2[o2 + i + 1];
      s22 += q2 * d2[o2 + i + 2];
      s23 += q3 * d2[o2 + i + 3];
      s24 += q4 * d2[o2 + i + 4];
      s25 += q5 * d2[o2 + i + 5];
      s26 += q6 * d2[o2 + i + 6];
      s27 += q7 * d2[o2 + i + 7];
      s30 += q0 * d3[o3 + i];
      s31 += q1 * d3[o3 + i + 1];
      s32 += q2 * d3[o3 + i + 2];
      s33 += q3 * d3[o3 + i + 3];
      s34 += q4 * d3[o3 + i + 4];
      s35 += q5 * d3[o3 + i + 5];
      s36 += q6 * d3[o3 + i + 6];
      s37 += q7 * d3[o3 + i + 7];
    }
    float t0 = (s00 + s01) + (s02 + s03) + (s04 + s05) + (s06 + s07);
    float t1 = (s10 + s11) + (s12 + s13) + (s14 + s15) + (s16 + s17);
    float t2 = (s20 + s21) + (s22 + s23) + (s24 + s25) + (s26 + s27);
    float t3 = (s30 + s31) + (s32 + s33) + (s34 + s35) + (s36 + s37);
    for (; i < dim; i++) {
      t0 += q[i] * d0[o0 + i];
      t1 += q[i] * d1[o1 + i];
      t2 += q[i] * d2[o2 + i];
      t3 += q[i] * d3[o3 + i];
    }
    out[at] = t0;
    out[at + 1] = t1;
    out[at + 2] = t2;
    out[at + 3] = t3;
  }

  /** Blocks by scope and profile, least recently used first, bounded by their estimated bytes. */
  private static final class BlockCache {
    private final long maxBytes;
    private final LinkedHashMap<String, Block> blocks = new LinkedHashMap<>(16, 0.75f, true);
    private long bytes;
    private long hits;
    private long updates;
    private long loads;
    private long evictions;

    BlockCache(long maxBytes) {
      this.maxBytes = maxBytes;
    }

    synchronized @Nullable Block get(String scope) {
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

    synchronized void put(String scope, Block b) {
      Block old = blocks.remove(scope);
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
        Block eldest = it.next().getValue();
        it.remove();
        bytes -= eldest.bytes;
        evictions++;
      }
    }

    synchronized void remove(String scope) {
      Block old = blocks.remove(scope);
      if (old != null) {
        bytes -= old.bytes;
      }
    }

    synchronized void remove(String scope, Block b) {
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
}
