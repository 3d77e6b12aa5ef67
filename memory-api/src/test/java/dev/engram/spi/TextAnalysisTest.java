/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.spi;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.LowerCaseFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.Tokenizer;
import org.apache.lucene.analysis.en.EnglishPossessiveFilter;
import org.apache.lucene.analysis.en.PorterStemFilter;
import org.apache.lucene.analysis.standard.StandardTokenizer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.junit.jupiter.api.Test;

/**
 * The one text analysis: its Porter stemmer agrees with Lucene's on words built to reach every rule of
 * the algorithm, and its normalization and tokenization give the documented terms for the Unicode,
 * number and version forms memory holds.
 */
class TextAnalysisTest {
  private static final Analyzer LUCENE = new Analyzer() {
    @Override
    protected TokenStreamComponents createComponents(String fieldName) {
      Tokenizer source = new StandardTokenizer();
      TokenStream ts = new EnglishPossessiveFilter(source);
      ts = new LowerCaseFilter(ts);
      ts = new PorterStemFilter(ts);
      return new TokenStreamComponents(source, ts);
    }
  };

  private static final String[] STEMS = {
    "relat", "condit", "valen", "hesit", "digit", "conform", "radic", "differ", "vile", "analog", "sensit",
    "formal", "electr", "hope", "good", "adjust", "depend", "adopt", "commun", "activ", "bowdler", "homolog",
    "effect", "replac", "irrit", "gener", "caress", "poni", "ti", "cat", "feed", "agre", "plaster", "bled",
    "motor", "sing", "conflat", "troubl", "siz", "hop", "tann", "fall", "hiss", "fizz", "fail", "fil", "happ",
    "sky", "triplic", "formativ", "nation", "ration", "decis", "ration", "cry", "say", "play", "toy", "enjoy",
    "controll", "roll", "probat", "rate", "ceas", "a", "an", "be", "by", "oat", "tree", "sses", "xy", "yy"};
  private static final String[] SUFFIXES = {
    "", "s", "es", "ies", "sses", "ss", "eed", "ed", "ing", "ings", "at", "ate", "ated", "ating", "bl", "ble",
    "bled", "bling", "iz", "ize", "ized", "izing", "y", "ly", "ational", "tional", "enci", "anci", "izer", "bli",
    "abli", "alli", "entli", "eli", "ousli", "ization", "ation", "ator", "alism", "iveness", "fulness",
    "ousness", "aliti", "iviti", "biliti", "logi", "icate", "ative", "alize", "iciti", "ical", "ful", "ness",
    "al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent", "sion", "tion", "ion",
    "ou", "ism", "iti", "ous", "ive", "e", "ll", "ement", "ements", "nesses", "fully", "ically", "izations"};

  private static List<String> lucene(String text) throws IOException {
    List<String> out = new ArrayList<>();
    try (TokenStream ts = LUCENE.tokenStream("f", text)) {
      CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
      ts.reset();
      while (ts.incrementToken()) {
        out.add(term.toString());
      }
      ts.end();
    }
    return out;
  }

  @Test
  void stemsEveryRuleLikeLucene() throws IOException {
    List<String> mismatches = new ArrayList<>();
    int words = 0;
    for (String stem : STEMS) {
      for (String suffix : SUFFIXES) {
        String word = stem + suffix;
        words++;
        List<String> expected = lucene(word);
        List<String> actual = List.of(new PorterStemmer().stem(word));
        if (!actual.equals(expected)) {
          mismatches.add(word + ": ours " + actual + ", Lucene " + expected);
        }
      }
    }
    assertThat(words).isGreaterThan(5000);
    assertThat(mismatches).isEmpty();
  }

  @Test
  void stemsRandomWordsLikeLucene() throws IOException {
    Random random = new Random(17);
    String letters = "aeiouybcdfglmnprstvzwx";
    List<String> mismatches = new ArrayList<>();
    for (int i = 0; i < 20_000; i++) {
      StringBuilder sb = new StringBuilder();
      int n = 1 + random.nextInt(9);
      for (int c = 0; c < n; c++) {
        sb.append(letters.charAt(random.nextInt(letters.length())));
      }
      sb.append(SUFFIXES[random.nextInt(SUFFIXES.length)]);
      String word = sb.toString();
      List<String> expected = lucene(word);
      List<String> actual = List.of(new PorterStemmer().stem(word));
      if (!actual.equals(expected)) {
        mismatches.add(word + ": ours " + actual + ", Lucene " + expected);
      }
    }
    assertThat(mismatches).isEmpty();
  }

  private static List<String> terms(String text) {
    return TextAnalysis.terms(text);
  }

  @Test
  void compatibilityFormsAndCaseFoldToThePlainWord() {
    assertThat(terms("ﬁsh")).isEqualTo(terms("fish")).containsExactly("fish");
    assertThat(terms("ＡＢＣ ａｂｃ")).containsExactly("abc", "abc");
    assertThat(terms("Chapter Ⅻ")).containsExactly("chapter", "xii");
    assertThat(terms("İstanbul ISTANBUL ıstanbul")).containsExactly("istanbul", "istanbul", "istanbul");
    assertThat(terms("20 m² and ① done")).containsExactly("20", "m2", "1", "done");
    assertThat(terms("ΣΊΣΥΦΟΣ")).isEqualTo(terms("σίσυφος"));
    assertThat(terms("Straße")).containsExactly("straße");
    assertThat(terms("naïve café")).containsExactly("naïve", "café");
    assertThat(terms("e\u0301lan")).isEqualTo(terms("\u00e9lan"));
  }

