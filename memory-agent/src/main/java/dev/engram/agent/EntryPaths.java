/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.agent;

import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The path arguments of the path tools, checked before anything runs, with a message a model can act
 * on. The rule is the engine's path rule ({@code WriteOptions.Builder#path}): an optional domain
 * ({@code project://}: up to 32 lowercase letters, digits, {@code _} or {@code -}, starting with a
 * letter), then segments of letters, digits, {@code _}, {@code -} and {@code .}, no {@code .} or
 * {@code ..} segment, at most 256 characters. A path is an address inside the memory the grants give;
 * it never names a namespace. Caller text is echoed clipped, on one line.
 */
final class EntryPaths {
  /** The most characters of a path (the engine's limit). */
  static final int MAX_CHARS = 256;
  static final String EXAMPLE = "project://checkout_api/webhooks";
  private static final Pattern DOMAIN_ROOT = Pattern.compile("[a-z][a-z0-9_-]{0,31}://");
  private static final Pattern PATH =
      Pattern.compile("([a-z][a-z0-9_-]{0,31}://)?[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+)*");
  private static final int ECHO_CHARS = 80;

  private EntryPaths() {}

  /**
   * Checks a path an entry is written at or moved to.
   *
   * @param argument the argument's name, for the message
   * @return null when it is a path, else the problem
   */
  static @Nullable String problem(String argument, String raw) {
    if (raw.length() > MAX_CHARS) {
      return "'" + argument + "' is " + raw.length() + " characters; a path has at most " + MAX_CHARS;
    }
    String echo = Tools.clip(raw, ECHO_CHARS);
    int scheme = raw.indexOf("://");
    String rest = scheme >= 0 ? raw.substring(scheme + 3) : raw;
    if (scheme >= 0 && !DOMAIN_ROOT.matcher(raw.substring(0, scheme + 3)).matches()) {
      return "'" + argument + "' " + echo + " has no valid domain: a domain is 1 to 32 lowercase letters, digits, '_' "
          + "or '-' before '://', starting with a letter, e.g. " + EXAMPLE;
    }
    if (rest.isEmpty()) {
      return "'" + argument + "' " + echo + " is a domain root, not an entry's path; add segments, e.g. " + EXAMPLE;
    }
    for (String seg : rest.split("/", -1)) {
      if (seg.equals("..") || seg.equals(".")) {
        return "'" + argument + "' " + echo + " has a '" + seg + "' segment; a path is an address, never a relative "
            + "step";
      }
      if (seg.isEmpty()) {
        return "'" + argument + "' " + echo + " has an empty segment (a leading, trailing or doubled '/')";
      }
    }
    if (!PATH.matcher(raw).matches()) {
      return "'" + argument + "' " + echo + " is not a path: use domain://segment/segment with letters, digits, '_', "
          + "'-' and '.' in each segment, e.g. " + EXAMPLE;
    }
    return null;
  }

  /**
   * Checks a browse prefix: a domain root ({@code project://}) or a path, with or without a trailing
   * {@code /}.
   *
   * @return null when it is one, else the problem
   */
  static @Nullable String prefixProblem(String argument, String raw) {
    if (DOMAIN_ROOT.matcher(raw).matches()) {
      return null;
    }
    String trimmed = raw.endsWith("/") ? raw.substring(0, raw.length() - 1) : raw;
    if (DOMAIN_ROOT.matcher(trimmed).matches()) {
      return "'" + argument + "' " + Tools.clip(raw, ECHO_CHARS) + " has an empty segment (a doubled '/')";
    }
    return problem(argument, trimmed);
  }

  /** A checked browse prefix as the engine lists it: a domain root, or the path ending in {@code /}. */
  static String prefix(String raw) {
    return DOMAIN_ROOT.matcher(raw).matches() || raw.endsWith("/") ? raw : raw + "/";
  }
}
