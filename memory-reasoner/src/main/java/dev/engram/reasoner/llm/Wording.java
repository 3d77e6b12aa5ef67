/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.reasoner.llm;

import java.util.HashSet;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The cheap check that a model's rewording adds no facts: it may not be much longer than its
 * source, and every number and every capitalised word that does not start a sentence (a name, most
 * likely) must appear in the source. It misses invented facts in plain lowercase words; it never
 * lets a new number, date or name through.
 */
final class Wording {
  private static final Pattern NUMBER = Pattern.compile("\\p{Nd}+");
  private static final Pattern WORD = Pattern.compile("\\p{L}[\\p{L}\\p{M}'’-]*");

  private Wording() {}

  /**
   * @param output the model's text
   * @param source everything the model was shown that the text may draw on
   * @param maxChars the length bound for the output
   * @return what the output adds, or null when it passes
   */
  static @Nullable String added(String output, String source, int maxChars) {
    if (output.length() > maxChars) {
      return "it is " + output.length() + " characters, more than the " + maxChars
          + " a rewording of its source may take";
    }
    Set<String> numbers = new HashSet<>();
    Matcher n = NUMBER.matcher(source);
    while (n.find()) {
      numbers.add(n.group());
    }
    Matcher on = NUMBER.matcher(output);
    while (on.find()) {
      if (!numbers.contains(on.group())) {
        return "it adds the number " + on.group() + ", which the source does not contain";
      }
    }
    Set<String> words = new HashSet<>();
    Matcher w = WORD.matcher(source);
    while (w.find()) {
      words.add(w.group().toLowerCase(Locale.ROOT));
    }
    Matcher ow = WORD.matcher(output);
    while (ow.find()) {
      String word = ow.group();
      if (Character.isUpperCase(word.codePointAt(0)) && !sentenceStart(output, ow.start())
          && !words.contains(word.toLowerCase(Locale.ROOT)) && !word.equals("I")) {
        return "it adds the name '" + word + "', which the source does not contain";
      }
    }
    return null;
  }

  /** Length bound for a rewording of {@code source}. */
  static int bound(String source) {
    return source.length() * 3 / 2 + 40;
  }

  private static boolean sentenceStart(String s, int at) {
    int i = at - 1;
    while (i >= 0 && (s.charAt(i) == ' ' || s.charAt(i) == '"' || s.charAt(i) == '“' || s.charAt(i) == '('
        || s.charAt(i) == '\'' || s.charAt(i) == '*' || s.charAt(i) == '-')) {
      if (s.charAt(i) == '-' && i > 0 && s.charAt(i - 1) != ' ' && s.charAt(i - 1) != '\n') {
        return false;
      }
      i--;
    }
    if (i < 0) {
      return true;
    }
    char c = s.charAt(i);
    return c == '.' || c == '!' || c == '?' || c == ':' || c == ';' || c == '\n';
  }
}
