/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

/** How {@link Engram#search} finds entries. */
public enum SearchMode {
  /** Full-text only (BM25-style ranking over content, glossary, disclosure and topics). */
  FTS,
  /** Vector only (exact cosine over the stored embeddings of content and views). */
  VECTOR,
  /** Both channels fused by reciprocal rank fusion (k = 60). */
  HYBRID,
  /** Hybrid when vectors are complete for the searched scopes and the query embeds; otherwise FTS. */
  AUTO
}
