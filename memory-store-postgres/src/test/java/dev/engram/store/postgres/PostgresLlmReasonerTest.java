/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.postgres;

import dev.engram.reasoner.llm.LlmReasonerContract;
import dev.engram.spi.MemoryStore;

class PostgresLlmReasonerTest extends LlmReasonerContract {
  @Override
  protected MemoryStore createStore() {
    return TestPostgres.get().freshStore();
  }
}
