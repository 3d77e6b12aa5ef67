/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.agent;

import dev.engram.spi.MemoryStore;
import dev.engram.store.sqlite.SqliteMemoryStore;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class SqliteMemoryFilesTest extends MemoryFilesContract {
  @TempDir Path dir;

  @Override
  protected MemoryStore createStore() {
    return new SqliteMemoryStore(dir.resolve("files.db"));
  }
}
