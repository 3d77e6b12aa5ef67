/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

/**
 * The target scope already holds as many active entries at this priority as its cap allows (caps
 * count the entries of that one scope, never those of other scopes). Demote (or retire) one of them
 * first, then try again.
 */
public class PriorityCapExceededException extends MemoryException {
  private static final long serialVersionUID = 1L;
  /** The scope whose cap was reached. */
  private final String namespace;
  /** The priority asked for. */
  private final int priority;
  /** The cap of that priority. */
  private final int cap;

  /**
   * @param namespace the scope whose cap was reached
   * @param priority the priority asked for (0 or 1)
   * @param cap how many active entries the scope may hold at that priority
   */
  public PriorityCapExceededException(String namespace, int priority, int cap) {
    super(
        ErrorCode.PRIORITY_CAP_EXCEEDED,
        "namespace '" + namespace + "' already holds " + cap + " active entries at priority " + priority
            + " (the cap); demote or retire one of them first");
    this.namespace = namespace;
    this.priority = priority;
    this.cap = cap;
  }

  /** @return the scope whose cap was reached */
  public String namespace() {
    return namespace;
  }

  /** @return the priority asked for */
  public int priority() {
    return priority;
  }

  /** @return how many active entries the scope may hold at that priority */
  public int cap() {
    return cap;
  }
}
