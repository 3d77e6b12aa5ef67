/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.agent;

import dev.engram.spi.MemoryStore;
import dev.engram.store.sqlite.SqliteMemoryStore;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class SqlitePathToolsTest extends PathToolsContract {
  @TempDir Path dir;
  private int n;

  @Override
  protected MemoryStore createStore() {
    return new SqliteMemoryStore(dir.resolve("memory-" + (n++) + ".db"));
  }
}
