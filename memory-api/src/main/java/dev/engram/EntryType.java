/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

/** What kind of conclusion an entry holds. */
public enum EntryType {
  /** Something true about the world or the user: identity, family, home, work, equipment, goals. */
  FACT,
  /** A lasting like, dislike or way the user wants things done. */
  PREFERENCE,
  /** Something that happened at a time (often with {@link MemoryEntry#occurredAt()}). */
  EVENT,
  /** A digest of several other memories or of a conversation. */
  SUMMARY,
  /** A choice that was made, and usually why. */
  DECISION,
  /** A hard rule or limit that must be respected. */
  CONSTRAINT;

  /** @return the lowercase wire name, e.g. {@code "preference"} */
  public String wireName() {
    return name().toLowerCase(java.util.Locale.ROOT);
  }

  /**
   * Parses a wire name, case-insensitively and ignoring surrounding whitespace.
   *
   * @param name a type name such as {@code "fact"}
   * @return the type
   * @throws NullPointerException if {@code name} is null
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
