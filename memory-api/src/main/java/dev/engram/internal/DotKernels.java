/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.internal;

import java.util.List;

/**
 * The multiply-add kernels of the vector scan: the dot product of a query with one row, unrolled by
 * eight, and with four rows at once (the same sums, so a row scores the same either way), and the exact
 * rescoring of the one-bit pass's candidates.
 */
final class DotKernels {
  private DotKernels() {}

  /**
   * The exact cosine of each candidate (the best over its rows), in the order given. The candidates' rows
   * lie scattered over the blocks, so they are scored four at a time: the four rows' memory is fetched
   * together instead of one row's after another's, which about halves the time of reading them. Each row
   * is summed exactly as {@link #dot} sums it, so a rescored version scores what the exact scan gives it.
   */
  static float[] rescore(List<TopK.Candidate> chosen, float[] q) {
    int rows = 0;
    for (TopK.Candidate c : chosen) {
      rows += c.block().rowCount[c.entry()];
    }
    float[][] arrays = new float[rows][];
    int[] offsets = new int[rows];
    int n = 0;
    for (TopK.Candidate c : chosen) {
      VectorBlock b = c.block();
      for (int r = b.firstRow[c.entry()], end = r + b.rowCount[c.entry()]; r < end; r++) {
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
      TopK.Candidate c = chosen.get(k);
      float b = -2;
      for (int r = 0, count = c.block().rowCount[c.entry()]; r < count; r++) {
        b = Math.max(b, scores[n++]);
      }
      best[k] = b;
    }
    return best;
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
}
