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
 * (at least three letters, compared without case), e.g. "What did Ana say about Porto?", or a capitalised
 * word of at least four letters spelled nearly like one (Jaro-Winkler similarity at least
 * {@value #NEAR_SPELLING}: "Muhammad" for the speaker "Muhhamed", "Nikolas" for "Nicolas"), since people
 * type names they have only heard.
 */
final class Speakers {
  /** The longest name before the colon. */
  static final int MAX_NAME_CHARS = 40;
  /** The shortest word of a name that a query can name the speaker by. */
  static final int MIN_WORD_CHARS = 3;
  /** The Jaro-Winkler similarity at or above which a capitalised query word names a speaker. */
  static final double NEAR_SPELLING = 0.85;
  /** The shortest capitalised query word compared by spelling. */
  static final int MIN_NEAR_CHARS = 4;

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
    Set<String> capitalised = new HashSet<>();
    for (String w : query.split("[^\\p{L}\\p{N}]+")) {
      if (w.length() >= MIN_NEAR_CHARS && Character.isUpperCase(w.codePointAt(0))) {
        capitalised.add(w.toLowerCase(Locale.ROOT));
      }
    }
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
        if (w.length() >= MIN_WORD_CHARS && (words.contains(w) || nearlySpelled(w, capitalised))) {
          out.add(s);
          break;
        }
      }
    }
    return out;
  }

  private static boolean nearlySpelled(String nameWord, Set<String> capitalised) {
    if (nameWord.length() < MIN_NEAR_CHARS) {
      return false;
    }
    for (String w : capitalised) {
      if (jaroWinkler(w, nameWord) >= NEAR_SPELLING) {
        return true;
      }
    }
    return false;
  }

  /** Jaro-Winkler similarity (prefix scale 0.1, prefix up to 4) of two strings, in [0, 1]. */
  static double jaroWinkler(String a, String b) {
    if (a.equals(b)) {
      return 1;
    }
    int la = a.length();
    int lb = b.length();
    if (la == 0 || lb == 0) {
      return 0;
    }
    int window = Math.max(0, Math.max(la, lb) / 2 - 1);
    boolean[] ma = new boolean[la];
    boolean[] mb = new boolean[lb];
    int matches = 0;
    for (int i = 0; i < la; i++) {
      for (int j = Math.max(0, i - window); j < Math.min(lb, i + window + 1); j++) {
        if (!mb[j] && a.charAt(i) == b.charAt(j)) {
          ma[i] = true;
          mb[j] = true;
          matches++;
          break;
        }
      }
    }
    if (matches == 0) {
      return 0;
    }
    int transpositions = 0;
    int k = 0;
    for (int i = 0; i < la; i++) {
      if (ma[i]) {
        while (!mb[k]) {
          k++;
        }
        if (a.charAt(i) != b.charAt(k)) {
          transpositions++;
        }
        k++;
      }
    }
    double m = matches;
    double jaro = (m / la + m / lb + (m - transpositions / 2.0) / m) / 3;
    int prefix = 0;
    while (prefix < Math.min(4, Math.min(la, lb)) && a.charAt(prefix) == b.charAt(prefix)) {
      prefix++;
    }
    return jaro + prefix * 0.1 * (1 - jaro);
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
