/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.benchmarks.retrieval;

import dev.engram.benchmarks.retrieval.LocomoFile.Conversation;
import dev.engram.benchmarks.retrieval.LocomoFile.Session;
import dev.engram.benchmarks.retrieval.LocomoFile.Turn;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns a question into the query handed to {@code search}, for one conversation: whitespace is
 * collapsed, and a word that occurs nowhere in the conversation but is a near spelling of a
 * participant's name ("Muhammad" for the speaker "Muhhamed", "Nikolas" for "Nicolas") is replaced by
 * that name, since as written it could match nothing. Words the conversation contains are never
 * changed.
 */
final class QueryCleaner {
  /** Jaro-Winkler similarity at or above which an unknown word is taken for a participant's name. */
  static final double NAME_SIMILARITY = 0.8;
  static final int MIN_NAME_CHARS = 3;

  private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}]+");

  /** Lowercase name part → the name part as the speaker field spells it. */
  private final Map<String, String> names = new LinkedHashMap<>();
  private final Set<String> vocabulary = new HashSet<>();

  QueryCleaner(Conversation conversation) {
    for (Session s : conversation.sessions()) {
      for (Turn t : s.turns()) {
        addWords(t.speaker(), vocabulary);
        addWords(t.text(), vocabulary);
        Matcher m = WORD.matcher(t.speaker());
        while (m.find()) {
          String part = m.group();
          if (part.length() >= MIN_NAME_CHARS && Character.isLetter(part.charAt(0))) {
            names.putIfAbsent(part.toLowerCase(Locale.ROOT), capitalized(part));
          }
        }
      }
    }
  }

  String clean(String question) {
    String q = question.replaceAll("\\s+", " ").strip();
    Matcher m = WORD.matcher(q);
    StringBuilder out = new StringBuilder(q.length());
    int last = 0;
    while (m.find()) {
      out.append(q, last, m.start());
      out.append(correct(m.group()));
      last = m.end();
    }
    out.append(q.substring(last));
    return out.toString();
  }

  private String correct(String word) {
    String lower = word.toLowerCase(Locale.ROOT);
    if (lower.length() < MIN_NAME_CHARS || vocabulary.contains(lower) || !Character.isLetter(lower.charAt(0))) {
      return word;
    }
    String best = null;
    double bestScore = NAME_SIMILARITY;
    for (Map.Entry<String, String> n : names.entrySet()) {
      double s = jaroWinkler(lower, n.getKey());
      if (s >= bestScore) {
        best = n.getValue();
        bestScore = s;
      }
    }
    return best == null ? word : best;
  }

  private static void addWords(String text, Set<String> into) {
    Matcher m = WORD.matcher(text.toLowerCase(Locale.ROOT));
    while (m.find()) {
      into.add(m.group());
    }
  }

  private static String capitalized(String s) {
    return s.substring(0, 1).toUpperCase(Locale.ROOT) + s.substring(1);
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
}
