/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Executor;

/**
 * The one-bit quantizer of the vector scan. Every row has a one-bit copy: the sign of each value after
 * subtracting the block's mean vector (taken when the block is loaded or compacted), so the bits spread
 * over the directions that tell vectors apart. The pass ranks every version by the Hamming distance of
 * those bits to the query's (popcounts, a few per row) and keeps the nearest {@link #candidates} for the
 * exact rescoring ({@link DotKernels#rescore}); of those at the cut distance, the first in scan order,
 * whatever the split into slices.
 */
final class OneBit {
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

  private OneBit() {}

  /** How many one-bit candidates a search of {@code rows} rows for {@code depth} results rescores exactly. */
  static int candidates(long rows, int depth) {
    long wanted = Math.max(Math.max(MIN_CANDIDATES, (long) depth * CANDIDATE_FACTOR), rows / CANDIDATE_SHARE);
    return (int) Math.min(Integer.MAX_VALUE - 1, wanted);
  }

  /**
   * The {@code keep} versions over {@code slices} nearest to {@code q} by the Hamming distance of their
   * sign bits, in scan order; of those at the cut distance, the first in scan order, whatever the split.
   */
  static List<TopK.Candidate> pass(List<List<ScanSlices.Segment>> slices, float[] q, int keep, VectorIndex.Filter filter,
      Executor executor) {
    List<List<TopK.Candidate>> found = ScanSlices.run(slices, executor, slice -> scanBits(slice, q, keep, filter));
    List<TopK.Candidate> pool = new ArrayList<>();
    for (List<TopK.Candidate> part : found) {
      pool.addAll(part);
    }
    return nearest(pool, keep);
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
  private static List<TopK.Candidate> scanBits(
      List<ScanSlices.Segment> slice, float[] q, int keep, VectorIndex.Filter filter) {
    boolean filtered = !filter.isEmpty();
    int maxWords = 0;
    for (ScanSlices.Segment seg : slice) {
      maxWords = Math.max(maxWords, seg.block().words);
    }
    Kept kept = new Kept(keep, maxWords << 6);
    VectorBlock last = null;
    long[] qb = null;
    for (int si = 0; si < slice.size(); si++) {
      ScanSlices.Segment seg = slice.get(si);
      VectorBlock b = seg.block();
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
    List<TopK.Candidate> candidates(List<ScanSlices.Segment> slice) {
      int cut = size <= keep ? Integer.MAX_VALUE : cut(keep);
      int atCut = cut == Integer.MAX_VALUE ? 0 : keep;
      if (cut != Integer.MAX_VALUE) {
        for (int d = 0; d < cut; d++) {
          atCut -= count[d];
        }
      }
      List<TopK.Candidate> out = new ArrayList<>(Math.min(size, keep));
      for (int i = 0; i < size; i++) {
        int d = distance[i];
        if (d < cut || d == cut && atCut-- > 0) {
          out.add(new TopK.Candidate(slice.get(segment[i]).block(), entry[i], -d));
        }
      }
      return out;
    }
  }

  /**
   * The {@code keep} candidates with the highest (integer, non-positive) scores, those of the cut score
   * in the order given.
   */
  private static List<TopK.Candidate> nearest(List<TopK.Candidate> all, int keep) {
    if (all.size() <= keep) {
      return all;
    }
    int max = 0;
    for (TopK.Candidate c : all) {
      max = Math.max(max, (int) -c.score());
    }
    int[] count = new int[max + 1];
    for (TopK.Candidate c : all) {
      count[(int) -c.score()]++;
    }
    int cut = 0;
    int below = 0;
    while (cut <= max && below + count[cut] < keep) {
      below += count[cut++];
    }
    int atCut = keep - below;
    List<TopK.Candidate> out = new ArrayList<>(keep);
    for (TopK.Candidate c : all) {
      int d = (int) -c.score();
      if (d < cut) {
        out.add(c);
      } else if (d == cut && atCut > 0) {
        out.add(c);
        atCut--;
      }
    }
    return out;
  }
}
