/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.reasoner.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * One kind of model call: its rules, its user message, its JSON schema, and the validation that
 * turns the untrusted answer into a value. A job never sees HTTP; a new job is one more
 * implementation of this interface.
 *
 * @param <I> what the job is asked about
 * @param <O> what a valid answer becomes
 */
interface Job<I, O> {

  /** The job's name: the schema's and tool's name, the usage label. */
  String name();

  /** The job's rules, appended to {@link Prompts#SYSTEM}. */
  String rules();

  /** The user message, with every untrusted text delimited by {@link Prompts#data}. */
  String prompt(I input);

  /** The JSON schema of a valid answer for this input. */
  ObjectNode schema(I input);

  /**
   * Validates the answer and converts it.
   *
   * @throws LlmException of kind {@code INVALID_ANSWER} naming what is wrong
   */
  O read(JsonNode answer, I input);
}
