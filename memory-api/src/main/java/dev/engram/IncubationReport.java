/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.util.List;

/**
 * What one {@link Experiences#incubate} did.
 *
 * @param reasonerIncubates false when the reasoner does not incubate experience (the deterministic
 *     reasoner): nothing was read or queued, and the cursors did not move
 * @param scopes the scopes whose incubation cursor moved, in the order processed
 * @param windows windows committed (each: its pending items and the cursor advance, atomically)
 * @param outcomes captured task outcomes the committed windows showed the reasoner
 * @param pending the pending experience items queued for review, in order
 * @param failures windows whose incubation failed or whose answer was refused: nothing of such a window
 *     was queued, its scope's cursor stays before it (the next call tries it again), and that scope is not
 *     processed further in this call
 */
public record IncubationReport(
    boolean reasonerIncubates, List<String> scopes, int windows, int outcomes, List<ReviewItem> pending,
    List<FlushReport.Failure> failures) {
  /**
   * Copies the lists.
   *
   * @param reasonerIncubates false when the reasoner does not incubate experience
   * @param scopes the scopes whose incubation cursor moved, in the order processed
   * @param windows windows committed
   * @param outcomes captured task outcomes the committed windows showed the reasoner
   * @param pending the pending experience items queued for review, in order
   * @param failures windows that were not committed
   * @throws NullPointerException when a list or an element of one is null
   */
  public IncubationReport {
    scopes = List.copyOf(scopes);
    pending = List.copyOf(pending);
    failures = List.copyOf(failures);
  }

  /** @return whether a window failed */
  public boolean failed() {
    return !failures.isEmpty();
  }
}
