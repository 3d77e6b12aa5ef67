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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class VectorIndexTest {

  private static MemoryEntry entry(String scope, int i, EntryType type) {
    Instant at = Instant.EPOCH.plusSeconds(i);
    return new MemoryEntry(String.format("e%07d", i), String.format("v%07d", i), 1, null, scope, "entry " + i,
        List.of(i % 3 == 0 ? "even" : "general"), type, 2, null, List.of(), null, null, List.of(), "h" + i,
        EntryStatus.ACTIVE, null, null, at, at, i + 1);
  }

  /** The exact rescoring gets a fixed share of a large scan's rows, so its recall does not fall as a scope grows. */
  @Test
  void theOneBitPassRescoresAtLeastAFixedShareOfTheRowsScanned() {
    assertThat(OneBit.candidates(10_000, 5)).isEqualTo(OneBit.MIN_CANDIDATES);
    assertThat(OneBit.candidates(4_096, 100)).isEqualTo(2_000);
    assertThat(OneBit.candidates(100_000, 100)).isEqualTo(2_000);
    assertThat(OneBit.candidates(1_000_000, 100)).isEqualTo(10_000);
    assertThat(OneBit.candidates(300_000, 100)).isEqualTo(3_000);
    assertThat(OneBit.candidates(Long.MAX_VALUE, 100)).isEqualTo(Integer.MAX_VALUE - 1);
  }

  /** A block of {@code entries} versions with 1..3 rows each; every seventh version repeats an earlier vector. */
  private static VectorBlock block(String scope, int first, int entries, int dim, Random random) {
    List<MemoryEntry> es = new ArrayList<>();
    List<List<float[]>> vectors = new ArrayList<>();
    List<float[]> rows = new ArrayList<>();
    for (int e = 0; e < entries; e++) {
      es.add(entry(scope, first + e, e % 5 == 0 ? EntryType.DECISION : EntryType.FACT));
      int views = 1 + random.nextInt(3);
      List<float[]> mine = new ArrayList<>();
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
        mine.add(x);
      }
      vectors.add(mine);
    }
    return VectorBlock.of(scope, 1, 0, "p@" + dim, dim, es, vectors);
  }

  @Test
  void partitionCoversEveryRowOnceAndKeepsVersionsWhole() {
    Random random = new Random(3);
    List<VectorBlock> blocks = List.of(
        block("a", 0, 50, 4, random), block("b", 1000, 0, 4, random), block("c", 2000, 13, 4, random),
        block("d", 3000, 1, 4, random));
    int total = 0;
    for (VectorBlock b : blocks) {
      total += b.rows;
    }
    for (int parts = 1; parts <= 9; parts++) {
      List<List<ScanSlices.Segment>> slices = ScanSlices.partition(blocks, parts);
      assertThat(slices).as("parts %d", parts).hasSizeBetween(1, parts);
      int covered = 0;
      for (List<ScanSlices.Segment> slice : slices) {
        for (ScanSlices.Segment s : slice) {
          int[] owner = s.block().rowEntry;
          assertThat(s.from()).isLessThan(s.to());
          if (s.from() > 0) {
            assertThat(owner[s.from()]).isNotEqualTo(owner[s.from() - 1]);
          }
          if (s.to() < s.block().rows) {
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
    List<VectorBlock> blocks = List.of(block("a", 0, 9000, dim, random), block("b", 100_000, 4000, dim, random));
    for (int trial = 0; trial < 6; trial++) {
      float[] q = new float[dim];
      for (int d = 0; d < dim; d++) {
        q[d] = (float) random.nextGaussian();
      }
      q = Embeddings.normalize(q, dim);
      float floor = trial % 2 == 0 ? -1f : 0.05f;
      Set<String> topics = trial == 3 ? Set.of("even") : Set.of();
      Set<EntryType> types = trial == 5 ? Set.of(EntryType.DECISION) : Set.of();
      List<VectorIndex.Scored> one = VectorIndex.search(blocks, q, floor, 100, VectorIndex.Filter.of(topics, types),
          java.util.concurrent.ForkJoinPool.commonPool(), 1, false);
      assertThat(one).isNotEmpty();
      for (int threads : new int[] {2, 3, 8}) {
        assertThat(VectorIndex.search(blocks, q, floor, 100, VectorIndex.Filter.of(topics, types),
            java.util.concurrent.ForkJoinPool.commonPool(), threads, false)).as("trial %d, %d threads", trial, threads)
            .isEqualTo(one);
      }
    }
  }

  /**
   * A corpus shaped like sentence embeddings: vectors around a few hundred topic centres, several views
   * per version. The two-pass scan's top 10 must hold at least 99 % of the exact scan's top 10.
   */
  @Test
  void quantizedScanRecallsTheExactTopTenOnAFixedSeedCorpus() {
    Random random = new Random(11);
    int dim = 384;
    int centres = 300;
    float[][] centre = new float[centres][];
    for (int c = 0; c < centres; c++) {
      centre[c] = gaussian(random, dim, 1f);
    }
    List<MemoryEntry> es = new ArrayList<>();
    List<List<float[]>> vectors = new ArrayList<>();
    for (int e = 0; e < 12_000; e++) {
      es.add(entry("s", e, EntryType.FACT));
      float[] base = centre[random.nextInt(centres)];
      List<float[]> views = new ArrayList<>();
      for (int v = 0, n = 1 + random.nextInt(2); v < n; v++) {
        views.add(Embeddings.normalize(plus(base, gaussian(random, dim, 0.8f)), dim));
      }
      vectors.add(views);
    }
    List<VectorBlock> blocks = List.of(VectorBlock.of("s", 1, 0, "p@" + dim, dim, es, vectors));
    assertThat(blocks.get(0).rows).isGreaterThanOrEqualTo(VectorIndex.QUANTIZED_MIN_ROWS);
    int found = 0;
    int wanted = 0;
    for (int query = 0; query < 60; query++) {
      float[] q = Embeddings.normalize(plus(centre[random.nextInt(centres)], gaussian(random, dim, 0.8f)), dim);
      List<VectorIndex.Scored> exact = VectorIndex.search(blocks, q, -1f, 100, VectorIndex.Filter.NONE,
          Runnable::run, 1, false);
      List<VectorIndex.Scored> quick = VectorIndex.search(blocks, q, -1f, 100, VectorIndex.Filter.NONE,
          Runnable::run, 1, true);
      Set<String> top = new java.util.HashSet<>();
      for (VectorIndex.Scored s : exact.subList(0, 10)) {
        top.add(s.entry().versionId());
      }
      wanted += top.size();
      for (VectorIndex.Scored s : quick.subList(0, 10)) {
        if (top.contains(s.entry().versionId())) {
          found++;
        }
      }
      // rescored exactly: a hit both scans return carries the same cosine
      for (VectorIndex.Scored s : quick) {
        exact.stream().filter(x -> x.entry().versionId().equals(s.entry().versionId())).findFirst()
            .ifPresent(x -> assertThat(s.cosine()).isEqualTo(x.cosine()));
      }
    }
    assertThat((double) found / wanted).isGreaterThanOrEqualTo(0.99);
  }

  /**
   * The one-bit pass keeps the versions nearest by Hamming distance, those tied at the cut in scan order,
   * and the rescoring ranks exactly those: checked against a plain reference on 8- and 64-value vectors
   * (a part of one word, so many tied distances; every seventh version repeats an earlier vector), split
   * into 1 to 7 slices, with and without a filter.
   */
  @ParameterizedTest
  @ValueSource(ints = {8, 64})
  void theOneBitPassKeepsTheNearestByHammingDistanceTiesInScanOrderAtEverySplit(int dim) {
    Random random = new Random(21);
    List<VectorBlock> blocks = List.of(block("a", 0, 5000, dim, random), block("b", 100_000, 1500, dim, random));
    long rows = blocks.get(0).rows + blocks.get(1).rows;
    int depth = 10;
    int keep = OneBit.candidates(rows, depth);
    int tiedAtTheCut = 0;
    for (int trial = 0; trial < 4; trial++) {
      float[] q = Embeddings.normalize(gaussian(random, dim, 1f), dim);
      VectorIndex.Filter filter = trial % 2 == 0 ? VectorIndex.Filter.NONE
          : VectorIndex.Filter.of(Set.of(), Set.of(EntryType.FACT));
      // reference: every admitted live version with its best distance, in scan order; a stable sort by
      // distance puts the ties at the cut in scan order
      List<int[]> byDistance = new ArrayList<>();
      for (int bi = 0; bi < blocks.size(); bi++) {
        VectorBlock b = blocks.get(bi);
        long[] qb = new long[b.words];
        OneBit.signs(q, b.mean, qb, 0);
        for (int e = 0; e < b.entryCount; e++) {
          if (b.isDead(e) || !filter.admits(b.entries[e]) || b.rowCount[e] == 0) {
            continue;
          }
          int best = Integer.MAX_VALUE;
          for (int r = b.firstRow[e]; r < b.firstRow[e] + b.rowCount[e]; r++) {
            int h = 0;
            for (int w = 0; w < b.words; w++) {
              h += Long.bitCount(qb[w] ^ b.bits[r * b.words + w]);
            }
            best = Math.min(best, h);
          }
          byDistance.add(new int[] {bi, e, best});
        }
      }
      List<int[]> inScanOrder = new ArrayList<>(byDistance);
      byDistance.sort(java.util.Comparator.comparingInt(x -> x[2]));
      List<int[]> kept = byDistance.subList(0, Math.min(keep, byDistance.size()));
      if (kept.get(kept.size() - 1)[2] == byDistance.get(kept.size())[2]) {
        tiedAtTheCut++;
      }
      List<String> keptInScanOrder = new ArrayList<>();
      Set<int[]> keptSet = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
      keptSet.addAll(kept);
      for (int[] c : inScanOrder) {
        if (keptSet.contains(c)) {
          keptInScanOrder.add(blocks.get(c[0]).entries[c[1]].versionId());
        }
      }
      for (int parts = 1; parts <= 7; parts++) {
        List<String> candidates = new ArrayList<>();
        for (TopK.Candidate c : OneBit.pass(ScanSlices.partition(blocks, parts), q, keep, filter,
            java.util.concurrent.ForkJoinPool.commonPool())) {
          candidates.add(c.block().entries[c.entry()].versionId());
        }
        assertThat(candidates).as("trial %d, %d slices", trial, parts).isEqualTo(keptInScanOrder);
      }
      List<VectorIndex.Scored> expected = new ArrayList<>();
      for (int[] c : kept) {
        VectorBlock b = blocks.get(c[0]);
        float best = -2;
        for (int r = b.firstRow[c[1]]; r < b.firstRow[c[1]] + b.rowCount[c[1]]; r++) {
          best = Math.max(best, DotKernels.dot(q, b.data, r * dim, dim));
        }
        expected.add(new VectorIndex.Scored(b.entries[c[1]], best));
      }
      expected.sort(java.util.Comparator.comparingDouble((VectorIndex.Scored x) -> -x.cosine())
          .thenComparing(x -> x.entry().versionId(), java.util.Comparator.reverseOrder()));
      expected = expected.subList(0, depth);
      for (int parts = 1; parts <= 7; parts++) {
        assertThat(VectorIndex.search(blocks, new VectorIndex.Plan(true, parts, rows), q, -1f, depth, filter,
            java.util.concurrent.ForkJoinPool.commonPool())).as("trial %d, %d slices", trial, parts)
            .isEqualTo(expected);
      }
    }
    assertThat(tiedAtTheCut).as("trials with versions tied at the cut distance on both sides of it").isPositive();
  }

  /**
   * Below {@value VectorIndex#QUANTIZED_MIN_ROWS} rows the plan is exact even with quantization on, and the
   * search finds what only the exact scan finds: the nearest version's signs are the opposite of the
   * query's on all but one value (its cosine comes from that one large value), so its Hamming distance is
   * the largest of the block and a one-bit pass keeping {@link OneBit#candidates} of the 500 rows would drop
   * it. At the gate, the plan takes the one-bit pass.
   */
  @Test
  void smallSearchesAreExactEvenWhenQuantizationIsOn() {
    Random random = new Random(12);
    int dim = 64;
    List<MemoryEntry> es = new ArrayList<>();
    List<List<float[]>> vectors = new ArrayList<>();
    float[] q = new float[dim];
    float[] nearest = new float[dim];
    q[0] = 10;
    nearest[0] = 10;
    for (int d = 1; d < dim; d++) {
      q[d] = 0.5f;
      nearest[d] = -0.5f;
    }
    q = Embeddings.normalize(q, dim);
    for (int i = 0; i < 500; i++) {
      es.add(entry("a", i, EntryType.FACT));
      vectors.add(List.of(Embeddings.normalize(i == 250 ? nearest : gaussian(random, dim, 1f), dim)));
    }
    List<VectorBlock> blocks = List.of(VectorBlock.of("a", 1, 0, "p@" + dim, dim, es, vectors));
    int depth = 5;
    assertThat(OneBit.candidates(500, depth)).as("a one-bit pass would rescore only some rows").isLessThan(500);

    assertThat(VectorIndex.plan(blocks, 1, true).oneBit()).as("the plan below the gate").isFalse();
    List<VectorIndex.Scored> quantizedOn = VectorIndex.search(blocks, q, -1f, depth, VectorIndex.Filter.NONE,
        Runnable::run, 1, true);
    assertThat(quantizedOn.get(0).entry()).isEqualTo(es.get(250));
    assertThat(quantizedOn)
        .isEqualTo(VectorIndex.search(blocks, q, -1f, depth, VectorIndex.Filter.NONE, Runnable::run, 1, false));
    // what the gate keeps out: the one-bit pass over these rows loses the nearest version
    assertThat(VectorIndex.search(blocks, new VectorIndex.Plan(true, 1, 500), q, -1f, depth, VectorIndex.Filter.NONE,
        Runnable::run).get(0).entry()).isNotEqualTo(es.get(250));

    List<VectorBlock> atTheGate = List.of(block("b", 0, VectorIndex.QUANTIZED_MIN_ROWS, dim, random));
    assertThat(atTheGate.get(0).rows).isGreaterThanOrEqualTo(VectorIndex.QUANTIZED_MIN_ROWS);
    assertThat(VectorIndex.plan(atTheGate, 1, true).oneBit()).as("the plan at the gate").isTrue();
    assertThat(VectorIndex.plan(atTheGate, 1, false).oneBit()).as("quantization off").isFalse();
  }

  /** A refusing executor makes the calling thread scan every slice: same answer, no stall. */
  @Test
  void aRefusingScanExecutorSlowsTheSearchButGivesTheSameAnswer() {
    Random random = new Random(13);
    int dim = 256;
    List<VectorBlock> blocks = List.of(block("a", 0, 9000, dim, random), block("b", 100_000, 4000, dim, random));
    float[] q = Embeddings.normalize(gaussian(random, dim, 1f), dim);
    java.util.concurrent.Executor refusing = task -> {
      throw new java.util.concurrent.RejectedExecutionException("busy");
    };
    assertThat(VectorIndex.search(blocks, q, 0f, 100, VectorIndex.Filter.NONE, refusing, 4, false))
        .isEqualTo(VectorIndex.search(blocks, q, 0f, 100, VectorIndex.Filter.NONE, Runnable::run, 1, false));
  }

  private static float[] gaussian(Random random, int dim, float sigma) {
    float[] x = new float[dim];
    for (int d = 0; d < dim; d++) {
      x[d] = (float) random.nextGaussian() * sigma;
    }
    return x;
  }

  private static float[] plus(float[] a, float[] b) {
    float[] x = new float[a.length];
    for (int d = 0; d < a.length; d++) {
      x[d] = a[d] + b[d];
    }
    return x;
  }

  /** Rows appended one version at a time (growing every array) answer like a block built at once. */
  @Test
  void aBlockGrownByAppendsAnswersLikeOneBuiltAtOnce() {
    Random random = new Random(14);
    int dim = 384;
    VectorBlock whole = block("g", 0, 700, dim, random);
    VectorBlock.Backing grown = new VectorBlock.Backing(whole.profileId, dim, 0, 0, new float[dim]);
    for (int e = 0; e < whole.entryCount; e++) {
      List<float[]> vs = new ArrayList<>();
      for (int r = whole.firstRow[e]; r < whole.firstRow[e] + whole.rowCount[e]; r++) {
        vs.add(java.util.Arrays.copyOfRange(whole.data, r * dim, (r + 1) * dim));
      }
      grown.append(whole.entries[e], vs);
    }
    VectorBlock b;
    synchronized (grown) {
      b = grown.publish("g", 1, 0);
    }
    assertThat(b.rows).isEqualTo(whole.rows);
    for (int trial = 0; trial < 5; trial++) {
      float[] q = Embeddings.normalize(gaussian(random, dim, 1f), dim);
      for (boolean quantized : new boolean[] {false, true}) {
        assertThat(VectorIndex.search(List.of(b), q, -1f, 50, VectorIndex.Filter.NONE, Runnable::run, 1, quantized))
            .isEqualTo(VectorIndex.search(List.of(whole), q, -1f, 50, VectorIndex.Filter.NONE, Runnable::run, 1, false));
      }
    }
  }

  /**
   * The event-time filter is applied inside the scan: with the query nearest to versions outside the
   * interval, the best {@code depth} versions inside it come back (exactly so in an exact scan, only
   * from inside it in a quantized one), versions without event time never, and the bounds are
   * half-open to the nanosecond.
   */
  @Test
  void theEventTimeFilterIsAppliedInsideTheScan() {
    Random random = new Random(21);
    int dim = 48;
    Instant from = Instant.parse("2024-01-08T00:00:00Z");
    Instant to = Instant.parse("2024-01-15T00:00:00Z");
    float[] near = Embeddings.normalize(gaussian(random, dim, 1f), dim);
    List<MemoryEntry> es = new ArrayList<>();
    List<List<float[]>> vectors = new ArrayList<>();
    Set<String> inside = new java.util.HashSet<>();
    int n = VectorIndex.QUANTIZED_MIN_ROWS + 500;
    for (int i = 0; i < n; i++) {
      Instant occurred;
      if (i % 100 == 7) {
        occurred = i % 300 == 7 ? from : to.minusNanos(1 + i);
      } else if (i % 100 == 8) {
        occurred = i % 200 == 8 ? to : from.minusNanos(1);
      } else {
        occurred = i % 100 == 9 ? null : from.minusSeconds(86_400L * (1 + i % 30));
      }
      MemoryEntry e = entry("s", i, EntryType.FACT);
      e = new MemoryEntry(e.entryId(), e.versionId(), 1, null, "s", e.content(), e.topics(), e.type(), 2, null,
          List.of(), null, null, List.of(), e.contentHash(), EntryStatus.ACTIVE, null, occurred, e.createdAt(),
          e.updatedAt(), e.createdInRevision());
      es.add(e);
      if (i % 100 == 7) {
        inside.add(e.versionId());
      }
      // the versions outside the interval lie next to the query; those inside it farther away
      float sigma = i % 100 == 7 ? 1.5f : 0.3f;
      vectors.add(List.of(Embeddings.normalize(plus(near, gaussian(random, dim, sigma)), dim)));
    }
    List<VectorBlock> blocks = List.of(VectorBlock.of("s", 1, 0, "p@" + dim, dim, es, vectors));
    VectorIndex.Filter filter = new VectorIndex.Filter(Set.of(), Set.of(), from, to);
    List<VectorIndex.Scored> unfiltered = VectorIndex.search(blocks, near, -1f, 10, VectorIndex.Filter.NONE,
        Runnable::run, 1, false);
    assertThat(unfiltered).noneMatch(s -> inside.contains(s.entry().versionId()));

    List<VectorIndex.Scored> expected = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      if (inside.contains(es.get(i).versionId())) {
        expected.add(new VectorIndex.Scored(es.get(i), dot(near, vectors.get(i).get(0))));
      }
    }
    expected.sort((a, b) -> Float.compare(b.cosine(), a.cosine()));
    List<VectorIndex.Scored> exact = VectorIndex.search(blocks, near, -1f, 10, filter, Runnable::run, 1, false);
    assertThat(exact).extracting(s -> s.entry().versionId())
        .containsExactlyInAnyOrderElementsOf(expected.subList(0, 10).stream().map(s -> s.entry().versionId()).toList());
    List<VectorIndex.Scored> quick = VectorIndex.search(blocks, near, -1f, 10, filter, Runnable::run, 1, true);
    assertThat(quick).hasSize(10).allMatch(s -> inside.contains(s.entry().versionId()));
    assertThat(VectorIndex.search(blocks, near, -1f, 1000, filter, Runnable::run, 1, false))
        .hasSize(inside.size());
  }

  private static float dot(float[] a, float[] b) {
    float s = 0;
    for (int i = 0; i < a.length; i++) {
      s += a[i] * b[i];
    }
    return s;
  }

  @Test
  void unrolledDotMatchesTheNaiveSum() {
    Random random = new Random(2);
    for (int dim : new int[] {1, 7, 8, 9, 64, 383, 384}) {
      float[] q = new float[dim];
      float[] data = new float[dim * 3];
      for (int i = 0; i < dim; i++) {
        q[i] = random.nextFloat() - 0.5f;
      }
      for (int i = 0; i < data.length; i++) {
        data[i] = random.nextFloat() - 0.5f;
      }
      for (int row = 0; row < 3; row++) {
        double naive = 0;
        for (int i = 0; i < dim; i++) {
          naive += q[i] * data[row * dim + i];
        }
        assertThat((double) DotKernels.dot(q, data, row * dim, dim)).as("dim %d", dim)
            .isCloseTo(naive, org.assertj.core.data.Offset.offset(1e-4));
      }
    }
  }
}
