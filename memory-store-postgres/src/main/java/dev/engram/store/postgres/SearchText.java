/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.postgres;

import java.text.Normalizer;
import java.util.Locale;

/**
 * The words of a text as PostgreSQL's full-text parser should see them: lowercase runs of letters
 * and digits separated by single spaces, cut the way {@link dev.engram.spi.FullTextQuery#terms} cuts
 * queries ({@code kate's} gives {@code kate}). Markup-looking text is words like any other; PostgreSQL's
 * parser alone would drop tags, entities and whatever sits between {@code <script>} tags.
 */
final class SearchText {
  private SearchText() {}

  static String words(String text) {
    String s = Normalizer.normalize(text, Normalizer.Form.NFKC).toLowerCase(Locale.ROOT);
    StringBuilder out = new StringBuilder(s.length());
    boolean inWord = false;
    for (int i = 0; i < s.length(); ) {
      int cp = s.codePointAt(i);
      i += Character.charCount(cp);
      if (Character.isLetterOrDigit(cp)) {
        if (!inWord && out.length() > 0) {
          out.append(' ');
        }
        out.appendCodePoint(cp);
        inWord = true;
      } else {
        if ((cp == '\'' || cp == '\u2019') && inWord) {
          while (i < s.length() && Character.isLetter(s.codePointAt(i))) {
            i += Character.charCount(s.codePointAt(i));
          }
        }
        inWord = false;
      }
    }
    return out.toString();
  }
}
