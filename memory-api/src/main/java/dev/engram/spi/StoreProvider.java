/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.spi;

import java.util.List;

/**
 * Opens one kind of {@link MemoryStore} from a {@link StoreSpec} such as {@code sqlite:memory.db}. Each
 * store module registers one provider for its scheme ({@code META-INF/services/dev.engram.spi.StoreProvider},
 * and {@code provides} in a {@code module-info} where the module has one); {@link StoreSpec} finds them with
 * {@link java.util.ServiceLoader}, so nothing in {@code memory-api} depends on a store. Implementations are
 * public, have a public no-argument constructor and are thread-safe.
 */
public interface StoreProvider {

  /**
   * The scheme this provider opens, lower case, e.g. {@code "sqlite"}.
   *
   * @return the scheme
   */
  String scheme();

  /**
   * Other spellings of the scheme this provider also takes (e.g. {@code "postgresql"} for
   * {@code "postgres"}); none by default.
   *
   * @return the aliases, lower case
   */
  default List<String> aliases() {
    return List.of();
  }

  /**
   * How a spec of this scheme is written, for messages and help texts, e.g. {@code "sqlite:FILE"}.
   *
   * @return the usage
   */
  String usage();

  /**
   * Checks what followed {@code scheme:} and returns its normal form, the one {@link StoreSpec#location()}
   * holds. Normalizing a normal form returns it unchanged.
   *
   * @param setting the name of the setting the spec came from, for the message (e.g. {@code "--store"})
   * @param location what followed {@code scheme:}, empty when nothing did
   * @return the normal form
   * @throws dev.engram.InvalidInputException naming {@code setting} when the location is malformed; the
   *     message never repeats a credential
   */
  String normalize(String setting, String location);

  /**
   * Opens the store at a normalized location. The caller owns the store and closes it.
   *
   * @param location a location {@link #normalize} returned
   * @param options how to open it
   * @return the open store
   * @throws dev.engram.StoreException when it cannot be opened, or when {@code options.mustExist()} and
   *     it does not exist
   */
  MemoryStore open(String location, StoreOpenOptions options);

  /**
   * The location as it may be shown in logs and messages: without passwords or other credentials. The
   * default shows it unchanged.
   *
   * @param location a normalized location
   * @return what may be shown
   */
  default String describe(String location) {
    return location;
  }
}
