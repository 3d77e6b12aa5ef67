/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What one {@link Engram#flush} did.
 *
 * @param scopes the scopes whose cursor moved, in the order processed
 * @param windows windows committed (each: its new entries and the cursor advance, atomically)
 * @param appended new entries
 * @param updated new versions of entries at a path a candidate named
 * @param deduped candidates whose canonical content an active entry of the scope already held
 * @param skipped records of the committed windows that no new or deduplicated candidate cites (the
 *     reasoner found nothing in them worth keeping)
 * @param lost windows another flusher committed first; their candidates were discarded, nothing was
 *     written twice
 * @param failures windows whose extraction failed or whose candidates were invalid: nothing of such a
 *     window was written, its scope's cursor stays before it (the next flush tries it again), and that
 *     scope is not processed further in this call; the other scopes are
 * @param rejected candidates of committed windows that the commit refused (a candidate that would create
 *     or change a boot node): nothing of such a candidate was written, the rest of its window was
 * @param pending with review turned on for extraction ({@link EngramBuilder#review}): the memories queued
 *     for a person instead of committed, one {@link ReviewKind#EXTRACTION} item each, committed with their
 *     window's cursor advance (then {@code appended} and {@code updated} count nothing of them); empty otherwise
 */
public record FlushReport(List<String> scopes, int windows, int appended, int updated, int deduped, int skipped, int lost,
    List<Failure> failures, List<Rejected> rejected, List<ReviewItem> pending) {
  /**
   * Copies the lists.
   *
   * @param scopes the scopes whose cursor moved, in the order processed
   * @param windows windows committed
   * @param appended new entries
   * @param updated new versions of entries at a path a candidate named
   * @param deduped candidates whose canonical content the scope already held
   * @param skipped records of the committed windows that no candidate cites
   * @param lost windows another flusher committed first
   * @param failures windows that were not committed
   * @param rejected candidates the commit refused
   * @param pending the memories queued for review instead of committed; empty when review is off for
   *     extraction
   * @throws NullPointerException when a list or an element of one is null
   */
  public FlushReport {
    scopes = List.copyOf(scopes);
    failures = List.copyOf(failures);
    rejected = List.copyOf(rejected);
    pending = List.copyOf(pending);
  }

  /**
   * A report without queued memories.
   *
   * @param scopes the scopes whose cursor moved
   * @param windows windows committed
   * @param appended new entries
   * @param updated new versions at a path
   * @param deduped deduplicated candidates
   * @param skipped records no candidate cites
   * @param lost windows another flusher committed first
   * @param failures windows that were not committed
   * @param rejected candidates the commit refused
   */
  public FlushReport(List<String> scopes, int windows, int appended, int updated, int deduped, int skipped, int lost,
      List<Failure> failures, List<Rejected> rejected) {
    this(scopes, windows, appended, updated, deduped, skipped, lost, failures, rejected, List.of());
  }

  /**
   * A report without refused candidates.
   *
   * @param scopes the scopes whose cursor moved
   * @param windows windows committed
   * @param appended new entries
   * @param updated new versions at a path
   * @param deduped deduplicated candidates
   * @param skipped records no candidate cites
   * @param lost windows another flusher committed first
   * @param failures windows that were not committed
   */
  public FlushReport(List<String> scopes, int windows, int appended, int updated, int deduped, int skipped, int lost,
      List<Failure> failures) {
    this(scopes, windows, appended, updated, deduped, skipped, lost, failures, List.of());
  }

  /**
   * A report without failures.
   *
   * @param scopes the scopes whose cursor moved
   * @param windows windows committed
   * @param appended new entries
   * @param updated new versions at a path
   * @param deduped deduplicated candidates
   * @param skipped records no candidate cites
   * @param lost windows another flusher committed first
   */
  public FlushReport(List<String> scopes, int windows, int appended, int updated, int deduped, int skipped, int lost) {
    this(scopes, windows, appended, updated, deduped, skipped, lost, List.of(), List.of());
  }

  /**
   * Whether a window failed.
   *
   * @return true when {@link #failures()} is not empty
   */
  public boolean failed() {
    return !failures.isEmpty();
  }

  /**
   * One window that was not committed because the reasoner failed or answered with an invalid candidate.
   *
   * @param scope the window's scope
   * @param fromPosition the position of its first record
   * @param toPosition the position of its last record
   * @param code {@link ErrorCode#REASONER_FAILED} (the call failed) or {@link ErrorCode#INVALID_MODEL_OUTPUT}
   *     (the answer was refused)
   * @param message what went wrong, without content
   */
  public record Failure(String scope, long fromPosition, long toPosition, ErrorCode code, String message) {
    /**
     * Checks the required components.
     *
     * @param scope the window's scope
     * @param fromPosition the position of its first record
     * @param toPosition the position of its last record
     * @param code why it failed
     * @param message what went wrong, without content
     * @throws NullPointerException when {@code scope}, {@code code} or {@code message} is null
     */
    public Failure {
      java.util.Objects.requireNonNull(scope, "scope");
      java.util.Objects.requireNonNull(code, "code");
      java.util.Objects.requireNonNull(message, "message");
    }
  }

  /**
   * One candidate of a committed window that the commit refused; the records it cited count as skipped.
   *
   * @param scope the window's scope
   * @param candidate the candidate's index in the reasoner's answer for its window
   * @param path the path the candidate named, or null
   * @param reason why it was refused, without content
   */
  public record Rejected(String scope, int candidate, @Nullable String path, String reason) {
    /**
     * Checks the required components.
     *
     * @param scope the window's scope
     * @param candidate the candidate's index in the reasoner's answer, from 0
     * @param path the path the candidate named, or null
     * @param reason why it was refused, without content
     * @throws NullPointerException when {@code scope} or {@code reason} is null
     * @throws InvalidInputException when {@code candidate} is negative
     */
    public Rejected {
      java.util.Objects.requireNonNull(scope, "scope");
      java.util.Objects.requireNonNull(reason, "reason");
      if (candidate < 0) {
        throw new InvalidInputException("candidate", "must be >= 0, was " + candidate);
      }
    }
  }
}
