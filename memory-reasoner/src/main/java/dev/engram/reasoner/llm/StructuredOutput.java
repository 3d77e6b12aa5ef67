/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.reasoner.llm;

/** How an OpenAI-compatible server is asked for JSON. The Anthropic format always uses one forced tool. */
public enum StructuredOutput {
  /**
   * {@code json_schema} (strict) first; when the server answers HTTP 400 about the response format,
   * switch to {@code json_object} for the rest of the reasoner's life and repeat the request.
   */
  AUTO,
  /** Always {@code response_format: {"type":"json_schema", "strict": true, ...}}. */
  JSON_SCHEMA,
  /** Always {@code response_format: {"type":"json_object"}}, with the schema spelled out in the prompt. */
  JSON_OBJECT
}
