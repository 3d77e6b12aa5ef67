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
  private final String namespace;
  private final int priority;
  private final int cap;

  public PriorityCapExceededException(String namespace, int priority, int cap) {
    super(
        ErrorCode.PRIORITY_CAP_EXCEEDED,
        "namespace '" + namespace + "' already holds " + cap + " active entries at priority " + priority
            + " (the cap); demote or retire one of them first");
    this.namespace = namespace;
    this.priority = priority;
    this.cap = cap;
  }

  public String namespace() {
    return namespace;
  }

  public int priority() {
    return priority;
  }

  public int cap() {
    return cap;
  }
}
