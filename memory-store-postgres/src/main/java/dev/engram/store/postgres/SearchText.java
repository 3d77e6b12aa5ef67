/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.postgres;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Analysed terms ({@link dev.engram.spi.TextAnalysis}) as PostgreSQL full-text values, written as
 * literals so that no text search parser, dictionary or stemmer of the server touches them: a
 * {@code tsvector} of a field's terms with their positions, and a one-lexeme {@code tsquery} per
 * query term. A term is a lexeme exactly as given, so hostile query syntax is only ever a lexeme.
 */
final class SearchText {
  /** PostgreSQL keeps positions up to this one; later words share it. */
  static final int MAX_POSITION = 16_383;
  /** PostgreSQL keeps at most this many positions of one lexeme (as {@code to_tsvector} does). */
  static final int MAX_POSITIONS_PER_LEXEME = 255;

  private SearchText() {}

  /** The {@code tsvector} literal of {@code terms}, positions 1, 2, … in order. */
  static String vector(List<String> terms) {
    Map<String, StringBuilder> positions = new LinkedHashMap<>();
    Map<String, int[]> counts = new LinkedHashMap<>();
    for (int i = 0; i < terms.size(); i++) {
      String term = terms.get(i);
      int position = Math.min(i + 1, MAX_POSITION);
      int[] seen = counts.computeIfAbsent(term, t -> new int[2]);
      if (seen[0] >= MAX_POSITIONS_PER_LEXEME || seen[1] == position) {
        continue;
      }
      seen[0]++;
      seen[1] = position;
      StringBuilder p = positions.computeIfAbsent(term, t -> new StringBuilder());
      p.append(p.length() == 0 ? "" : ",").append(position);
    }
    StringBuilder out = new StringBuilder();
    for (Map.Entry<String, StringBuilder> e : positions.entrySet()) {
      out.append(out.length() == 0 ? "" : " ").append(quote(e.getKey())).append(':').append(e.getValue());
    }
    return out.toString();
  }

  /**
   * The {@code tsvector} literal of a version's key document: its retrieval keys joined by a space, in
   * the one text analysis ({@link dev.engram.spi.TextAnalysis#terms}).
   */
  static String keyDocument(List<String> keys) {
    return vector(dev.engram.spi.TextAnalysis.terms(String.join(" ", keys)));
  }

  /** The {@code tsquery} literal matching exactly the lexeme {@code term}. */
  static String query(String term) {
    return quote(term);
  }

  private static String quote(String lexeme) {
    return "'" + lexeme.replace("\\", "\\\\").replace("'", "''") + "'";
  }
}
