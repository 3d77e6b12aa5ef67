/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.internal;

import dev.engram.ReviewItem;
import dev.engram.ReviewKind;
import dev.engram.ReviewProposal;
import dev.engram.ReviewState;
import dev.engram.spi.CurateOp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The pending items curation and extraction queue when the application turns review on for them, and
 * what each proposal names: its targets (the existing entries it changes) are what erasure of one of
 * them takes with it, and what a reviewer sees diffed.
 */
final class ReviewQueue {
  static final String CURATION = "curation";
  static final String EXTRACTION = "extraction";

  private ReviewQueue() {}

  /** A pending item for one curation op of {@code topic}. */
  static ReviewItem curation(String scope, String topic, CurateOp op, Instant now) {
    return new ReviewItem(Ids.next(), scope, ReviewKind.CURATION, ReviewState.PENDING, 1,
        new ReviewProposal.Curation(topic, op), targets(op), List.of(), CURATION, null, null, List.of(), now, now);
  }

  /** A pending item for one extracted memory; {@code atPath} is the active entry at its path, or null. */
  static ReviewItem extraction(String scope, ReviewProposal.Extraction proposal, List<String> evidence,
      @Nullable String atPath, Instant now) {
    return new ReviewItem(Ids.next(), scope, ReviewKind.EXTRACTION, ReviewState.PENDING, 1, proposal,
        atPath == null ? List.of() : List.of(atPath), evidence, EXTRACTION, null, null, List.of(), now, now);
  }

  /** The entry ids a curation op names, in order, each once. */
  static List<String> targets(CurateOp op) {
    LinkedHashSet<String> ids = new LinkedHashSet<>();
    if (op instanceof CurateOp.Merge m) {
      ids.add(m.keepEntryId());
      ids.addAll(m.duplicateEntryIds());
    } else if (op instanceof CurateOp.Rewrite r) {
      ids.add(r.entryId());
    } else if (op instanceof CurateOp.Retire r) {
      ids.add(r.entryId());
    } else if (op instanceof CurateOp.Compact k) {
      ids.addAll(k.entryIds());
    } else if (op instanceof CurateOp.SetCore s) {
      ids.add(s.entryId());
    }
    return new ArrayList<>(ids);
  }
}
