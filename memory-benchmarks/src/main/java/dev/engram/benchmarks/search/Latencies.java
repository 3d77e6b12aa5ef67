/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.benchmarks.search;

import java.util.Arrays;

/** Per-call latencies of one measured series, in nanoseconds; grows past its initial capacity. */
public final class Latencies {
  private long[] nanos;
  private int size;

  public Latencies(int capacity) {
    this.nanos = new long[Math.max(1, capacity)];
  }

  public void add(long elapsedNanos) {
    if (size == nanos.length) {
      nanos = Arrays.copyOf(nanos, nanos.length * 2);
    }
    nanos[size++] = elapsedNanos;
  }

  /** Adds every latency of {@code other}. */
  public void addAll(Latencies other) {
    for (int i = 0; i < other.size; i++) {
      add(other.nanos[i]);
    }
  }

  public int size() {
    return size;
  }

  /** The nearest-rank percentile {@code p} (0 < p <= 1) in milliseconds. */
  public double percentileMillis(double p) {
    if (size == 0) {
      return Double.NaN;
    }
    long[] sorted = Arrays.copyOf(nanos, size);
    Arrays.sort(sorted);
    int rank = (int) Math.ceil(p * size);
    return sorted[Math.max(0, Math.min(size, rank) - 1)] / 1e6;
  }

  double p50() {
    return percentileMillis(0.50);
  }

  double p99() {
    return percentileMillis(0.99);
  }

  double meanMillis() {
    long sum = 0;
    for (int i = 0; i < size; i++) {
      sum += nanos[i];
    }
    return size == 0 ? Double.NaN : sum / 1e6 / size;
  }
}
