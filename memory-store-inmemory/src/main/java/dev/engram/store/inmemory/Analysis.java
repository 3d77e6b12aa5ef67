/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.inmemory;

import java.util.ArrayList;
import java.util.List;

/**
 * Turns text into index terms: Unicode word tokens (the core of the UAX #29 word-boundary rules),
 * English possessives dropped ({@code maria's} → {@code maria}), lowercased, Porter-stemmed.
 *
 * <p>Tokens are maximal runs of letters, digits, combining marks and connector punctuation
 * ({@code _}); an apostrophe, period, colon or middle dot between two letters and a comma, period,
 * semicolon or apostrophe between two digits stay inside the token ({@code don't}, {@code e.g},
 * {@code 3.14}, {@code 1,000}). Han ideographs and hiragana are one token per character. Tokens longer
 * than 255 characters are cut into pieces of 255.
 */
final class Analysis {
  static final int MAX_TOKEN_CHARS = 255;

  private static final ThreadLocal<PorterStemmer> STEMMER = ThreadLocal.withInitial(PorterStemmer::new);

  private Analysis() {}

  /** The terms of {@code text}, in order. */
  static List<String> terms(String text) {
    List<String> out = new ArrayList<>();
    PorterStemmer stemmer = STEMMER.get();
    int n = text.length();
    int i = 0;
    while (i < n) {
      int cp = text.codePointAt(i);
      int kind = kind(cp);
      if (kind == SINGLE) {
        int end = i + Character.charCount(cp);
        end = skipExtend(text, end);
        out.add(term(text.substring(i, end), stemmer));
        i = end;
        continue;
      }
      if (kind != LETTER && kind != DIGIT && kind != CONNECTOR) {
        i += Character.charCount(cp);
        continue;
      }
      int start = i;
      int lastKind = kind;
      boolean hasWordChar = kind != CONNECTOR;
      i += Character.charCount(cp);
      while (i < n) {
        int c = text.codePointAt(i);
        int k = kind(c);
        if (k == LETTER || k == DIGIT || k == CONNECTOR) {
          lastKind = k;
          hasWordChar |= k != CONNECTOR;
          i += Character.charCount(c);
        } else if (k == EXTEND) {
          i += Character.charCount(c);
        } else if (k == MID && i + Character.charCount(c) < n) {
          int after = text.codePointAt(i + Character.charCount(c));
          int afterKind = kind(after);
          boolean joinsLetters = lastKind == LETTER && afterKind == LETTER && midLetter(c);
          boolean joinsDigits = lastKind == DIGIT && afterKind == DIGIT && midNum(c);
          if (!joinsLetters && !joinsDigits) {
            break;
          }
          i += Character.charCount(c);
        } else {
          break;
        }
      }
      if (hasWordChar) {
        int from = start;
        while (from < i) {
          int to = Math.min(i, from + MAX_TOKEN_CHARS);
          if (to < i && Character.isHighSurrogate(text.charAt(to - 1))) {
            to--;
          }
          out.add(term(text.substring(from, to), stemmer));
          from = to;
        }
      }
    }
    return out;
  }

  private static String term(String token, PorterStemmer stemmer) {
    return stemmer.stem(lowercase(dropPossessive(token)));
  }

  /** {@code x's} → {@code x} (straight, curly or full-width apostrophe; s in either case). */
  private static String dropPossessive(String token) {
    int n = token.length();
    if (n >= 2) {
      char s = token.charAt(n - 1);
      char q = token.charAt(n - 2);
      if ((s == 's' || s == 'S') && (q == '\'' || q == '\u2019' || q == '\uFF07')) {
        return token.substring(0, n - 2);
      }
    }
    return token;
  }

  private static String lowercase(String token) {
    StringBuilder sb = null;
    for (int i = 0; i < token.length(); ) {
      int cp = token.codePointAt(i);
      int lower = Character.toLowerCase(cp);
      if (lower != cp && sb == null) {
        sb = new StringBuilder(token.length()).append(token, 0, i);
      }
      if (sb != null) {
        sb.appendCodePoint(lower);
      }
      i += Character.charCount(cp);
    }
    return sb == null ? token : sb.toString();
  }

  private static int skipExtend(String text, int i) {
    while (i < text.length()) {
      int c = text.codePointAt(i);
      if (kind(c) != EXTEND) {
        break;
      }
      i += Character.charCount(c);
    }
    return i;
  }

  private static final int OTHER = 0;
  private static final int LETTER = 1;
  private static final int DIGIT = 2;
  private static final int CONNECTOR = 3;
  private static final int EXTEND = 4;
  private static final int MID = 5;
  private static final int SINGLE = 6;

  private static int kind(int cp) {
    if (cp < 0x80) {
      if ((cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z')) {
        return LETTER;
      }
      if (cp >= '0' && cp <= '9') {
        return DIGIT;
      }
      if (cp == '_') {
        return CONNECTOR;
      }
      return cp == '\'' || cp == '.' || cp == ':' || cp == ',' || cp == ';' ? MID : OTHER;
    }
    if (cp == 0x200B) {
      return OTHER; // zero-width space separates words (it is Cf, but not a UAX #29 Format character)
    }
    switch (Character.getType(cp)) {
      case Character.NON_SPACING_MARK, Character.ENCLOSING_MARK, Character.COMBINING_SPACING_MARK, Character.FORMAT:
        return EXTEND;
      case Character.CONNECTOR_PUNCTUATION:
        return CONNECTOR;
      case Character.DECIMAL_DIGIT_NUMBER:
        return DIGIT;
      default:
        break;
    }
    if (Character.isLetter(cp) || Character.getType(cp) == Character.LETTER_NUMBER) {
      Character.UnicodeScript script = Character.UnicodeScript.of(cp);
      return script == Character.UnicodeScript.HAN || script == Character.UnicodeScript.HIRAGANA ? SINGLE : LETTER;
    }
    return midLetter(cp) || midNum(cp) ? MID : OTHER;
  }

  /** MidLetter and MidNumLet of UAX #29: may sit between two letters. */
  private static boolean midLetter(int cp) {
    return cp == '\'' || cp == '.' || cp == ':' || cp == 0x00B7 || cp == 0x2018 || cp == 0x2019 || cp == 0x2024
        || cp == 0x2027 || cp == 0xFE13 || cp == 0xFE52 || cp == 0xFE55 || cp == 0xFF07 || cp == 0xFF0E || cp == 0xFF1A;
  }

  /** MidNum and MidNumLet of UAX #29: may sit between two digits. */
  private static boolean midNum(int cp) {
    return cp == ',' || cp == ';' || cp == '.' || cp == '\'' || cp == 0x2018 || cp == 0x2019 || cp == 0x2024
        || cp == 0x037E || cp == 0x0589 || cp == 0x060C || cp == 0x060D || cp == 0x066C || cp == 0x07F8
        || cp == 0x2044 || cp == 0xFE10 || cp == 0xFE14 || cp == 0xFE50 || cp == 0xFE52 || cp == 0xFE54
        || cp == 0xFF07 || cp == 0xFF0C || cp == 0xFF0E || cp == 0xFF1B;
  }
}
