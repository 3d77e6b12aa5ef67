/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.agent;

import java.util.Objects;

/**
 * What a client may assume about a tool before calling it, for frameworks that show or act on such
 * hints (the MCP server sends them as the tool's annotations). Hints describe the tool; they grant
 * nothing, and every call is checked as if they were absent.
 *
 * @param title a short human-readable name, e.g. "Search memory"
 * @param readOnly the tool changes nothing
 * @param destructive the tool may replace or remove what memory holds (a new version, a retirement, a
 *     move); false: it only adds. Meaningful only when {@code readOnly} is false
 * @param idempotent calling it again with the same arguments changes nothing more (a repeated call is
 *     refused, or finds its work done)
 */
public record ToolHints(String title, boolean readOnly, boolean destructive, boolean idempotent) {
  /**
   * Checks the title.
   *
   * @param title a short human-readable name
   * @param readOnly the tool changes nothing
   * @param destructive the tool may replace or remove what memory holds
   * @param idempotent calling it again with the same arguments changes nothing more
   * @throws NullPointerException when {@code title} is null
   * @throws IllegalArgumentException when {@code title} is blank, or a read-only tool is marked destructive
   */
  public ToolHints {
    Objects.requireNonNull(title, "title");
    if (title.isBlank()) {
      throw new IllegalArgumentException("title is blank");
    }
    if (readOnly && destructive) {
      throw new IllegalArgumentException("a read-only tool cannot be destructive");
    }
  }

  /**
   * The hints of a tool that only reads.
   *
   * @param title a short human-readable name
   * @return read-only, not destructive, idempotent
   */
  public static ToolHints reads(String title) {
    return new ToolHints(title, true, false, true);
  }

  /**
   * The hints of a tool that changes memory.
   *
   * @param title a short human-readable name
   * @param destructive whether it may replace or remove what memory holds
   * @param idempotent whether a repeated call with the same arguments changes nothing more
   * @return hints that are not read-only
   */
  public static ToolHints writes(String title, boolean destructive, boolean idempotent) {
    return new ToolHints(title, false, destructive, idempotent);
  }

  /**
   * The hints of a tool that says nothing about itself: the most cautious assumptions (it may change
   * and remove things, and a repeated call may do so again), as the MCP specification assumes.
   *
   * @param title a short human-readable name, such as the tool's name
   * @return not read-only, destructive, not idempotent
   */
  public static ToolHints unknown(String title) {
    return new ToolHints(title, false, true, false);
  }
}
