/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.sqlite;

import dev.engram.spi.TextAnalysis;
import java.sql.Connection;
import java.sql.SQLException;
import org.sqlite.Function;

/**
 * The SQL function {@value #NAME}{@code (text)}: the {@link TextAnalysis#terms terms} of a text joined
 * by single spaces ({@code NULL} for {@code NULL}). The statement that indexes a transaction's pending
 * versions and the triggers that remove versions from the full-text index call it (schema version 10),
 * so each of the store's connections registers it before its first statement. It is deterministic: a
 * version's terms computed again at its removal are the terms indexed for it, as FTS5's secure delete
 * needs.
 */
final class FtsTerms extends Function {
  static final String NAME = "engram_fts_terms";
  /**
   * {@value}{@code (content, glossary, disclosure, topics)}: the distinct terms of the four texts that
   * the full-text index holds for a version, as a JSON array, for the per-scope document frequencies
   * (schema 15); {@code NULL} texts hold none.
   */
  static final String SET_NAME = "engram_fts_term_set";

  private FtsTerms() {}

  /** Registers the functions on one physical connection. */
  static void register(Connection physical) throws SQLException {
    Function.create(physical, NAME, new FtsTerms(), 1, Function.FLAG_DETERMINISTIC);
    Function.create(physical, SET_NAME, new TermSet(), 4, Function.FLAG_DETERMINISTIC);
  }

  /** {@link #SET_NAME}. */
  private static final class TermSet extends Function {
    @Override
    protected void xFunc() throws SQLException {
      java.util.Set<String> terms = new java.util.LinkedHashSet<>();
      for (int i = 0; i < 4; i++) {
        String text = value_text(i);
        if (text != null) {
          terms.addAll(TextAnalysis.terms(text));
        }
      }
      result(Codec.strings(java.util.List.copyOf(terms)));
    }
  }

  @Override
  protected void xFunc() throws SQLException {
    String text = value_text(0);
    if (text == null) {
      result();
    } else {
      result(String.join(" ", TextAnalysis.terms(text)));
    }
  }
}
