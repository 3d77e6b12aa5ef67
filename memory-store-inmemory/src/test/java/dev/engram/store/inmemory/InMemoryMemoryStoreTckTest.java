/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.inmemory;

import dev.engram.spi.MemoryStore;
import dev.engram.tck.MemoryStoreTck;
import dev.engram.tck.StoredRows;

class InMemoryMemoryStoreTckTest extends MemoryStoreTck {
  @Override
  protected MemoryStore createStore() {
    return new InMemoryMemoryStore();
  }

  @Override
  protected StoredRows storedRows(MemoryStore store) {
    return ((InMemoryMemoryStore) store)::rowsMentioning;
  }
}
