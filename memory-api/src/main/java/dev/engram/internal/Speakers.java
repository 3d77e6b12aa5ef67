/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.internal;

import dev.engram.MemoryEntry;
import dev.engram.SearchHit;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Who said an entry, and which speakers a query names, for the speaker rule of search
 * ({@link dev.engram.SearchSettings#speakerBoost()}). An entry is said by someone when its content starts
 * with a short name and a colon ({@code "Ana Lima: I moved to Porto."}), the form captured conversation
 * turns are extracted in. A query names a speaker when it contains one of the words of the speaker's name
 * (at least three letters, compared without case), e.g. "What did Ana say about Porto?".
 */
final class Speakers {
  /** The longest name before the colon. */
  static final int MAX_NAME_CHARS = 40;
  /** The shortest word of a name that a query can name the speaker by. */
  static final int MIN_WORD_CHARS = 3;

  private Speakers() {}

  /** The speaker of {@code e} (the name before {@code ": "}), or null when its content does not start with one. */
  static @Nullable String of(MemoryEntry e) {
    String c = e.content();
    int colon = c.indexOf(": ");
    if (colon <= 0 || colon > MAX_NAME_CHARS) {
      return null;
    }
    String name = c.substring(0, colon);
    for (int i = 0; i < name.length(); i++) {
      char ch = name.charAt(i);
      if (!(Character.isLetter(ch) || ch == ' ' || ch == '-' || ch == '\'' || ch == '.')) {
        return null;
      }
    }
    return name;
  }

  /** The speakers of {@code hits} that {@code query} names. */
  static Set<String> named(String query, List<SearchHit> hits) {
    Set<String> words = words(query);
    Set<String> speakers = new LinkedHashSet<>();
    for (SearchHit h : hits) {
      String s = of(h.entry());
      if (s != null) {
        speakers.add(s);
      }
    }
    Set<String> out = new HashSet<>();
    for (String s : speakers) {
      for (String w : words(s)) {
        if (w.length() >= MIN_WORD_CHARS && words.contains(w)) {
          out.add(s);
          break;
        }
      }
    }
    return out;
  }

  private static Set<String> words(String text) {
    Set<String> out = new HashSet<>();
    for (String w : text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
      if (!w.isEmpty()) {
        out.add(w);
      }
    }
    return out;
  }
}
