/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.postgres;

import dev.engram.InvalidInputException;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.StoreOpenOptions;
import dev.engram.spi.StoreProvider;
import java.util.List;
import java.util.Objects;

/**
 * The {@code postgres:URL} scheme of {@link dev.engram.spi.StoreSpec} (also spelled {@code postgresql:}): a
 * {@link PostgresMemoryStore} on that database with the default table prefix, owning its connection pool.
 * The URL may be a JDBC URL ({@code jdbc:postgresql://host:5432/db?user=u}) or start with
 * {@code postgresql://}, {@code postgres://} or {@code //}, which become one; the location keeps the JDBC
 * form. The PostgreSQL driver ({@code org.postgresql:postgresql}) must be on the class path.
 */
public final class PostgresStoreProvider implements StoreProvider {
  /** Creates the provider; {@link java.util.ServiceLoader} calls it. */
  public PostgresStoreProvider() {}

  @Override
  public String scheme() {
    return "postgres";
  }

  @Override
  public List<String> aliases() {
    return List.of("postgresql");
  }

  @Override
  public String usage() {
    return "postgres:URL";
  }

  /**
   * The JDBC form of the URL.
   *
   * @throws InvalidInputException naming {@code setting} when it is no PostgreSQL URL
   */
  @Override
  public String normalize(String setting, String location) {
    Objects.requireNonNull(setting, "setting");
    String url = Objects.requireNonNull(location, "location").strip();
    if (url.startsWith("//")) {
      url = "jdbc:postgresql:" + url;
    } else if (url.startsWith("postgresql://") || url.startsWith("postgres://")) {
      url = "jdbc:postgresql:" + url.substring(url.indexOf("//"));
    }
    if (!url.startsWith("jdbc:postgresql:") || url.length() == "jdbc:postgresql:".length()) {
      throw new InvalidInputException(setting,
          "postgres: needs a URL such as postgres:jdbc:postgresql://localhost:5432/app?user=app");
    }
    return url;
  }

  @Override
  public MemoryStore open(String location, StoreOpenOptions options) {
    Objects.requireNonNull(options, "options");
    return new PostgresMemoryStore(location);
  }

  /** The URL without its query (user, password and other parameters) and without user information. */
  @Override
  public String describe(String location) {
    int q = location.indexOf('?');
    String shown = q < 0 ? location : location.substring(0, q);
    int at = shown.lastIndexOf('@');
    int hosts = shown.indexOf("//");
    if (at >= 0 && hosts >= 0 && at > hosts) {
      shown = shown.substring(0, hosts + 2) + shown.substring(at + 1);
    }
    return shown;
  }
}
