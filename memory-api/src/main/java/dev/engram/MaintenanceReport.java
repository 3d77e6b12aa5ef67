/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What one run of a {@link MaintenanceRunner} did.
 *
 * @param run the run's number for this runner, from 1
 * @param workerId the runner's worker id
 * @param startedAt when the run started (the engine's clock)
 * @param finishedAt when it ended
 * @param claims whether the work was claimed first (the store declares
 *     {@link dev.engram.spi.StoreCapability#WORK_CLAIMS}); without claims every dirty topic and pending scope
 *     of the grants was worked on directly
 * @param curations one report per curation call, in order: one per claimed scope with claims, one per grants
 *     without
 * @param flushes one report per flush call, in order: one per claimed scope with claims, one per grants without
 * @param topicsClaimedElsewhere dirty (scope, topic) pairs the run saw but could not claim: another worker
 *     holds them under its lease (or curated them meanwhile); left to that worker
 * @param scopesClaimedElsewhere scopes with pending sources the run saw but could not claim, for the same reason
 * @param failures what failed: each failure stopped its scope's work in this run only; the next run tries again
 */
public record MaintenanceReport(
    long run,
    String workerId,
    Instant startedAt,
    Instant finishedAt,
    boolean claims,
    List<CurateReport> curations,
    List<FlushReport> flushes,
    List<DirtyTopic> topicsClaimedElsewhere,
    List<String> scopesClaimedElsewhere,
    List<Failure> failures) {

  /**
   * Copies the lists.
   *
   * @param run the run's number, from 1
   * @param workerId the runner's worker id
   * @param startedAt when the run started
   * @param finishedAt when it ended
   * @param claims whether the work was claimed first
   * @param curations the curation reports
   * @param flushes the flush reports
   * @param topicsClaimedElsewhere dirty pairs held by another worker
   * @param scopesClaimedElsewhere pending scopes held by another worker
   * @param failures what failed
   * @throws NullPointerException when a component or a list element is null
   * @throws InvalidInputException when {@code run} is below 1
   */
  public MaintenanceReport {
    Objects.requireNonNull(workerId, "workerId");
    Objects.requireNonNull(startedAt, "startedAt");
    Objects.requireNonNull(finishedAt, "finishedAt");
    curations = List.copyOf(curations);
    flushes = List.copyOf(flushes);
    topicsClaimedElsewhere = List.copyOf(topicsClaimedElsewhere);
    scopesClaimedElsewhere = List.copyOf(scopesClaimedElsewhere);
    failures = List.copyOf(failures);
    if (run < 1) {
      throw new InvalidInputException("run", "must be >= 1, was " + run);
    }
  }

  /**
   * The (scope, topic) pairs curated in this run, over every curation call.
   *
   * @return the pairs, in order
   */
  public List<DirtyTopic> topicsCurated() {
    List<DirtyTopic> out = new ArrayList<>();
    for (CurateReport r : curations) {
      out.addAll(r.topicsCurated());
    }
    return List.copyOf(out);
  }

  /**
   * The scopes whose extraction cursor moved in this run, over every flush call.
   *
   * @return the scopes, in order
   */
  public List<String> scopesFlushed() {
    List<String> out = new ArrayList<>();
    for (FlushReport r : flushes) {
      out.addAll(r.scopes());
    }
    return List.copyOf(out);
  }

  /**
   * The flush windows committed in this run.
   *
   * @return the sum of {@link FlushReport#windows()}
   */
  public int windowsFlushed() {
    int n = 0;
    for (FlushReport r : flushes) {
      n += r.windows();
    }
    return n;
  }

  /**
   * Whether something failed.
   *
   * @return true when {@link #failures()} is not empty
   */
  public boolean failed() {
    return !failures.isEmpty();
  }

  /**
   * Whether the run found nothing to do: nothing curated or flushed, nothing skipped, nothing failed.
   *
   * @return true for an idle run
   */
  public boolean idle() {
    return topicsCurated().isEmpty() && windowsFlushed() == 0 && topicsClaimedElsewhere.isEmpty()
        && scopesClaimedElsewhere.isEmpty() && failures.isEmpty();
  }

  /** A maintenance task. */
  public enum Task {
    /** {@link Engram#curate} of dirty topics. */
    CURATE,
    /** {@link Engram#flush} of captured sources. */
    FLUSH
  }

  /**
   * One failure of a run.
   *
   * @param task what failed
   * @param scope the scope it failed for; null when it failed before reaching one (claiming, listing work)
   * @param code the error code of a {@link MemoryException} (a flush window's failure code included); null for
   *     another exception
   * @param message what went wrong, without content
   */
  public record Failure(Task task, @Nullable String scope, @Nullable ErrorCode code, String message) {
    /**
     * Checks the required components.
     *
     * @param task what failed
     * @param scope the scope, or null
     * @param code the error code, or null
     * @param message what went wrong
     * @throws NullPointerException when {@code task} or {@code message} is null
     */
    public Failure {
      Objects.requireNonNull(task, "task");
      Objects.requireNonNull(message, "message");
    }
  }
}
