/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.internal;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;

/**
 * The slice scheduler of the vector scan: how many slices a scan is cut into ({@link #parts}), the cut
 * itself (whole versions, about equal rows, in block order), and running them: helpers on the executor
 * and the calling thread claim slices in turn, so a busy or refusing executor slows a search down but
 * never stalls it.
 */
final class ScanSlices {
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

  private ScanSlices() {}

  /**
   * How many slices a scan of {@code work} multiply-adds gets with at most {@code threads} threads: one
   * per {@link #MIN_SLICE_WORK} (times {@link #ONE_BIT_SLICE_FACTOR} for the one-bit pass), at least one.
   */
  static int parts(long work, int threads, boolean oneBit) {
    long sliceWork = oneBit ? MIN_SLICE_WORK * ONE_BIT_SLICE_FACTOR : MIN_SLICE_WORK;
    return (int) Math.max(1, Math.min(threads, work / sliceWork));
  }

  /** Rows {@code [from, to)} of a block; never splits the rows of one version. */
  record Segment(VectorBlock block, int from, int to) {}

  /** Up to {@code parts} slices of about equal rows, in block order. */
  static List<List<Segment>> partition(Collection<VectorBlock> blocks, int parts) {
    long total = 0;
    for (VectorBlock b : blocks) {
      total += b.rows;
    }
    long target = Math.max(1, (total + parts - 1) / parts);
    List<List<Segment>> out = new ArrayList<>(parts);
    List<Segment> cur = new ArrayList<>();
    long curRows = 0;
    for (VectorBlock b : blocks) {
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

  /** {@code all} cut into at most {@code parts} consecutive shares of about equal size. */
  static <T> List<List<T>> shares(List<T> all, int parts) {
    int n = Math.max(1, Math.min(parts, all.size()));
    List<List<T>> out = new ArrayList<>(n);
    for (int k = 0; k < n; k++) {
      out.add(all.subList((int) ((long) all.size() * k / n), (int) ((long) all.size() * (k + 1) / n)));
    }
    return out;
  }

  /** Runs {@code scan} over every slice: helpers on {@code executor} and the calling thread claim slices in turn. */
  static <S, R> List<R> run(List<S> slices, Executor executor, Function<S, R> scan) {
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
}
