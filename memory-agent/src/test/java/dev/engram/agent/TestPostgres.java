/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.agent;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.engram.store.postgres.PostgresMemoryStore;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;

/**
 * The PostgreSQL these tests share: the server named by {@code ENGRAM_PG_URL}, or else one embedded
 * server started once for this JVM. Every store lives in a fresh schema.
 */
final class TestPostgres {
  private static final AtomicInteger SCHEMAS = new AtomicInteger();
  private static final java.util.List<String> CREATED = new java.util.concurrent.CopyOnWriteArrayList<>();
  private static @Nullable HikariDataSource pool;
  private static boolean external;

  private TestPostgres() {}

  static synchronized PostgresMemoryStore freshStore() {
    if (pool == null) {
      pool = start();
    }
    String schema = "agent_" + ProcessHandle.current().pid() + "_" + SCHEMAS.incrementAndGet();
    CREATED.add(schema);
    return PostgresMemoryStore.builder().dataSource(pool).schema(schema).build();
  }

  private static HikariDataSource start() {
    String url = System.getenv("ENGRAM_PG_URL");
    EmbeddedPostgres embedded = null;
    if (url == null || url.isBlank()) {
      try {
        EmbeddedPostgres pg = EmbeddedPostgres.builder().start();
        embedded = pg;
        url = pg.getJdbcUrl("postgres", "postgres");
      } catch (Exception e) {
        throw new IllegalStateException("The memory-agent PostgreSQL tests need a server: the embedded one failed ("
            + e + "); set ENGRAM_PG_URL=jdbc:postgresql://HOST:5432/DB?user=USER&password=PASSWORD", e);
      }
    }
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(url);
    config.setPoolName("engram-agent-test");
    config.setMaximumPoolSize(8);
    HikariDataSource ds = new HikariDataSource(config);
    EmbeddedPostgres server = embedded;
    external = server == null;
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      if (external) {
        for (String schema : CREATED) {
          try (java.sql.Connection c = ds.getConnection(); java.sql.Statement st = c.createStatement()) {
            st.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
          } catch (java.sql.SQLException ignored) {
            // best effort on the way out
          }
        }
      }
      ds.close();
      if (server != null) {
        try {
          server.close();
        } catch (java.io.IOException ignored) {
          // the server's directory is temporary
        }
      }
    }, "engram-agent-test-postgres"));
    return ds;
  }
}
