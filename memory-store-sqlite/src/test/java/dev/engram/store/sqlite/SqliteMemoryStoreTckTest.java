/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.sqlite;

import dev.engram.spi.MemoryStore;
import dev.engram.tck.MemoryStoreTck;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.io.TempDir;

class SqliteMemoryStoreTckTest extends MemoryStoreTck {
  @TempDir static Path dir;
  private static final AtomicInteger FILES = new AtomicInteger();

  @Override
  protected MemoryStore createStore() {
    return new SqliteMemoryStore(dir.resolve("tck-" + FILES.incrementAndGet() + ".db"));
  }
}
