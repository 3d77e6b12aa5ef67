/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

/** What a {@link ReviewItem} proposes; also what an application may gate with review ({@link EngramBuilder#review}). */
public enum ReviewKind {
  /** A new experience incubated from task outcomes. Always reviewed: a model never approves experience. */
  EXPERIENCE,
  /** One curation op (merge, rewrite, retire, compact, core, blurb). Reviewed only when the application turns it on. */
  CURATION,
  /** One memory extracted from captured sources. Reviewed only when the application turns it on. */
  EXTRACTION
}
