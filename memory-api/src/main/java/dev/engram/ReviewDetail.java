/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.util.List;
import java.util.Objects;

/**
 * A review item with its diff against the state of the moment it was read.
 *
 * @param item the item
 * @param changes what approval would change, field by field (for a decided item: what its proposal
 *     changes against today's state)
 * @param warnings what makes approval likely to fail or differ from the proposal (an entry it names
 *     changed or is gone since it was queued), empty when none
 */
public record ReviewDetail(ReviewItem item, List<ReviewChange> changes, List<String> warnings) {
  /**
   * Validates and copies the components.
   *
   * @param item the item
   * @param changes what approval would change, field by field
   * @param warnings what makes approval likely to fail or differ from the proposal, empty when none
   * @throws NullPointerException when {@code item} or a list (or an element of one) is null
   */
  public ReviewDetail {
    Objects.requireNonNull(item, "item");
    changes = List.copyOf(changes);
    warnings = List.copyOf(warnings);
  }
}
