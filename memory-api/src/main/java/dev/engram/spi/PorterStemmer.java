/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.spi;

/**
 * M. F. Porter's suffix-stripping algorithm ("An algorithm for suffix stripping", 1980) for lowercase
 * English words, with the two departures of the author's own reference implementation ({@code -bli}
 * becomes {@code -ble}, {@code -logi} becomes {@code -log}). Words of one or two characters are left
 * alone. Characters other than a–z count as
 * consonants, so words of other scripts pass through unchanged unless they end in an English suffix.
 *
 * <p>Not thread-safe: one instance per thread ({@link TextAnalysis} keeps one per thread).
 */
final class PorterStemmer {
  private char[] b = new char[64];
  /** Index of the last character of the word being stemmed. */
  private int k;
  /** End of the stem under test (index of its last character), set by {@link #ends}. */
  private int j;

  /** The stem of {@code word} (expected in lowercase). */
  String stem(String word) {
    int n = word.length();
    if (n <= 2) {
      return word;
    }
    if (b.length < n) {
      b = new char[n + 16];
    }
    word.getChars(0, n, b, 0);
    k = n - 1;
    step1ab();
    if (k > 0) {
      step1c();
      step2();
      step3();
      step4();
      step5();
    }
    return new String(b, 0, k + 1);
  }

  /** True when b[i] is a consonant: not a, e, i, o, u, and not a y after a consonant. */
  private boolean cons(int i) {
    switch (b[i]) {
      case 'a', 'e', 'i', 'o', 'u':
        return false;
      case 'y':
        return i == 0 || !cons(i - 1);
      default:
        return true;
    }
  }

  /** The measure m of b[0..j]: the number of vowel-consonant sequences in [C](VC){m}[V]. */
  private int m() {
    int n = 0;
    int i = 0;
    while (true) {
      if (i > j) {
        return n;
      }
      if (!cons(i)) {
        break;
      }
      i++;
    }
    i++;
    while (true) {
      while (true) {
        if (i > j) {
          return n;
        }
        if (cons(i)) {
          break;
        }
        i++;
      }
      i++;
      n++;
      while (true) {
        if (i > j) {
          return n;
        }
        if (!cons(i)) {
          break;
        }
        i++;
      }
      i++;
    }
  }

  /** True when b[0..j] contains a vowel. */
  private boolean vowelInStem() {
    for (int i = 0; i <= j; i++) {
      if (!cons(i)) {
        return true;
      }
    }
    return false;
  }

  /** True when b[i-1..i] is a double consonant. */
  private boolean doubleC(int i) {
    return i >= 1 && b[i] == b[i - 1] && cons(i);
  }

  /**
   * True when b[i-2..i] is consonant-vowel-consonant and the last consonant is not w, x or y: the
   * condition for restoring an e (cav(e), lov(e), hop(e)) or keeping one.
   */
  private boolean cvc(int i) {
    if (i < 2 || !cons(i) || cons(i - 1) || !cons(i - 2)) {
      return false;
    }
    char ch = b[i];
    return ch != 'w' && ch != 'x' && ch != 'y';
  }

  /** True when b[0..k] ends with {@code s}; then j marks the end of what precedes it. */
  private boolean ends(String s) {
    int l = s.length();
    int o = k - l + 1;
    if (o < 0) {
      return false;
    }
    for (int i = 0; i < l; i++) {
      if (b[o + i] != s.charAt(i)) {
        return false;
      }
    }
    j = k - l;
    return true;
  }

  /** Replaces b[j+1..k] with {@code s}. */
  private void setTo(String s) {
    int l = s.length();
    if (b.length < j + 1 + l) {
      b = java.util.Arrays.copyOf(b, j + 1 + l + 16);
    }
    s.getChars(0, l, b, j + 1);
    k = j + l;
  }

  /** {@link #setTo} when the stem's measure is positive. */
  private void replace(String s) {
    if (m() > 0) {
      setTo(s);
    }
  }

