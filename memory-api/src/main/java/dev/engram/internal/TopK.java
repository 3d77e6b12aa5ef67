/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;

/**
 * The best versions of a scan: a bounded heap of candidates, worst at its head, with one total order
 * (score, then the older version first) so that every split of a scan into slices keeps the same ones.
 */
final class TopK {
  private TopK() {}

  /** A version of a block and its score. */
  record Candidate(VectorBlock block, int entry, float score) {}

  /** A heap for the best {@code depth} candidates. */
  static PriorityQueue<Candidate> heap(int depth) {
    return new PriorityQueue<>(depth + 1, TopK::compare);
  }

  /** Puts {@code c} among the best {@code depth} of {@code top} when it beats the worst of them. */
  static void offer(PriorityQueue<Candidate> top, Candidate c, int depth) {
    if (top.size() < depth) {
      top.add(c);
    } else if (compare(c, top.peek()) > 0) {
      top.poll();
      top.add(c);
    }
  }

  /** Ascending: lower score first; among equal scores the older version first. */
  static int compare(Candidate a, Candidate b) {
    int c = Float.compare(a.score, b.score);
    return c != 0 ? c : a.block.entries[a.entry].versionId().compareTo(b.block.entries[b.entry].versionId());
  }

  /** The candidates of {@code top}, best first. */
  static List<Candidate> bestFirst(PriorityQueue<Candidate> top) {
    List<Candidate> ordered = new ArrayList<>(top);
    ordered.sort((a, b) -> compare(b, a));
    return ordered;
  }
}
