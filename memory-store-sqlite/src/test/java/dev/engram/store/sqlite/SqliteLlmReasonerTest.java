/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.sqlite;

import dev.engram.reasoner.llm.LlmReasonerContract;
import dev.engram.spi.MemoryStore;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.io.TempDir;

class SqliteLlmReasonerTest extends LlmReasonerContract {
  @TempDir static Path dir;
  private static final AtomicInteger FILES = new AtomicInteger();

  @Override
  protected MemoryStore createStore() {
    return new SqliteMemoryStore(dir.resolve("llm-" + FILES.incrementAndGet() + ".db"));
  }
}
