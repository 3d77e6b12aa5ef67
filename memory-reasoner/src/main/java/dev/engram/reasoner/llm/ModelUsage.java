/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.reasoner.llm;

import java.time.Duration;
import java.util.Objects;

/**
 * What one model call cost. Carries no content.
 *
 * @param job the job that made the call: {@code tag}, {@code curate} or {@code views}
 * @param provider the wire format used
 * @param model the model name sent
 * @param inputTokens prompt tokens as the server reported them, or -1 when it reported none
 * @param outputTokens completion tokens as the server reported them, or -1 when it reported none
 * @param latency wall time of the call, retries and waits included
 * @param attempts HTTP requests sent for the call (1 when the first one succeeded)
 */
public record ModelUsage(
    String job, Provider provider, String model, long inputTokens, long outputTokens, Duration latency, int attempts) {
  /**
   * Checks the required components.
   *
   * @param job the job that made the call
   * @param provider the wire format used
   * @param model the model name sent
   * @param inputTokens prompt tokens, or -1
   * @param outputTokens completion tokens, or -1
   * @param latency wall time of the call
   * @param attempts HTTP requests sent for the call
   * @throws NullPointerException when {@code job}, {@code provider}, {@code model} or {@code latency} is null
   */
  public ModelUsage {
    Objects.requireNonNull(job, "job");
    Objects.requireNonNull(provider, "provider");
    Objects.requireNonNull(model, "model");
    Objects.requireNonNull(latency, "latency");
  }
}