  /** Plurals and -ed / -ing: caresses → caress, ponies → poni, hopping → hop, agreed → agree. */
  private void step1ab() {
    if (b[k] == 's') {
      if (ends("sses")) {
        k -= 2;
      } else if (ends("ies")) {
        setTo("i");
      } else if (b[k - 1] != 's') {
        k--;
      }
    }
    if (ends("eed")) {
      if (m() > 0) {
        k--;
      }
    } else if ((ends("ed") || ends("ing")) && vowelInStem()) {
      k = j;
      if (ends("at")) {
        setTo("ate");
      } else if (ends("bl")) {
        setTo("ble");
      } else if (ends("iz")) {
        setTo("ize");
      } else if (doubleC(k)) {
        k--;
        char ch = b[k];
        if (ch == 'l' || ch == 's' || ch == 'z') {
          k++;
        }
      } else if (m() == 1 && cvc(k)) {
        setTo("e");
      }
    }
  }

  /** A final y after a vowel-bearing stem becomes i: happy → happi. */
  private void step1c() {
    if (ends("y") && vowelInStem()) {
      b[k] = 'i';
    }
  }

  /** Double suffixes to single ones: relational → relate, conditional → condition. */
  private void step2() {
    if (k == 0) {
      return;
    }
    switch (b[k - 1]) {
      case 'a' -> {
        if (ends("ational")) {
          replace("ate");
        } else if (ends("tional")) {
          replace("tion");
        }
      }
      case 'c' -> {
        if (ends("enci")) {
          replace("ence");
        } else if (ends("anci")) {
          replace("ance");
        }
      }
      case 'e' -> {
        if (ends("izer")) {
          replace("ize");
        }
      }
      case 'l' -> {
        if (ends("bli")) {
          replace("ble");
        } else if (ends("alli")) {
          replace("al");
        } else if (ends("entli")) {
          replace("ent");
        } else if (ends("eli")) {
          replace("e");
        } else if (ends("ousli")) {
          replace("ous");
        }
      }
      case 'o' -> {
        if (ends("ization")) {
          replace("ize");
        } else if (ends("ation")) {
          replace("ate");
        } else if (ends("ator")) {
          replace("ate");
        }
      }
      case 's' -> {
        if (ends("alism")) {
          replace("al");
        } else if (ends("iveness")) {
          replace("ive");
        } else if (ends("fulness")) {
          replace("ful");
        } else if (ends("ousness")) {
          replace("ous");
        }
      }
      case 't' -> {
        if (ends("aliti")) {
          replace("al");
        } else if (ends("iviti")) {
          replace("ive");
        } else if (ends("biliti")) {
          replace("ble");
        }
      }
      case 'g' -> {
        if (ends("logi")) {
          replace("log");
        }
      }
      default -> { }
    }
  }

  /** -ic-, -full, -ness and the like: electrical → electric, hopeful → hope. */
  private void step3() {
    switch (b[k]) {
      case 'e' -> {
        if (ends("icate")) {
          replace("ic");
        } else if (ends("ative")) {
          replace("");
        } else if (ends("alize")) {
          replace("al");
        }
      }
      case 'i' -> {
        if (ends("iciti")) {
          replace("ic");
        }
      }
      case 'l' -> {
        if (ends("ical")) {
          replace("ic");
        } else if (ends("ful")) {
          replace("");
        }
      }
      case 's' -> {
        if (ends("ness")) {
          replace("");
        }
      }
      default -> { }
    }
  }

  /** Strips -ant, -ence, -ment and the like from a stem of measure above 1: adjustment → adjust. */
  private void step4() {
    if (k == 0) {
      return;
    }
    boolean matched = switch (b[k - 1]) {
      case 'a' -> ends("al");
      case 'c' -> ends("ance") || ends("ence");
      case 'e' -> ends("er");
      case 'i' -> ends("ic");
      case 'l' -> ends("able") || ends("ible");
      case 'n' -> ends("ant") || ends("ement") || ends("ment") || ends("ent");
      case 'o' -> (ends("ion") && j >= 0 && (b[j] == 's' || b[j] == 't')) || ends("ou");
      case 's' -> ends("ism");
      case 't' -> ends("ate") || ends("iti");
      case 'u' -> ends("ous");
      case 'v' -> ends("ive");
      case 'z' -> ends("ize");
      default -> false;
    };
    if (matched && m() > 1) {
      k = j;
    }
  }

  /** Drops a final e (probate → probat, not cease) and undoubles a final ll (controll → control). */
  private void step5() {
    j = k;
    if (b[k] == 'e') {
      int a = m();
      if (a > 1 || (a == 1 && !cvc(k - 1))) {
        k--;
      }
    }
    if (b[k] == 'l' && doubleC(k) && m() > 1) {
      k--;
    }
  }
}
