/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.agent;

/** Which tools an agent gets. */
public enum MemoryMode {
  /** {@code memory_read} and {@code memory_search} only; write tools are hidden and refused. */
  READ,
  /** The read tools plus {@code memory_write}, {@code memory_correct} and {@code memory_forget}. */
  READ_WRITE
}
