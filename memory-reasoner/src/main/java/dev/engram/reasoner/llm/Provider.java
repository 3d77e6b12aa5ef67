/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.reasoner.llm;

/** The wire format a {@link ModelConfig} speaks. */
public enum Provider {
  /** {@code POST {baseUrl}/chat/completions}: OpenAI, Azure-style gateways, Ollama, vLLM, LM Studio, llama.cpp, OpenRouter. */
  OPENAI_COMPATIBLE,
  /** {@code POST {baseUrl}/v1/messages}: Anthropic. */
  ANTHROPIC
}
