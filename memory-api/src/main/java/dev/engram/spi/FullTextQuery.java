/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.spi;

import dev.engram.EntryType;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * A full-text query as stores receive it: the query already cleaned into terms (lowercase letters and
 * digits, English stopwords removed, deduplicated, at most {@value #MAX_TERMS}), plus filters. A store
 * ranks active versions that contain at least one term (after its own stemming) with a BM25-style
 * score over content, glossary (weighted higher), disclosure and topics; higher scores are better.
 *
 * @param topics only versions carrying one of these topics (empty = any)
 * @param types only versions of these types (empty = any)
 */
public record FullTextQuery(List<String> terms, Set<String> topics, Set<EntryType> types) {
  public static final int MAX_TERMS = 32;

  /**
   * Stores index at most this many leading characters (Unicode code points) of an entry's content for
   * full text, so that every store accepts the largest allowed entry (a PostgreSQL tsvector holds at
   * most 1 MB); words past it are found by the other channels only. See {@link #indexedContent}.
   */
  public static final int MAX_INDEXED_CONTENT_CHARS = 262_144;

  /**
   * The topic an entry gets when no topic is given. It says nothing about the entry, so it is not
   * full-text indexed (see {@link #indexedTopics}): otherwise every word sharing its stem
   * ("generator", "generally") would match every entry filed without a topic.
   */
  public static final String DEFAULT_TOPIC = "general";

  /** The part of {@code content} a store indexes for full text: its first {@link #MAX_INDEXED_CONTENT_CHARS} code points. */
  public static String indexedContent(String content) {
    if (content.length() <= MAX_INDEXED_CONTENT_CHARS) {
      return content;
    }
    int end = content.offsetByCodePoints(0, Math.min(MAX_INDEXED_CONTENT_CHARS, content.codePointCount(0, content.length())));
    return content.substring(0, end);
  }

  /** The topics a store indexes for full text, space-separated: all but {@link #DEFAULT_TOPIC}. */
  public static String indexedTopics(List<String> topics) {
    StringBuilder b = new StringBuilder();
    for (String t : topics) {
      if (!t.equals(DEFAULT_TOPIC)) {
        b.append(b.length() == 0 ? "" : " ").append(t);
      }
    }
    return b.toString();
  }

  /** Words too common to say anything about what a question is about. */
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
      "also", "ever", "kind", "sort", "thing", "things", "something", "anything", "get", "got", "one");

  public FullTextQuery {
    terms = List.copyOf(terms);
    topics = Set.copyOf(topics);
    types = Set.copyOf(types);
  }

  /**
   * Splits text into lowercase letter/digit tokens, drops stopwords, deduplicates and keeps at most
   * {@value #MAX_TERMS}. A query made only of stopwords has no terms and matches nothing.
   */
  public static List<String> terms(String text) {
    String s = Normalizer.normalize(text, Normalizer.Form.NFKC).toLowerCase(Locale.ROOT);
    List<String> tokens = new ArrayList<>();
    StringBuilder cur = new StringBuilder();
    for (int i = 0; i < s.length(); ) {
      int cp = s.codePointAt(i);
      i += Character.charCount(cp);
      if (Character.isLetterOrDigit(cp)) {
        cur.appendCodePoint(cp);
      } else if (cp == '\'' || cp == '\u2019') {
        // contractions and possessives: "kate's" -> "kate", "don't" -> "don"
        if (cur.length() > 0) {
          tokens.add(cur.toString());
          cur.setLength(0);
        }
        while (i < s.length() && Character.isLetter(s.codePointAt(i))) {
          i += Character.charCount(s.codePointAt(i));
        }
      } else if (cur.length() > 0) {
        tokens.add(cur.toString());
        cur.setLength(0);
      }
    }
    if (cur.length() > 0) {
      tokens.add(cur.toString());
    }
    LinkedHashSet<String> kept = new LinkedHashSet<>();
    for (String t : tokens) {
      if (!STOPWORDS.contains(t)) {
        kept.add(t);
      }
    }
    List<String> out = new ArrayList<>(kept);
    return List.copyOf(out.subList(0, Math.min(out.size(), MAX_TERMS)));
  }
}
