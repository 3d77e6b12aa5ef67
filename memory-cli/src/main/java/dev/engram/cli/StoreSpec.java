/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.cli;

import dev.engram.StoreException;
import dev.engram.spi.MemoryStore;
import dev.engram.store.inmemory.InMemoryMemoryStore;
import dev.engram.store.postgres.PostgresMemoryStore;
import dev.engram.store.sqlite.SqliteMemoryStore;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Where the memory lives, as given to {@code --store}: {@code sqlite:FILE}, {@code postgres:URL} (a
 * {@code jdbc:postgresql://…} or {@code postgresql://…} URL) or {@code memory} (empty, gone at exit).
 */
sealed interface StoreSpec {

  /** Opens the store; {@code create} allows a new SQLite file (writes and imports), reads refuse one. */
  MemoryStore open(boolean create);

  /** The database-level view {@code doctor} and {@code stats} need beyond the store SPI. */
  StoreInspector inspector();

  /** What {@code --store} said, without credentials. */
  String describe();

  static StoreSpec parse(String spec) {
    Objects.requireNonNull(spec, "spec");
    if (spec.equals("memory")) {
      return new Memory();
    }
    if (spec.startsWith("sqlite:")) {
      String file = spec.substring("sqlite:".length());
      if (file.isBlank()) {
        throw new UsageException("--store sqlite: needs a file name, e.g. sqlite:memory.db");
      }
      return new Sqlite(Path.of(file));
    }
    if (spec.startsWith("postgres:") || spec.startsWith("postgresql:")) {
      String url = spec.substring(spec.indexOf(':') + 1);
      if (url.startsWith("//")) {
        url = "jdbc:postgresql:" + url;
      } else if (url.startsWith("postgresql://") || url.startsWith("postgres://")) {
        url = "jdbc:postgresql:" + url.substring(url.indexOf("//"));
      }
      if (!url.startsWith("jdbc:postgresql://")) {
        throw new UsageException("--store postgres: needs a URL such as postgres:jdbc:postgresql://host/db?user=u");
      }
      return new Postgres(url);
    }
    throw new UsageException("--store must be sqlite:FILE, postgres:URL or memory, was '" + spec + "'");
  }

  record Sqlite(Path file) implements StoreSpec {
    @Override
    public MemoryStore open(boolean create) {
      if (!create && !Files.isRegularFile(file)) {
        throw StoreException.unavailable("no memory file at " + file
            + " (write or import something first, or check the path)", null);
      }
      return new SqliteMemoryStore(file);
    }

    @Override
    public StoreInspector inspector() {
      return new SqliteInspector(file);
    }

    @Override
    public String describe() {
      return "sqlite:" + file;
    }
  }

  record Postgres(String jdbcUrl) implements StoreSpec {
    @Override
    public MemoryStore open(boolean create) {
      return new PostgresMemoryStore(jdbcUrl);
    }

    @Override
    public StoreInspector inspector() {
      return new PostgresInspector(jdbcUrl, PostgresMemoryStore.DEFAULT_TABLE_PREFIX);
    }

    @Override
    public String describe() {
      int q = jdbcUrl.indexOf('?');
      return "postgres:" + (q < 0 ? jdbcUrl : jdbcUrl.substring(0, q));
    }
  }

  record Memory() implements StoreSpec {
    @Override
    public MemoryStore open(boolean create) {
      return new InMemoryMemoryStore();
    }

    @Override
    public StoreInspector inspector() {
      return StoreInspector.NONE;
    }

    @Override
    public String describe() {
      return "memory";
    }
  }
}
