/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.util.List;

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
 */
public record FlushReport(List<String> scopes, int windows, int appended, int updated, int deduped, int skipped, int lost) {
  public FlushReport {
    scopes = List.copyOf(scopes);
  }
}
