/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.time.LocalDate;
import java.util.Objects;

/**
 * The model usage of one scope on one day (UTC) for one provider, model and reasoner job: how many
 * model calls the operations on that scope made, the tokens they used, and how many failed. Returned by
 * {@link EngramOperator#modelUsage}; a store adds such rows up ({@code StoreTransaction.addModelUsage}).
 *
 * @param scope the scope of the operations that made the calls
 * @param day the day of the calls, in UTC
 * @param provider the provider or wire format, such as {@code openai} or {@code anthropic}
 * @param model the model name
 * @param job the reasoner job: {@code tag}, {@code views}, {@code curate}, {@code extract} or {@code incubate}
 * @param calls model calls made, failed ones included
 * @param inputTokens prompt tokens reported by the server
 * @param outputTokens completion tokens reported by the server
 * @param failures calls that failed
 */
public record ModelUsageRow(
    String scope, LocalDate day, String provider, String model, String job,
    long calls, long inputTokens, long outputTokens, long failures) {
  /**
   * Checks the components.
   *
   * @param scope the scope
   * @param day the day (UTC)
   * @param provider the provider
   * @param model the model
   * @param job the job
   * @param calls calls, at least 0
   * @param inputTokens input tokens, at least 0
   * @param outputTokens output tokens, at least 0
   * @param failures failed calls, between 0 and {@code calls}
   * @throws NullPointerException when a name or the day is null
   * @throws InvalidInputException when a count is negative or there are more failures than calls
   */
  public ModelUsageRow {
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(day, "day");
    Objects.requireNonNull(provider, "provider");
    Objects.requireNonNull(model, "model");
    Objects.requireNonNull(job, "job");
    if (calls < 0 || inputTokens < 0 || outputTokens < 0 || failures < 0) {
      throw new InvalidInputException("modelUsage", "counts must be at least 0, were calls " + calls + ", input "
          + inputTokens + ", output " + outputTokens + ", failures " + failures);
    }
    if (failures > calls) {
      throw new InvalidInputException("failures", "must be at most calls (" + calls + "), was " + failures);
    }
  }

  /**
   * @return the input and output tokens together
   */
  public long totalTokens() {
    return inputTokens + outputTokens;
  }
}
