/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.agent;

import dev.engram.spi.MemoryStore;
import dev.engram.store.inmemory.InMemoryMemoryStore;

class InMemoryPathToolsTest extends PathToolsContract {
  @Override
  protected MemoryStore createStore() {
    return new InMemoryMemoryStore();
  }
}
