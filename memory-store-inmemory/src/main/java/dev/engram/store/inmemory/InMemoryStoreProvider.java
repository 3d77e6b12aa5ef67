/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.inmemory;

import dev.engram.InvalidInputException;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.StoreOpenOptions;
import dev.engram.spi.StoreProvider;
import java.util.Objects;

/**
 * The {@code memory} scheme of {@link dev.engram.spi.StoreSpec}: a new, empty {@link InMemoryMemoryStore}
 * each time it is opened. It takes nothing after the scheme.
 */
public final class InMemoryStoreProvider implements StoreProvider {
  /** Creates the provider; {@link java.util.ServiceLoader} calls it. */
  public InMemoryStoreProvider() {}

  @Override
  public String scheme() {
    return "memory";
  }

  @Override
  public String usage() {
    return "memory";
  }

  /**
   * Accepts only an empty location ({@code memory} or {@code memory:}).
   *
   * @throws InvalidInputException naming {@code setting} for anything after the scheme
   */
  @Override
  public String normalize(String setting, String location) {
    Objects.requireNonNull(setting, "setting");
    if (!Objects.requireNonNull(location, "location").isBlank()) {
      throw new InvalidInputException(setting, "memory takes nothing after it: the store is empty and gone at exit");
    }
    return "";
  }

  /** A new, empty store; {@code options.mustExist()} does not apply to a store that never exists before. */
  @Override
  public MemoryStore open(String location, StoreOpenOptions options) {
    Objects.requireNonNull(options, "options");
    return new InMemoryMemoryStore();
  }
}
