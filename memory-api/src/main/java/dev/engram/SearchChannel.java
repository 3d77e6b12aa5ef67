/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

/** A retrieval channel that contributed a hit. */
public enum SearchChannel {
  FTS,
  VECTOR
}