  @Test
  void numbersDecimalsAndVersionsAreSingleTerms() {
    assertThat(terms("pi is 3.14, about 1,000 times v2.1.3.")).containsExactly("pi", "3.14", "1,000", "time", "v2.1.3");
    assertThat(terms("Version 3.14.159 of foo_bar")).containsExactly("version", "3.14.159", "foo_bar");
    assertThat(terms("2024-01-05 at 9:30")).containsExactly("2024", "01", "05", "9", "30");
    assertThat(terms("a1b2c3 1st 2nd")).containsExactly("a1b2c3", "1st", "2nd");
    assertThat(terms("３．１４")).containsExactly("3.14");
  }

  @Test
  void apostrophesPossessivesAndCliticsAndStopwords() {
    assertThat(terms("Maria's piano lessons; she's running")).containsExactly("maria", "piano", "lesson", "run");
    assertThat(terms("it’s John’s book, the dogs' names: O'Brien")).containsExactly("john", "book", "dog", "name", "o'brien");
    assertThat(terms("don't, can't, shouldn't and you're")).isEmpty();
    assertThat(terms("rock’n’roll")).containsExactly("rock'n'roll");
    assertThat(terms("U.S.A. and e.g. holders")).containsExactly("u.s.a", "e.g", "holder");
    assertThat(terms("the of and is")).isEmpty();
  }

  @Test
  void scriptsMarksAndSeparators() {
    assertThat(terms("東京に住んでいます")).startsWith("東", "京", "に", "住");
    assertThat(terms("한국어 문장")).containsExactly("한국", "국어", "문장");
    assertThat(terms("집 webhook")).containsExactly("집", "webhook");
    assertThat(terms("ウェブフック")).containsExactly("ウェ", "ェブ", "ブフ", "フッ", "ック");
    assertThat(terms("サーバー")).containsExactly("サー", "ーバ", "バー");
    assertThat(terms("ｳｪﾌﾞ")).as("half-width katakana fold to full width first").containsExactly("ウェ", "ェブ");
    assertThat(terms("APIキーを")).containsExactly("api", "キー", "を");
  }

  /** A katakana or Hangul word is found inside a compound and before a particle (PowerContext's CJK bigrams). */
  @Test
  void katakanaAndHangulWordsMatchInsideLongerWords() {
    assertThat(terms("ウェブフックの設定")).containsAll(terms("フック"));
    assertThat(terms("웹훅은 실패했다")).containsAll(terms("웹훅"));
    assertThat(terms("コンテキスト")).doesNotContainAnyElementsOf(terms("フック"));
    assertThat(terms("zero\u200Bwidth tabs\tand\nnewlines")).containsExactly("zero", "width", "tab", "newlin");
    assertThat(terms("--dashes-- ..dots.. \"double\" (parens) {braces} <b>bold</b>"))
        .containsExactly("dash", "dot", "doubl", "paren", "brace", "b", "bold", "b");
    assertThat(terms("x".repeat(600))).hasSize(3).allSatisfy(t -> assertThat(t.length()).isLessThanOrEqualTo(255));
    assertThat(terms("")).isEmpty();
  }

  /** Every term is made only of characters an ASCII-punctuation-splitting index keeps inside a token. */
  @Test
  void termsHoldNoAsciiOutsideTheDocumentedSet() {
    Random random = new Random(5);
    String alphabet = "aZ9 _'.,;:-/\"\\!?()[]{}<>@#$%^&*+=~`|\t\n\u2019\u2018\uFF07\u00e9\u0301\u0130\u00df\uFB01\uFF21"
        + "\u216B\u00B2\u2460\u6771\u3042\u30A2\uD83D\uDE00\u200B\u00A0\u3000\u2044\u00BD";
    for (int i = 0; i < 5_000; i++) {
      StringBuilder sb = new StringBuilder();
      for (int c = 0, n = 1 + random.nextInt(30); c < n; c++) {
        int k = random.nextInt(alphabet.length());
        char ch = alphabet.charAt(k);
        if (Character.isHighSurrogate(ch)) {
          sb.append(ch).append(alphabet.charAt(k + 1));
        } else if (!Character.isLowSurrogate(ch)) {
          sb.append(ch);
        }
      }
      for (String t : terms(sb.toString())) {
        assertThat(t).as(sb.toString()).isNotEmpty().doesNotContainAnyWhitespaces();
        t.chars().filter(ch -> ch < 0x80).forEach(ch -> assertThat((char) ch).as("%s in %s", t, sb)
            .matches(x -> (x >= 'a' && x <= 'z') || (x >= '0' && x <= '9') || "_'.,".indexOf(x) >= 0));
        assertThat(terms(t)).as("a term analyses to itself: %s", t).hasSizeLessThanOrEqualTo(1);
      }
    }
  }

  @Test
  void queryTermsAreDistinctAndBounded() {
    assertThat(TextAnalysis.queryTerms("Runs running ran RUNS", 32)).containsExactly("run", "ran");
    StringBuilder many = new StringBuilder();
    for (int i = 0; i < 50; i++) {
      many.append("w").append(i).append(' ');
    }
    assertThat(FullTextQuery.terms(many.toString())).hasSize(FullTextQuery.MAX_TERMS).startsWith("w0", "w1");
  }
}
