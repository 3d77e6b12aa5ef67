/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.reasoner.llm;

/**
 * Receives the {@link ModelUsage} of every successful model call, on the calling thread. An exception
 * it throws is logged and ignored; it never fails the memory operation.
 */
@FunctionalInterface
public interface ModelUsageListener {

  /**
   * Called once per successful model call.
   *
   * @param usage tokens, latency, model and attempts of the call
   */
  void onUsage(ModelUsage usage);
}
