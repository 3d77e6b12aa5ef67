/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The disclosure check: a disclosure names the one future situation in which a memory should
 * surface. One missing on an entry with a path, one worded with OR, or one that lists several situations
 * is stored as written and reported as a warning on the result; an entry without a path needs none.
 */
final class DisclosureCheck {
  private static final Pattern OR = Pattern.compile("\\bor\\b|\\beither\\b|\\s/\\s|或");
  private static final Pattern WHEN = Pattern.compile("\\b(when|whenever|if)\\b");

  private DisclosureCheck() {}

  static List<String> warnings(@Nullable String disclosure, @Nullable String path) {
    if (disclosure == null) {
      // only a path entry (a Lore-style node, surfaced by its address) is expected to say when it matters
      return path == null ? List.of() : List.of("disclosure is missing: name the one future situation in which"
          + " this memory should surface (\"When …\")");
    }
    List<String> out = new ArrayList<>();
    String lower = disclosure.toLowerCase(Locale.ROOT);
    if (OR.matcher(lower).find()) {
      out.add("disclosure uses OR wording: name one situation, not alternatives (write one memory per situation)");
    }
    Matcher when = WHEN.matcher(lower);
    int situations = 0;
    while (when.find()) {
      situations++;
    }
    if (situations > 1 || lower.contains(";")) {
      out.add("disclosure names several situations: keep the one in which this memory matters most");
    }
    return List.copyOf(out);
  }
}
