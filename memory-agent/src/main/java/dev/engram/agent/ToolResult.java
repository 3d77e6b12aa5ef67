/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.agent;

import java.util.Objects;

/**
 * What a tool call returns to the model: compact JSON text, and whether the call failed. A failed
 * call's text is {@code {"error": "...", "code": "..."}} with a short message the model can act on;
 * it never carries a stack trace or anything about scopes the grants cannot see.
 *
 * @param isError the call failed and nothing was changed
 * @param text compact JSON
 */
public record ToolResult(boolean isError, String text) {
  /**
   * Checks the text.
   *
   * @param isError the call failed and nothing was changed
   * @param text compact JSON
   * @throws NullPointerException when {@code text} is null
   */
  public ToolResult {
    Objects.requireNonNull(text, "text");
  }

  /**
   * A successful result.
   *
   * @param text compact JSON
   * @return the result
   */
  public static ToolResult ok(String text) {
    return new ToolResult(false, text);
  }

  /**
   * A failed result.
   *
   * @param text compact JSON
   * @return the result
   */
  public static ToolResult error(String text) {
    return new ToolResult(true, text);
  }
}
