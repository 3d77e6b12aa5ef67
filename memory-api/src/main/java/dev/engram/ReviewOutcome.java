/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What an approval did.
 *
 * @param item the item, now {@link ReviewState#APPROVED}
 * @param entries the entry versions the approval made current (curation and extraction), in order
 * @param experience the experience version the approval recorded, or null
 * @param curationRunId for an approved curation op that changed entries: the run id that
 *     {@link Engram#undoCuration} takes to undo it, like a curation run's; otherwise null
 * @param warnings what the approval could not do as proposed (e.g. the extracted content was already held)
 */
public record ReviewOutcome(
    ReviewItem item, List<Citation> entries, @Nullable Experience experience, @Nullable String curationRunId,
    List<String> warnings) {
  /**
   * Validates and copies the components.
   *
   * @param item the item, now approved
   * @param entries the entry versions the approval made current, in order
   * @param experience the experience version the approval recorded, or null
   * @param curationRunId the run id that undoes an approved curation op, or null
   * @param warnings what the approval could not do as proposed
   * @throws NullPointerException when {@code item} or a list (or an element of one) is null
   */
  public ReviewOutcome {
    Objects.requireNonNull(item, "item");
    entries = List.copyOf(entries);
    warnings = List.copyOf(warnings);
  }
}
