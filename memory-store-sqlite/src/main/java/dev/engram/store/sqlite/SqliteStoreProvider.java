/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.sqlite;

import dev.engram.InvalidInputException;
import dev.engram.StoreException;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.StoreOpenOptions;
import dev.engram.spi.StoreProvider;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Objects;

/**
 * The {@code sqlite:FILE} scheme of {@link dev.engram.spi.StoreSpec}: a {@link SqliteMemoryStore} on that
 * file (relative to the working directory), created when missing unless
 * {@link StoreOpenOptions#mustExist()}.
 */
public final class SqliteStoreProvider implements StoreProvider {
  /** Creates the provider; {@link java.util.ServiceLoader} calls it. */
  public SqliteStoreProvider() {}

  @Override
  public String scheme() {
    return "sqlite";
  }

  @Override
  public String usage() {
    return "sqlite:FILE";
  }

  /**
   * The file name as given.
   *
   * @throws InvalidInputException naming {@code setting} when it is empty or not a path
   */
  @Override
  public String normalize(String setting, String location) {
    Objects.requireNonNull(setting, "setting");
    Objects.requireNonNull(location, "location");
    if (location.isBlank()) {
      throw new InvalidInputException(setting, "sqlite: needs a file name, e.g. sqlite:memory.db");
    }
    try {
      Path.of(location);
    } catch (InvalidPathException e) {
      throw new InvalidInputException(setting, "sqlite: '" + location + "' is not a file name (" + e.getReason() + ")");
    }
    return location;
  }

  /**
   * Opens the file, creating it (and the schema) when missing unless {@code options.mustExist()}.
   *
   * @throws StoreException when its directory does not exist, the file is missing and must exist, it is no
   *     readable and writable file, or it is not an Engram database
   */
  @Override
  public MemoryStore open(String location, StoreOpenOptions options) {
    Objects.requireNonNull(options, "options");
    Path file = Path.of(location);
    Path dir = file.toAbsolutePath().getParent();
    if (dir == null || !Files.isDirectory(dir)) {
      throw StoreException.unavailable("sqlite:" + location + ": the directory " + dir + " does not exist", null);
    }
    if (!Files.exists(file)) {
      if (options.mustExist()) {
        throw StoreException.unavailable("no memory file at " + location
            + " (nothing was written there yet, or the path is wrong)", null);
      }
    } else if (!Files.isRegularFile(file) || !Files.isReadable(file) || !Files.isWritable(file)) {
      throw StoreException.unavailable("sqlite:" + location + " is not a readable and writable file", null);
    }
    return new SqliteMemoryStore(file);
  }
}
