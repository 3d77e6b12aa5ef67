package dev.engram.agent;

import dev.engram.spi.MemoryStore;

class PostgresAgentMemoryTest extends AgentMemoryContract {
  @Override
  protected MemoryStore createStore() {
    return TestPostgres.freshStore();
  }
}
