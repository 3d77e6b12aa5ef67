/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.postgres;

import dev.engram.spi.MemoryStore;
import dev.engram.tck.MemoryStoreTck;

class PostgresMemoryStoreTckTest extends MemoryStoreTck {
  @Override
  protected MemoryStore createStore() {
    return TestPostgres.get().freshStore();
  }
}
