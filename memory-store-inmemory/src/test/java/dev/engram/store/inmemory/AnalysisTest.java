/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.inmemory;

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
 * The store's own analysis agrees with Lucene's English chain (standard tokenizer, possessive filter,
 * lowercase, Porter stemmer), which it replaced, on words built to reach every rule of the stemmer and
 * on sentences with the punctuation, numbers and scripts memory holds.
 */
class AnalysisTest {
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
        List<String> actual = Analysis.terms(word);
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
      List<String> actual = Analysis.terms(word);
      if (!actual.equals(expected)) {
        mismatches.add(word + ": ours " + actual + ", Lucene " + expected);
      }
    }
    assertThat(mismatches).isEmpty();
  }

  @Test
  void tokenizesSentencesLikeLucene() throws IOException {
    String[] sentences = {
      "Prefers metric units.",
      "Maria's piano lessons are on Tuesdays; she's been running since 2019.",
      "The user's dogs' names: Rex, Fido and O'Brien.",
      "Don't schedule meetings before 9:30 — e.g. at 10.15 or 1,000 km away.",
      "Version 3.14.159 of foo_bar (see https://example.com/a?b=c) mail me@example.org",
      "ÉLAN vital, naïve café, Straße, Ærø, İstanbul, ΣΊΣΥΦΟΣ",
      "東京に住んでいます。カタカナ ひらがな 한국어 문장",
      "Combining e\u0301 marks and zero\u200Bwidth space",
      "tabs\tand\nnewlines\r\nand   spaces",
      "ALL CAPS SHOUTING CONNECTIONS RELATIONAL",
      "--dashes-- ..dots.. ''quotes'' \"double\" (parens) [brackets] {braces}",
      "a1b2c3 123abc abc123 1st 2nd 3rd 4th",
      "x".repeat(600),
      "U.S.A. and i.e. and Ph.D. holders",
      "it’s John’s book, the children’s toys",
      "",
      "   ",
    };
    for (String s : sentences) {
      assertThat(Analysis.terms(s)).as(s).isEqualTo(lucene(s));
    }
  }
}
