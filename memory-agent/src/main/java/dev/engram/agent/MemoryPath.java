/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.agent;

import java.util.List;
import java.util.regex.Pattern;

/**
 * A path of the memory file view: {@code /memories} or a path below it, checked and mapped onto the
 * Lore path of the entry that holds the file ({@code /memories/notes/db.md} is
 * {@code memories://notes/db.md}). Nothing that is not a plain path below {@code /memories} parses: no
 * {@code ..} or {@code .} segment, no empty segment, no percent-encoding, no backslash, no other root.
 *
 * @param shown the path as the view names it ({@code /memories/notes/db.md}, never a trailing slash)
 * @param segments the segments below {@code /memories}; empty for {@code /memories} itself
 */
record MemoryPath(String shown, List<String> segments) {
  /** The root every path of the view lies below. */
  static final String ROOT = "/memories";
  /** The domain of the entries that hold the files. */
  static final String DOMAIN = "memories://";
  /** The most characters of an entry's path (the engine's limit). */
  static final int MAX_LORE_CHARS = 256;
  /** The characters a segment may use (the engine's path alphabet). */
  static final String ALPHABET = "letters, digits, '_', '-' and '.'";
  private static final Pattern SEGMENT = Pattern.compile("[A-Za-z0-9_.-]+");
  private static final int ECHO_CHARS = 120;

  MemoryPath {
    segments = List.copyOf(segments);
  }

  /** A path the view refuses; its message is the error text for the model. */
  static final class Refused extends Exception {
    private static final long serialVersionUID = 1L;

    Refused(String message) {
      super(message, null, false, false);
    }
  }

  static MemoryPath root() {
    return new MemoryPath(ROOT, List.of());
  }

  /**
   * Parses a path the model gave.
   *
   * @throws Refused with the error text when it is not a path below {@code /memories}
   */
  static MemoryPath parse(String raw) throws Refused {
    if (raw.isEmpty()) {
      throw new Refused("Error: The path is empty. Every memory path starts with " + ROOT + ", e.g. " + ROOT
          + "/notes.md");
    }
    String echo = echo(raw);
    if (raw.indexOf('%') >= 0) {
      throw new Refused("Error: The path " + echo + " contains '%'. Percent-encoded paths are not accepted; "
          + "write the path plainly below " + ROOT);
    }
    if (raw.indexOf('\\') >= 0) {
      throw new Refused("Error: The path " + echo + " contains a backslash. Memory paths use '/' between segments");
    }
    if (!raw.equals(ROOT) && !raw.startsWith(ROOT + "/")) {
      throw new Refused("Error: The path " + echo + " is outside " + ROOT + ". Every memory path starts with "
          + ROOT + "/");
    }
    String rest = raw.substring(ROOT.length());
    if (rest.endsWith("/")) {
      rest = rest.substring(0, rest.length() - 1);
    }
    if (rest.isEmpty()) {
      return root();
    }
    String[] parts = rest.substring(1).split("/", -1);
    for (String seg : parts) {
      if (seg.isEmpty()) {
        throw new Refused("Error: The path " + echo + " has an empty segment ('//')");
      }
      if (seg.equals(".") || seg.equals("..")) {
        throw new Refused("Error: The path " + echo + " contains a '" + seg + "' segment. Paths may not walk out of "
            + "or around " + ROOT);
      }
      if (!SEGMENT.matcher(seg).matches()) {
        throw new Refused("Error: The path " + echo + " has a segment with other characters than " + ALPHABET
            + ". Memory paths use those only");
      }
    }
    String shown = ROOT + "/" + String.join("/", parts);
    MemoryPath p = new MemoryPath(shown, List.of(parts));
    if (p.lore().length() > MAX_LORE_CHARS) {
      throw new Refused("Error: The path " + echo + " is too long: a memory path may have at most "
          + (MAX_LORE_CHARS - DOMAIN.length() + ROOT.length() + 1) + " characters");
    }
    return p;
  }

  /**
   * The view path of an entry path, or null when the entry path is not one the view shows.
   */
  static @org.jspecify.annotations.Nullable MemoryPath ofLore(String lore) {
    if (!lore.startsWith(DOMAIN) || lore.length() == DOMAIN.length()) {
      return null;
    }
    try {
      MemoryPath p = parse(ROOT + "/" + lore.substring(DOMAIN.length()));
      return p.isRoot() ? null : p;
    } catch (Refused e) {
      return null;
    }
  }

  boolean isRoot() {
    return segments.isEmpty();
  }

  /** The entry path: {@code memories://a/b}. */
  String lore() {
    return DOMAIN + String.join("/", segments);
  }

  /** The segments below {@code /memories} joined by {@code /}: {@code a/b}; empty for the root. */
  String relative() {
    return String.join("/", segments);
  }

  /** Whether {@code other} lies strictly below this path. */
  boolean isAncestorOf(MemoryPath other) {
    return other.segments.size() > segments.size() && other.segments.subList(0, segments.size()).equals(segments);
  }

  /** This path with {@code from}'s prefix replaced by {@code to}; {@code from} is this path or an ancestor. */
  MemoryPath moved(MemoryPath from, MemoryPath to) {
    List<String> out = new java.util.ArrayList<>(to.segments);
    out.addAll(segments.subList(from.segments.size(), segments.size()));
    return new MemoryPath(ROOT + "/" + String.join("/", out), out);
  }

  /** Caller text as an error shows it: one line, clipped. */
  static String echo(String raw) {
    return Tools.clip(raw, ECHO_CHARS);
  }
}
