/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.springai;

import dev.engram.Engram;
import dev.engram.reasoner.DeterministicReasoner;
import dev.engram.spi.MemoryStore;
import dev.engram.store.inmemory.InMemoryMemoryStore;
import dev.engram.store.postgres.PostgresMemoryStore;
import dev.engram.store.sqlite.SqliteMemoryStore;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;

/**
 * Fresh stores of every kind for the adapter tests: in memory, a SQLite file, PostgreSQL (the server
 * named by {@code ENGRAM_PG_URL}, else an embedded one), each PostgreSQL store in a schema of its own.
 */
final class TestStores {
  enum Kind { MEMORY, SQLITE, POSTGRES }

  private static final AtomicInteger SCHEMAS = new AtomicInteger();
  private static EmbeddedPostgres postgres;

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
        String schema = "springai_" + ProcessHandle.current().pid() + "_" + SCHEMAS.incrementAndGet();
        String external = System.getenv("ENGRAM_PG_URL");
        return external != null && !external.isBlank()
            ? PostgresMemoryStore.builder().jdbcUrl(external.trim()).maximumPoolSize(2).schema(schema).build()
            : PostgresMemoryStore.builder().dataSource(postgres()).schema(schema).build();
      default:
        throw new IllegalArgumentException(kind.name());
    }
  }

  static Engram engram(Kind kind) {
    return Engram.builder().store(fresh(kind)).reasoner(new DeterministicReasoner()).build();
  }

  static synchronized DataSource postgres() {
    if (postgres == null) {
      try {
        postgres = EmbeddedPostgres.builder().start();
      } catch (IOException e) {
        throw new UncheckedIOException("the embedded PostgreSQL server did not start", e);
      }
    }
    return postgres.getPostgresDatabase();
  }
}
