/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

/** How far above its grant a write may land. */
public enum AncestorPromotion {
  /** Never above the grant (the default). */
  NONE,
  /** To the grant's parent. */
  PARENT,
  /** To any ancestor of the grant. */
  ANCESTORS
}
