/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.springai;

import dev.engram.Engram;
import dev.engram.reasoner.DeterministicReasoner;
import dev.engram.spi.MemoryStore;
import dev.engram.store.inmemory.InMemoryMemoryStore;
import dev.engram.store.postgres.TestPostgres;
import dev.engram.store.sqlite.SqliteMemoryStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Fresh stores of every kind for the adapter tests: in memory, a SQLite file, PostgreSQL (the server
 * named by {@code ENGRAM_PG_URL}, else an embedded one: memory-store-postgres's shared {@link TestPostgres}),
 * each PostgreSQL store in a schema of its own.
 */
final class TestStores {
  enum Kind { MEMORY, SQLITE, POSTGRES }

  private TestStores() {}

  static MemoryStore fresh(Kind kind) {
    switch (kind) {
      case MEMORY:
        return new InMemoryMemoryStore();
      case SQLITE:
        try {
          Path dir = Files.createTempDirectory("engram-springai");
          dir.toFile().deleteOnExit();
          return new SqliteMemoryStore(dir.resolve("memory.db"));
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      case POSTGRES:
        return TestPostgres.get().freshStore();
      default:
        throw new IllegalArgumentException(kind.name());
    }
  }

  static Engram engram(Kind kind) {
    return Engram.builder().store(fresh(kind)).reasoner(new DeterministicReasoner()).build();
  }
}
