/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.spi;

import dev.engram.InvalidInputException;
import java.util.Objects;

/**
 * One call a {@link Reasoner} made to a language model, as reported to a {@link ModelCallListener}.
 * Carries no content, no namespace and no id: the engine attributes the call to the scope of the
 * operation that made it.
 *
 * @param job the reasoner job that made the call: {@code tag}, {@code views}, {@code curate},
 *     {@code extract} or {@code incubate} (at most 64 characters)
 * @param provider the provider or wire format, such as {@code openai} or {@code anthropic} (at most 64 characters)
 * @param model the model name sent (at most 200 characters)
 * @param inputTokens prompt tokens as the server reported them, 0 when it reported none or the call failed before an answer
 * @param outputTokens completion tokens as the server reported them, 0 when it reported none
 * @param failed whether the call failed (the model could not be reached, answered with an error, or
 *     its answer was refused); a failed call's tokens are those of the answer it refused, if any
 */
public record ModelCall(String job, String provider, String model, long inputTokens, long outputTokens, boolean failed) {
  /** The longest {@link #job()} and {@link #provider()}. */
  public static final int MAX_NAME = 64;
  /** The longest {@link #model()}. */
  public static final int MAX_MODEL = 200;

  /**
   * Checks the components.
   *
   * @param job the reasoner job
   * @param provider the provider
   * @param model the model name
   * @param inputTokens prompt tokens, at least 0
   * @param outputTokens completion tokens, at least 0
   * @param failed whether the call failed
   * @throws NullPointerException when {@code job}, {@code provider} or {@code model} is null
   * @throws InvalidInputException when a name is blank or too long, or a token count is negative
   */
  public ModelCall {
    Objects.requireNonNull(job, "job");
    Objects.requireNonNull(provider, "provider");
    Objects.requireNonNull(model, "model");
    name("job", job, MAX_NAME);
    name("provider", provider, MAX_NAME);
    name("model", model, MAX_MODEL);
    if (inputTokens < 0) {
      throw new InvalidInputException("inputTokens", "must be at least 0, was " + inputTokens);
    }
    if (outputTokens < 0) {
      throw new InvalidInputException("outputTokens", "must be at least 0, was " + outputTokens);
    }
  }

  private static void name(String field, String value, int max) {
    if (value.isBlank() || value.length() > max) {
      throw new InvalidInputException(field, "must be 1 to " + max + " characters and not blank, was '"
          + (value.length() > max ? value.substring(0, max) + "…" : value) + "'");
    }
  }
}
