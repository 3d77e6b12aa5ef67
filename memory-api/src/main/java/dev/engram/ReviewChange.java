/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One line of a review item's diff against the current state: one field of one subject as it is now and
 * as approval would make it.
 *
 * @param subject what changes: {@code experience (new)}, {@code entry <id>}, {@code entry (new)},
 *     {@code topic <name>}
 * @param field the field: {@code situation}, {@code content}, {@code status}, {@code topics}, {@code blurb}, …
 * @param before its current value, or null when the subject does not exist yet (or the field is unset)
 * @param after its value after approval, or null when approval removes or supersedes it
 */
public record ReviewChange(String subject, String field, @Nullable String before, @Nullable String after) {
  /**
   * Checks the components are present.
   *
   * @param subject what changes
   * @param field the field of {@code subject} that changes
   * @param before its current value, or null
   * @param after its value after approval, or null
   * @throws NullPointerException when {@code subject} or {@code field} is null
   */
  public ReviewChange {
    Objects.requireNonNull(subject, "subject");
    Objects.requireNonNull(field, "field");
  }
}
