package dev.engram.store.postgres;

import dev.engram.spi.MemoryStore;
import dev.engram.tck.MemoryStoreTck;

class PostgresMemoryStoreTckTest extends MemoryStoreTck {
  @Override
  protected MemoryStore createStore() {
    return TestPostgres.get().freshStore();
  }
}
