/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

/** A retrieval arm that contributed a hit. */
public enum SearchChannel {
  /** Full text over the entry's own fields (content, glossary, disclosure, topics). */
  FTS,
  /** Vectors of the entry's content and views. */
  VECTOR,
  /** Full text over the entry's retrieval keys (see {@link dev.engram.spi.EntryViews}). */
  KEY_FTS,
  /** Vectors of the entry's retrieval keys. */
  KEY_VECTOR
}
