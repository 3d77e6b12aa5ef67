package dev.engram.agent;

import dev.engram.spi.MemoryStore;
import dev.engram.store.inmemory.InMemoryMemoryStore;

class InMemoryAgentMemoryTest extends AgentMemoryContract {
  @Override
  protected MemoryStore createStore() {
    return new InMemoryMemoryStore();
  }
}
