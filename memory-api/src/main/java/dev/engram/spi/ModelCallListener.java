/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.spi;

/**
 * Receives every model call of a {@link Reasoner} made to report to it
 * ({@link Reasoner#reportingTo(ModelCallListener)}), successful or failed, on the thread that made the
 * call, before the reasoner method returns or throws. The engine installs one to keep model usage per
 * scope and day. A listener must be quick and must not throw; what it throws is logged by the reasoner
 * and never fails the reasoner's call.
 */
@FunctionalInterface
public interface ModelCallListener {

  /**
   * Called once per model call.
   *
   * @param call the job, provider, model, tokens and outcome of the call
   */
  void onModelCall(ModelCall call);
}
