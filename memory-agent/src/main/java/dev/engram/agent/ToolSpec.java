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
 */
public record ToolSpec(String name, String description, String inputSchema) {
  /**
   * Checks that no component is null.
   *
   * @param name the tool name
   * @param description what the tool does, written for a model
   * @param inputSchema the JSON Schema of the arguments as compact JSON
   * @throws NullPointerException when a component is null
   */
  public ToolSpec {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(description, "description");
    Objects.requireNonNull(inputSchema, "inputSchema");
  }
}
