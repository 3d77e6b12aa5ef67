/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.internal;

import dev.engram.MemoryEntry;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The row layout of the vector scan: the vectors of one scope at one revision and epoch, an immutable
 * view over rows that later views of the same scope may extend ({@link Backing}). Each row is a unit
 * vector in {@link #data} ({@link #dim} floats from {@code row * dim}) and its one-bit copy in
 * {@link #bits} ({@link #words} longs, {@link OneBit}); {@link #rowEntry} names each row's version.
 * Rows of one version are contiguous; versions no longer active are marked dead until the rows are
 * compacted.
 */
final class VectorBlock {
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

  private VectorBlock(Backing k, String scope, long revision, long epoch) {
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
  static VectorBlock of(String scope, long revision, long epoch, String profileId, int dim, List<MemoryEntry> entries,
      List<List<float[]>> vectors) {
    int rows = 0;
    for (List<float[]> v : vectors) {
      rows += v.size();
    }
    Backing k = new Backing(profileId, dim, entries.size(), rows, OneBit.mean(vectors, dim));
    for (int i = 0; i < entries.size(); i++) {
      k.append(entries.get(i), vectors.get(i));
    }
    return k.publish(scope, revision, epoch);
  }

  boolean isDead(int e) {
    return (dead[e >>> 6] & (1L << e)) != 0;
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
    @Nullable VectorBlock latest;

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
        OneBit.signs(v, mean, bits, rows * words);
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
      Backing k = new Backing(profileId, dim, live + live / 8, liveRows + liveRows / 8, OneBit.mean(vectors, dim));
      for (int i = 0; i < keep.size(); i++) {
        k.append(keep.get(i), vectors.get(i));
      }
      return k;
    }

    VectorBlock publish(String scope, long revision, long epoch) {
      VectorBlock b = new VectorBlock(this, scope, revision, epoch);
      deadShared = true;
      latest = b;
      return b;
    }
  }
}
