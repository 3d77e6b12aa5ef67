/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

/** What kind of conclusion an entry holds. */
public enum EntryType {
  FACT,
  PREFERENCE,
  EVENT,
  SUMMARY,
  DECISION,
  CONSTRAINT;

  /** The lowercase wire name, e.g. {@code "preference"}. */
  public String wireName() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }

  /**
   * Parses a wire name, case-insensitively.
   *
   * @throws InvalidInputException if the name is not one of the types
   */
  public static EntryType fromWireName(String name) {
    java.util.Objects.requireNonNull(name, "type");
    for (EntryType t : values()) {
      if (t.name().equalsIgnoreCase(name.trim())) {
        return t;
      }
    }
    throw new InvalidInputException(
        "type", "unknown entry type '" + name + "'; expected one of " + java.util.Arrays.toString(values()));
  }
}
