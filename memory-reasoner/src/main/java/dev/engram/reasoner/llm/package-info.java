/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The model-backed reasoner: {@link dev.engram.reasoner.llm.LlmReasoner} files, deduplicates,
 * curates, writes views and extracts cited memories from captured sources through an OpenAI-compatible chat-completions API or the Anthropic
 * messages API, on the JDK {@code HttpClient} and Jackson.
 *
 * <p>The layers are kept apart: the transport ({@code ModelClient}: one implementation per wire
 * format, with retries, timeouts and error classification), the prompts ({@code Prompts}: the shared
 * system rules and the delimiting of untrusted data), and the jobs ({@code TagJob}, {@code CurateJob},
 * {@code ViewsJob}, {@code ExtractJob}: each one prompt, one JSON schema and one validator of the answer). A new job is
 * one more {@code Job} implementation.
 */
@NullMarked
package dev.engram.reasoner.llm;

import org.jspecify.annotations.NullMarked;
