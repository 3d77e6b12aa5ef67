/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.util.Objects;
import java.util.regex.Pattern;

/** The one rule for the open ids callers pass: origins of changes and agent runtimes. */
final class OpenIds {
  /** Lowercase ASCII letter first, then letters, digits or {@code -}; 1 to 32 characters. */
  static final Pattern PATTERN = Pattern.compile("[a-z][a-z0-9-]{0,31}");

  private OpenIds() {}

  /**
   * @param field the parameter's name, for the message
   * @param id the id
   * @return {@code id}
   * @throws InvalidInputException when {@code id} does not match {@link #PATTERN}
   */
  static String check(String field, String id) {
    Objects.requireNonNull(id, field);
    if (!PATTERN.matcher(id).matches()) {
      String shown = UntrustedText.inline(id);
      shown = shown.length() > 40 ? shown.substring(0, 40) + "…" : shown;
      throw new InvalidInputException(field, "'" + shown + "' is not a valid " + field
          + " id: use 1 to 32 lowercase letters, digits or '-', starting with a letter");
    }
    return id;
  }
}
