/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What {@link Engram#curate(Grants)} did.
 *
 * @param reasonerCurates false when the reasoner has no curate step: nothing was done and topics stay dirty
 * @param topicsCurated the (scope, topic) pairs that went through the reasoner and were marked curated
 * @param applied descriptions of the operations applied, in order
 * @param rejected descriptions of proposed operations that failed validation, with the reason
 * @param topicsRemaining dirty (scope, topic) pairs the call left for later because it stopped at
 *     {@link #MAX_TOPICS_PER_CALL}; call {@code curate} again to work through them
 * @param runId identifies this run for {@link Engram#undoCuration}; null when nothing was applied
 * @param pending with review turned on for curation ({@link EngramBuilder#review}): the ops queued for a
 *     person instead of applied, one {@link ReviewKind#CURATION} item each (then {@code applied} is empty
 *     and memory is unchanged); empty otherwise
 */
public record CurateReport(
    boolean reasonerCurates, List<DirtyTopic> topicsCurated, List<String> applied, List<String> rejected,
    int topicsRemaining, @Nullable String runId, List<ReviewItem> pending) {
  /** The most (scope, topic) pairs one {@code curate} call sends through the reasoner. */
  public static final int MAX_TOPICS_PER_CALL = 50;

  /**
   * The most operations the reasoner may propose for one topic; a longer proposal is refused as a
   * whole with a {@link ReasonerException} before any of it is applied.
   */
  public static final int MAX_OPS_PER_TOPIC = 200;

  /**
   * A report without queued ops.
   *
   * @param reasonerCurates whether the reasoner has a curate step
   * @param topicsCurated the pairs curated
   * @param applied the operations applied
   * @param rejected the operations rejected, with the reason
   * @param topicsRemaining dirty pairs left for a later call
   * @param runId the run id, or null
   */
  public CurateReport(
      boolean reasonerCurates, List<DirtyTopic> topicsCurated, List<String> applied, List<String> rejected,
      int topicsRemaining, @Nullable String runId) {
    this(reasonerCurates, topicsCurated, applied, rejected, topicsRemaining, runId, List.of());
  }

  /**
   * A report without a run id.
   *
   * @param reasonerCurates whether the reasoner has a curate step
   * @param topicsCurated the pairs curated
   * @param applied the operations applied
   * @param rejected the operations rejected, with the reason
   * @param topicsRemaining dirty pairs left for a later call
   */
  public CurateReport(
      boolean reasonerCurates, List<DirtyTopic> topicsCurated, List<String> applied, List<String> rejected,
      int topicsRemaining) {
    this(reasonerCurates, topicsCurated, applied, rejected, topicsRemaining, null, List.of());
  }

  /** @return true when dirty topics remain beyond this call's cap */
  public boolean topicsRemainDirty() {
    return topicsRemaining > 0;
  }

  /**
   * @param id the run id
   * @return this report with {@code id} as its run id
   */
  public CurateReport withRunId(@Nullable String id) {
    return new CurateReport(reasonerCurates, topicsCurated, applied, rejected, topicsRemaining, id, pending);
  }

  /**
   * Copies the lists and checks the count.
   *
   * @param reasonerCurates whether the reasoner has a curate step
   * @param topicsCurated the pairs curated
   * @param applied the operations applied, in order
   * @param rejected the operations rejected, with the reason
   * @param topicsRemaining dirty pairs left for a later call, {@code >= 0}
   * @param runId the run id, or null when nothing was applied
   * @param pending the curation ops queued for review instead of applied, one {@link ReviewKind#CURATION}
   *     item each; empty when review is off for curation
   * @throws NullPointerException when a list or an element of one is null
   * @throws InvalidInputException when {@code topicsRemaining} is negative
   */
  public CurateReport {
    topicsCurated = List.copyOf(topicsCurated);
    applied = List.copyOf(applied);
    rejected = List.copyOf(rejected);
    pending = List.copyOf(pending);
    if (topicsRemaining < 0) {
      throw new InvalidInputException("topicsRemaining", "must be >= 0, was " + topicsRemaining);
    }
  }

  /**
   * A report that left no dirty topic behind.
   *
   * @param reasonerCurates whether the reasoner has a curate step
   * @param topicsCurated the pairs curated
   * @param applied the operations applied
   * @param rejected the operations rejected, with the reason
   */
  public CurateReport(
      boolean reasonerCurates, List<DirtyTopic> topicsCurated, List<String> applied, List<String> rejected) {
    this(reasonerCurates, topicsCurated, applied, rejected, 0);
  }
}
