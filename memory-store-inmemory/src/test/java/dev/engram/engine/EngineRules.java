/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.engine;

import dev.engram.spi.MemoryStore;
import dev.engram.store.inmemory.InMemoryMemoryStore;
import dev.engram.tck.ContractSupport;

/**
 * Base of the engine's own rules (grant policy, what a reasoner's answers may do, context rendering, time
 * references, input validation), run once against the reference store. A store cannot break these: they
 * live in the engine (memory-api), so they are not part of the store TCK that every store runs. They sit in
 * the in-memory store's test tree because memory-api cannot have a test dependency on a store (the store
 * modules depend on memory-api, and Maven refuses the cycle).
 */
abstract class EngineRules extends ContractSupport {
  @Override
  protected MemoryStore createStore() {
    return new InMemoryMemoryStore();
  }
}
