/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.agent;

import java.util.Objects;

/**
 * One tool as a model sees it.
 *
 * @param name the tool name, e.g. {@code memory_read}
 * @param description what the tool does, written for a model
 * @param inputSchema the JSON Schema of the arguments as compact JSON: an object schema with
 *     {@code "additionalProperties": false}; every call is validated against it before it runs
 * @param hints the title and what a client may assume about the tool (read-only, destructive,
 *     idempotent)
 */
public record ToolSpec(String name, String description, String inputSchema, ToolHints hints) {
  /**
   * Checks that no component is null.
   *
   * @param name the tool name
   * @param description what the tool does, written for a model
   * @param inputSchema the JSON Schema of the arguments as compact JSON
   * @param hints the title and what a client may assume about the tool
   * @throws NullPointerException when a component is null
   */
  public ToolSpec {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(description, "description");
    Objects.requireNonNull(inputSchema, "inputSchema");
    Objects.requireNonNull(hints, "hints");
  }

  /**
   * A tool that says nothing about itself: its hints are {@link ToolHints#unknown} with the name as
   * the title.
   *
   * @param name the tool name
   * @param description what the tool does, written for a model
   * @param inputSchema the JSON Schema of the arguments as compact JSON
   * @throws NullPointerException when a component is null
   */
  public ToolSpec(String name, String description, String inputSchema) {
    this(name, description, inputSchema, ToolHints.unknown(Objects.requireNonNull(name, "name")));
  }
}
