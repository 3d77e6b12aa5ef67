/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.spi;

import dev.engram.MemoryEntry;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The one text analysis of full-text search: every store indexes the terms it makes of an entry and
 * matches them against the terms it makes of a query, so a word is found on every store or on none.
 * Stores match terms exactly as given; they apply no tokenizer, stemmer or stopword list of their own.
 *
 * <p>The steps, in order:
 * <ol>
 *   <li>Normalization: Unicode NFKC, then case folding with the locale-independent simple mappings
 *       of each code point (lowercase of uppercase, so {@code İ}, {@code I} and {@code ı} all give
 *       {@code i} and final sigma gives sigma), then NFKC again. Ligatures, full-width and circled
 *       forms, Roman numerals and superscripts become their plain letters and digits:
 *       {@code ﬁ} → {@code fi}, {@code ＡＢＣ} → {@code abc}, {@code Ⅻ} → {@code xii}, {@code m²} →
 *       {@code m2}, {@code ①} → {@code 1}. Diacritics are kept ({@code café} ≠ {@code cafe}).</li>
 *   <li>Tokens: maximal runs of letters, digits, combining marks and connector punctuation
 *       ({@code _}). A period or apostrophe between two letters and a period, comma or apostrophe
 *       between two digits stay inside the token, so numbers, decimals and versions are single
 *       terms: {@code 3.14}, {@code 1,000}, {@code v2.1.3}, {@code e.g}, {@code o'brien}. Curly
 *       apostrophes become {@code '}. Han ideographs and hiragana are one token per character. A run
 *       of katakana (with the prolonged sound mark {@code ー}) or of Hangul is cut into overlapping
 *       pairs of characters, so a word is found inside a longer compound or before a particle:
 *       {@code ウェブフック} → {@code ウェ ェブ ブフ フッ ック} (and {@code フック} → {@code フッ ック}),
 *       {@code 웹훅은} → {@code 웹훅 훅은}; a run of one character is that character.
 *       Tokens longer than {@value #MAX_TERM_CHARS} characters are cut into pieces of that length.</li>
 *   <li>English clitics are cut off at their apostrophe: {@code 's}, {@code 't}, {@code 're},
 *       {@code 've}, {@code 'll}, {@code 'd}, {@code 'm} ({@code maria's} → {@code maria},
 *       {@code don't} → {@code don}).</li>
 *   <li>Stopwords ({@link #STOPWORDS}) are dropped.</li>
 *   <li>Stemming: tokens made only of the letters a–z are reduced with M. F. Porter's algorithm
 *       ({@code deploying} → {@code deploy}); tokens with digits, punctuation or other scripts are
 *       kept as they are.</li>
 * </ol>
 *
 * <p>The output contains no ASCII characters other than {@code a}–{@code z}, {@code 0}–{@code 9},
 * {@code _}, {@code '}, {@code .} and {@code ,}, and no whitespace. Terms joined by single spaces can
 * therefore be handed to an index whose tokenizer splits on ASCII spaces and punctuation other than
 * those four, and keeps every non-ASCII character, without any term changing.
 *
 * <p>An index built from these terms must be rebuilt when the analysis changes; {@link #VERSION}
 * names the analysis a store built its index with. Thread-safe.
 */
public final class TextAnalysis {
  /** The version of this analysis; it changes whenever the terms of some text change. */
  public static final int VERSION = 2;

  /** The longest term, in UTF-16 characters; longer tokens are cut into pieces. */
  public static final int MAX_TERM_CHARS = 255;

  /** Words too common to say anything about what a text or question is about; never terms. */
  public static final Set<String> STOPWORDS = Set.of(
      "a", "about", "above", "after", "again", "against", "all", "am", "an", "and", "any", "are", "as", "at",
      "be", "because", "been", "before", "being", "below", "between", "both", "but", "by", "can", "could",
      "did", "do", "does", "doing", "down", "during", "each", "few", "for", "from", "further", "had", "has",
      "have", "having", "he", "her", "here", "hers", "herself", "him", "himself", "his", "how", "i", "if",
      "in", "into", "is", "it", "its", "itself", "just", "me", "more", "most", "my", "myself", "no", "nor",
      "not", "now", "of", "off", "on", "once", "only", "or", "other", "our", "ours", "ourselves", "out",
      "over", "own", "same", "she", "should", "so", "some", "such", "than", "that", "the", "their",
      "theirs", "them", "themselves", "then", "there", "these", "they", "this", "those", "through", "to",
      "too", "under", "until", "up", "very", "was", "we", "were", "what", "when", "where", "which", "while",
      "who", "whom", "why", "will", "with", "would", "you", "your", "yours", "yourself", "yourselves",
      "s", "t", "d", "ll", "m", "re", "ve", "don", "didn", "doesn", "isn", "wasn", "aren", "weren", "won",
      "shouldn", "couldn", "wouldn", "hasn", "haven", "hadn", "mustn", "needn", "shan", "mightn", "ain",
      "also", "ever", "kind", "sort", "thing", "things", "something", "anything", "get", "got", "one");

  private static final Set<String> CLITICS = Set.of("s", "t", "re", "ve", "ll", "d", "m");

  private static final ThreadLocal<PorterStemmer> STEMMER = ThreadLocal.withInitial(PorterStemmer::new);

  private TextAnalysis() {}

  /** A sentence ends at '.', '!' or '?' followed by a space, once it is at least this long. */
  public static final int MIN_SENTENCE_CHARS = 20;

  private static final java.util.regex.Pattern WHITESPACE =
      java.util.regex.Pattern.compile("\\s+", java.util.regex.Pattern.UNICODE_CHARACTER_CLASS);

  /**
   * The sentences of a text, for views and summaries: whitespace collapsed, cut after '.', '!' or '?'
   * and a space once a sentence has {@value #MIN_SENTENCE_CHARS} characters (so "e.g. " and short
   * fragments stay attached); never empty (a text without a break is one sentence).
   *
   * @param text the text
   * @return its sentences, in order
   * @throws NullPointerException when {@code text} is null
   */
  public static List<String> sentences(String text) {
    String f = WHITESPACE.matcher(Objects.requireNonNull(text, "text")).replaceAll(" ").strip();
    List<String> out = new ArrayList<>();
    int start = 0;
    for (int i = 0; i < f.length() - 1; i++) {
      char c = f.charAt(i);
      if ((c == '.' || c == '!' || c == '?') && f.charAt(i + 1) == ' ' && i - start >= MIN_SENTENCE_CHARS) {
        out.add(f.substring(start, i + 1).strip());
        start = i + 2;
      }
    }
    if (start < f.length()) {
      out.add(f.substring(start).strip());
    }
    out.removeIf(String::isEmpty);
    if (out.isEmpty()) {
      out.add(f);
    }
    return out;
  }

  /**
   * The index terms of {@code text}, in order and with repeats (term frequencies count).
   *
   * @param text any text
   * @return its terms
   * @throws NullPointerException when {@code text} is null
   */
  public static List<String> terms(String text) {
    Objects.requireNonNull(text, "text");
    String s = normalize(text);
    List<String> out = new ArrayList<>();
    PorterStemmer stemmer = STEMMER.get();
    int n = s.length();
    int i = 0;
    while (i < n) {
      int cp = s.codePointAt(i);
      int kind = kind(cp);
      if (kind == SINGLE) {
        int end = skipExtend(s, i + Character.charCount(cp));
        add(out, s.substring(i, end), stemmer);
        i = end;
        continue;
      }
      if (kind == KATAKANA || kind == HANGUL) {
        i = bigrams(s, i, kind, out);
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
        int c = s.codePointAt(i);
        int k = kind(c);
        if (k == LETTER || k == DIGIT || k == CONNECTOR) {
          lastKind = k;
          hasWordChar |= k != CONNECTOR;
          i += Character.charCount(c);
        } else if (k == EXTEND) {
          i += Character.charCount(c);
        } else if (k == MID && i + Character.charCount(c) < n) {
          int afterKind = kind(s.codePointAt(i + Character.charCount(c)));
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
          int to = Math.min(i, from + MAX_TERM_CHARS);
          if (to < i && Character.isHighSurrogate(s.charAt(to - 1))) {
            to--;
          }
          add(out, s.substring(from, to), stemmer);
          from = to;
        }
      }
    }
    return out;
  }

  /**
   * The terms of a query: {@link #terms} deduplicated in order, at most {@code max}. A text made only
   * of stopwords and punctuation has no terms.
   *
   * @param text the query text
   * @param max the most terms kept
   * @return the distinct terms, first occurrences first
   */
  public static List<String> queryTerms(String text, int max) {
    List<String> out = new ArrayList<>(new LinkedHashSet<>(terms(text)));
    return List.copyOf(out.subList(0, Math.min(out.size(), Math.max(0, max))));
  }

  /**
   * The terms of the parts of a version that full text covers: its content up to
   * {@link FullTextQuery#MAX_INDEXED_CONTENT_CHARS}, glossary, disclosure and topics other than
   * {@link FullTextQuery#DEFAULT_TOPIC}.
   *
   * @param version the version
   * @return its terms, field by field
   */
  public static Fields fields(MemoryEntry version) {
    return fields(version.content(), version.glossary(), version.disclosure(), version.topics());
  }

  /**
   * The terms of a version's parts as {@link #fields(MemoryEntry)} makes them, from the parts.
   *
   * @param content the whole content (only its indexed prefix is analysed)
   * @param glossary the glossary terms
   * @param disclosure the disclosure, or null
   * @param topics all topics (the default topic is left out)
   * @return the terms, field by field
   */
  public static Fields fields(String content, List<String> glossary, @Nullable String disclosure, List<String> topics) {
    return new Fields(
        terms(FullTextQuery.indexedContent(content)),
        terms(String.join(" ", glossary)),
        disclosure == null ? List.of() : terms(disclosure),
        terms(FullTextQuery.indexedTopics(topics)));
  }

  /**
   * The index terms of one version, by field.
   *
   * @param content the terms of the indexed content
   * @param glossary the terms of the glossary
   * @param disclosure the terms of the disclosure (empty without one)
   * @param topics the terms of the indexed topics
   */
  public record Fields(List<String> content, List<String> glossary, List<String> disclosure, List<String> topics) {
    /**
     * Copies the lists.
     *
     * @param content the terms of the indexed content
     * @param glossary the terms of the glossary
     * @param disclosure the terms of the disclosure
     * @param topics the terms of the indexed topics
     * @throws NullPointerException when a list or an element of one is null
     */
    public Fields {
      content = List.copyOf(content);
      glossary = List.copyOf(glossary);
      disclosure = List.copyOf(disclosure);
      topics = List.copyOf(topics);
    }

    /**
     * Whether any field holds any of {@code terms}: the full-text match rule.
     *
     * @param terms query terms
     * @return true when the version matches
     */
    public boolean containsAny(Set<String> terms) {
      for (List<String> field : List.of(content, glossary, disclosure, topics)) {
        for (String t : field) {
          if (terms.contains(t)) {
            return true;
          }
        }
      }
      return false;
    }
  }

  /** NFKC, simple case folding, NFKC. */
  static String normalize(String text) {
    String s = Normalizer.normalize(text, Normalizer.Form.NFKC);
    StringBuilder sb = null;
    for (int i = 0; i < s.length(); ) {
      int cp = s.codePointAt(i);
      int folded = Character.toLowerCase(Character.toUpperCase(cp));
      if (folded != cp && sb == null) {
        sb = new StringBuilder(s.length()).append(s, 0, i);
      }
      if (sb != null) {
        sb.appendCodePoint(folded);
      }
      i += Character.charCount(cp);
    }
    if (sb == null) {
      return s;
    }
    String f = sb.toString();
    return Normalizer.isNormalized(f, Normalizer.Form.NFKC) ? f : Normalizer.normalize(f, Normalizer.Form.NFKC);
  }

  private static void add(List<String> out, String token, PorterStemmer stemmer) {
    String t = token.indexOf('\u2019') >= 0 || token.indexOf('\u2018') >= 0
        ? token.replace('\u2019', '\'').replace('\u2018', '\'') : token;
    int apostrophe = t.lastIndexOf('\'');
    if (apostrophe > 0 && CLITICS.contains(t.substring(apostrophe + 1))) {
      t = t.substring(0, apostrophe);
    }
    if (t.isEmpty() || STOPWORDS.contains(t)) {
      return;
    }
    out.add(asciiLetters(t) ? stemmer.stem(t) : t);
  }

  private static boolean asciiLetters(String t) {
    for (int i = 0; i < t.length(); i++) {
      char c = t.charAt(i);
      if (c < 'a' || c > 'z') {
        return false;
      }
    }
    return true;
  }

  /**
   * The run of {@code kind} characters (katakana, or Hangul syllables and jamo) starting at {@code start} as
   * overlapping pairs of characters, each character with the marks that follow it; a run of one character is
   * that character. Returns where the run ends.
   */
  private static int bigrams(String s, int start, int kind, List<String> out) {
    List<String> chars = new ArrayList<>();
    int i = start;
    while (i < s.length()) {
      int c = s.codePointAt(i);
      if (kind(c) != kind) {
        break;
      }
      int end = skipExtend(s, i + Character.charCount(c));
      chars.add(s.substring(i, end));
      i = end;
    }
    if (chars.size() == 1) {
      out.add(chars.get(0));
    }
    for (int k = 0; k + 1 < chars.size(); k++) {
      out.add(chars.get(k) + chars.get(k + 1));
    }
    return i;
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
  private static final int KATAKANA = 7;
  private static final int HANGUL = 8;

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
      return cp == '\'' || cp == '.' || cp == ',' ? MID : OTHER;
    }
    if (cp == 0x200B) {
      return OTHER; // zero-width space separates words (it is Cf, but not a UAX #29 Format character)
    }
    if (cp == 0x30FC) {
      return KATAKANA; // the prolonged sound mark (script Common) lengthens the katakana before it
    }
    switch (Character.getType(cp)) {
      case Character.NON_SPACING_MARK, Character.ENCLOSING_MARK, Character.COMBINING_SPACING_MARK, Character.FORMAT:
        return EXTEND;
      case Character.CONNECTOR_PUNCTUATION:
        return CONNECTOR;
      case Character.DECIMAL_DIGIT_NUMBER:
        return DIGIT;
      case Character.LETTER_NUMBER, Character.OTHER_NUMBER:
        return LETTER;
      default:
        break;
    }
    if (Character.isLetter(cp)) {
      Character.UnicodeScript script = Character.UnicodeScript.of(cp);
      return switch (script) {
        case HAN, HIRAGANA -> SINGLE;
        case KATAKANA -> KATAKANA;
        case HANGUL -> HANGUL;
        default -> LETTER;
      };
    }
    return midLetter(cp) || midNum(cp) ? MID : OTHER;
  }

  /** What may sit inside a token between two letters: a period or an apostrophe. */
  private static boolean midLetter(int cp) {
    return cp == '\'' || cp == '.' || cp == 0x2018 || cp == 0x2019;
  }

  /** What may sit inside a token between two digits: a period, a comma or an apostrophe. */
  private static boolean midNum(int cp) {
    return cp == ',' || cp == '.' || cp == '\'' || cp == 0x2018 || cp == 0x2019;
  }
}
