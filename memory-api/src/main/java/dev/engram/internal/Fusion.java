/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.internal;

import dev.engram.Grants;
import dev.engram.MemoryEntry;
import dev.engram.SearchChannel;
import dev.engram.SearchHit;
import dev.engram.SearchMode;
import dev.engram.SearchSettings;
import dev.engram.spi.ScoredEntry;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Fuses the ranked lists of a search's arms (full text and vectors, over the entries' own fields and over
 * their retrieval keys) into one ranking, each version once. {@link SearchSettings.Fusion#SCORE}: the sum
 * over the arms that found a version of {@code weight × its score scaled into (0, 1] over the arm's
 * candidates}; {@link SearchSettings.Fusion#RECIPROCAL_RANK}: the sum of {@code weight / (k + rank)}.
 * Every arm that finds a version adds to its score, so a version found by more arms never ranks below one
 * found by fewer at equal ranks. A vector search with the content arm alone ranks by cosine, a full-text
 * search with the content arm alone by BM25. Plus the priority bonus; ties go to the newer version.
 */
final class Fusion {
  /** What the last candidate of a channel contributes under score fusion (the best contributes 1). */
  static final double SCALED_MIN = 0.01;

  private final SearchSettings settings;

  Fusion(SearchSettings settings) {
    this.settings = settings;
  }

  /**
   * One ranked list of candidates that fusion takes: a channel over the entries' own fields or over their
   * retrieval keys, best first, with the channel's scores (BM25 or cosine) and its weight.
   */
  record Arm(SearchChannel channel, List<MemoryEntry> entries, double[] scores, double weight) {
    static Arm ofText(SearchChannel channel, List<ScoredEntry> hits, double weight) {
      List<MemoryEntry> entries = new ArrayList<>(hits.size());
      double[] scores = new double[hits.size()];
      for (int i = 0; i < hits.size(); i++) {
        entries.add(hits.get(i).entry());
        scores[i] = hits.get(i).score();
      }
      return new Arm(channel, entries, scores, weight);
    }

    static Arm ofVectors(SearchChannel channel, Grants grants, List<VectorIndex.Scored> hits, double weight) {
      List<MemoryEntry> entries = new ArrayList<>(hits.size());
      double[] kept = new double[hits.size()];
      for (VectorIndex.Scored h : hits) {
        if (grants.canSee(h.entry().scope()) && !BootNodes.isBootNode(h.entry())) {
          kept[entries.size()] = h.cosine();
          entries.add(h.entry());
        }
      }
      return new Arm(channel, entries, java.util.Arrays.copyOf(kept, entries.size()), weight);
    }
  }

  /** The arms fused into one ranking (see the class comment), the best {@code limit}. */
  List<SearchHit> fuse(List<Arm> arms, SearchMode used, int limit) {
    Map<String, Fused> byVersion = new LinkedHashMap<>();
    int k = settings.rrfK();
    boolean byScore = settings.fusion() == SearchSettings.Fusion.SCORE;
    // one arm found everything: its own scores (cosine, BM25), as without retrieval keys
    SearchChannel only = soleArm(arms);
    boolean cosineOnly = used == SearchMode.VECTOR && only == SearchChannel.VECTOR;
    boolean textOnly = used == SearchMode.FTS && only == SearchChannel.FTS;
    for (Arm arm : arms) {
      double[] range = range(arm.scores());
      for (int i = 0; i < arm.entries().size(); i++) {
        MemoryEntry e = arm.entries().get(i);
        Fused f = byVersion.computeIfAbsent(e.versionId(), x -> new Fused(e));
        f.by.add(arm.channel());
        double raw = arm.scores()[i];
        switch (arm.channel()) {
          case FTS -> {
            f.ftsRank = i + 1;
            f.textScore = raw;
          }
          case VECTOR -> f.cosine = raw;
          case KEY_VECTOR -> f.keyCosine = raw;
          default -> { }
        }
        if (arm.channel() == SearchChannel.VECTOR) {
          f.vectorRank = i + 1;
        }
        if (arm.weight() > 0) {
          f.score += arm.weight() * (byScore ? scaled(raw, range) : 1.0 / (k + i + 1));
        }
      }
    }
    List<SearchHit> hits = new ArrayList<>(byVersion.size());
    for (Fused f : byVersion.values()) {
      double score;
      if (cosineOnly) {
        score = f.cosine;
      } else if (textOnly) {
        score = f.textScore;
      } else {
        int p = f.entry.priority();
        score = f.score + (p == 0 ? settings.priorityBonus() : p == 1 ? settings.priorityBonus() / 2 : 0);
      }
      Double cosine = f.cosine != null ? f.cosine : f.keyCosine;
      hits.add(new SearchHit(f.entry, score, f.by, f.ftsRank, f.vectorRank, cosine));
    }
    hits.sort(Fusion::byScore);
    return hits.size() > limit ? List.copyOf(hits.subList(0, limit)) : hits;
  }

  /** The channel of the one arm that found anything, or null when none or several did. */
  private static @Nullable SearchChannel soleArm(List<Arm> arms) {
    SearchChannel only = null;
    for (Arm a : arms) {
      if (!a.entries().isEmpty()) {
        if (only != null) {
          return null;
        }
        only = a.channel();
      }
    }
    return only;
  }

  /** Best first; equal scores go to the newer version. */
  static int byScore(SearchHit a, SearchHit b) {
    int c = Double.compare(b.score(), a.score());
    return c != 0 ? c : b.entry().versionId().compareTo(a.entry().versionId());
  }

  /** The lowest and highest of a channel's scores ({@code [0, 0]} when it found nothing). */
  private static double[] range(double[] scores) {
    double lo = Double.POSITIVE_INFINITY;
    double hi = Double.NEGATIVE_INFINITY;
    for (double d : scores) {
      lo = Math.min(lo, d);
      hi = Math.max(hi, d);
    }
    return scores.length == 0 ? new double[] {0, 0} : new double[] {lo, hi};
  }

  /**
   * A channel score scaled into (0, 1] over the channel's candidates: the best is 1, the lowest
   * {@link #SCALED_MIN}, so that being found by a channel always adds to a candidate's score.
   */
  private static double scaled(double score, double[] range) {
    double span = range[1] - range[0];
    return span > 0 ? SCALED_MIN + (1 - SCALED_MIN) * (score - range[0]) / span : 1;
  }

  private static final class Fused {
    final MemoryEntry entry;
    final Set<SearchChannel> by = EnumSet.noneOf(SearchChannel.class);
    double score;
    Integer ftsRank;
    Integer vectorRank;
    Double cosine;
    Double keyCosine;
    double textScore;

    Fused(MemoryEntry entry) {
      this.entry = entry;
    }
  }
}
