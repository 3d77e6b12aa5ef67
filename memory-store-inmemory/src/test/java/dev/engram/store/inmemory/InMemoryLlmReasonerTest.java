/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.inmemory;

import dev.engram.reasoner.llm.LlmReasonerContract;
import dev.engram.spi.MemoryStore;

class InMemoryLlmReasonerTest extends LlmReasonerContract {
  @Override
  protected MemoryStore createStore() {
    return new InMemoryMemoryStore();
  }
}
