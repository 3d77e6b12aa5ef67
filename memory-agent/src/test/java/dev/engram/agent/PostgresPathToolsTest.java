/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.agent;

import dev.engram.spi.MemoryStore;
import dev.engram.store.postgres.TestPostgres;

class PostgresPathToolsTest extends PathToolsContract {
  @Override
  protected MemoryStore createStore() {
    return TestPostgres.get().freshStore();
  }
}
