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

  private FtsTerms() {}

  /** Registers the function on one physical connection. */
  static void register(Connection physical) throws SQLException {
    Function.create(physical, NAME, new FtsTerms(), 1, Function.FLAG_DETERMINISTIC);
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
