/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.spi;

/**
 * What the engine does with a write when the reasoner's tag step fails: {@link Reasoner#tag} throws,
 * or the engine refuses its proposal. A reasoner states its choice in {@link Reasoner#tagFailure()}.
 * A write whose caller gave both its type and its topics needs no reasoner: it is filed from the
 * caller's fields whichever is chosen.
 */
public enum TagFailure {
  /** The write fails with the {@code ReasonerException}; nothing is stored. */
  FAIL,
  /**
   * The write is filed without the reasoner, the way the deterministic reasoner files it: in the first
   * granted namespace the write may use, under the caller's topics (or {@code general}), as the
   * caller's type (or {@code fact}), with the content as written and rule-based views; the engine's
   * canonical dedupe still applies. The write's result carries a warning saying so, and the engine logs
   * one WARN line (without content).
   */
  FILE_DETERMINISTICALLY
}
