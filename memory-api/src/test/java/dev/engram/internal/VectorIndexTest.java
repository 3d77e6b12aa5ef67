/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.EntryStatus;
import dev.engram.EntryType;
import dev.engram.MemoryEntry;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class VectorIndexTest {

  private static MemoryEntry entry(String scope, int i, EntryType type) {
    Instant at = Instant.EPOCH.plusSeconds(i);
    return new MemoryEntry(String.format("e%07d", i), String.format("v%07d", i), 1, null, scope, "entry " + i,
        List.of(i % 3 == 0 ? "even" : "general"), type, 2, null, List.of(), null, null, List.of(), "h" + i,
        EntryStatus.ACTIVE, null, at, at, i + 1);
  }

  /** A block of {@code entries} versions with 1..3 rows each; every seventh version repeats an earlier vector. */
  private static VectorIndex.Block block(String scope, int first, int entries, int dim, Random random) {
    MemoryEntry[] es = new MemoryEntry[entries];
    List<Integer> rowEntry = new ArrayList<>();
    List<float[]> rows = new ArrayList<>();
    for (int e = 0; e < entries; e++) {
      es[e] = entry(scope, first + e, e % 5 == 0 ? EntryType.DECISION : EntryType.FACT);
      int views = 1 + random.nextInt(3);
      for (int v = 0; v < views; v++) {
        float[] x;
        if (e % 7 == 6 && !rows.isEmpty()) {
          x = rows.get(random.nextInt(rows.size())).clone();
        } else {
          x = new float[dim];
          for (int d = 0; d < dim; d++) {
            x[d] = (float) random.nextGaussian();
          }
          x = Embeddings.normalize(x, dim);
        }
        rows.add(x);
        rowEntry.add(e);
      }
    }
    float[] data = new float[rows.size() * dim];
    int[] owner = new int[rows.size()];
    for (int r = 0; r < rows.size(); r++) {
      System.arraycopy(rows.get(r), 0, data, r * dim, dim);
      owner[r] = rowEntry.get(r);
    }
    return new VectorIndex.Block(1, "p@" + dim, dim, es, owner, data, 0);
  }

  @Test
  void partitionCoversEveryRowOnceAndKeepsVersionsWhole() {
    Random random = new Random(3);
    List<VectorIndex.Block> blocks = List.of(
        block("a", 0, 50, 4, random), block("b", 1000, 0, 4, random), block("c", 2000, 13, 4, random),
        block("d", 3000, 1, 4, random));
    int total = 0;
    for (VectorIndex.Block b : blocks) {
      total += b.rowEntry.length;
    }
    for (int parts = 1; parts <= 9; parts++) {
      List<List<VectorIndex.Segment>> slices = VectorIndex.partition(blocks, parts);
      assertThat(slices).as("parts %d", parts).hasSizeBetween(1, parts);
      int covered = 0;
      for (List<VectorIndex.Segment> slice : slices) {
        for (VectorIndex.Segment s : slice) {
          int[] owner = s.block().rowEntry;
          assertThat(s.from()).isLessThan(s.to());
          if (s.from() > 0) {
            assertThat(owner[s.from()]).isNotEqualTo(owner[s.from() - 1]);
          }
          if (s.to() < owner.length) {
            assertThat(owner[s.to()]).isNotEqualTo(owner[s.to() - 1]);
          }
          covered += s.to() - s.from();
        }
      }
      assertThat(covered).as("parts %d", parts).isEqualTo(total);
    }
  }

  @Test
  void parallelSearchReturnsWhatOneThreadReturns() {
    Random random = new Random(4);
    int dim = 256;
    List<VectorIndex.Block> blocks = List.of(block("a", 0, 9000, dim, random), block("b", 100_000, 4000, dim, random));
    for (int trial = 0; trial < 6; trial++) {
      float[] q = new float[dim];
      for (int d = 0; d < dim; d++) {
        q[d] = (float) random.nextGaussian();
      }
      q = Embeddings.normalize(q, dim);
      float floor = trial % 2 == 0 ? -1f : 0.05f;
      Set<String> topics = trial == 3 ? Set.of("even") : Set.of();
      Set<EntryType> types = trial == 5 ? Set.of(EntryType.DECISION) : Set.of();
      List<VectorIndex.Scored> one = VectorIndex.search(blocks, q, floor, 100, topics, types, 1);
      assertThat(one).isNotEmpty();
      for (int threads : new int[] {2, 3, 8}) {
        assertThat(VectorIndex.search(blocks, q, floor, 100, topics, types, threads)).as("trial %d, %d threads", trial, threads)
            .isEqualTo(one);
      }
    }
  }
}
