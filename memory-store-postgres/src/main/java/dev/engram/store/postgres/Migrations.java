/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.postgres;

import dev.engram.StoreException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The versioned schema: SQL resources {@code V<n>__<description>.sql} applied in order inside one
 * transaction that holds a transaction-level advisory lock, so any number of processes can start at
 * once and each script runs exactly once. Applied versions are recorded in the library-owned table
 * {@code <prefix>schema_history}.
 */
final class Migrations {
  private static final Logger LOG = LoggerFactory.getLogger(Migrations.class);
  /** Advisory lock class id of Engram migrations ("Engr"). */
  private static final int LOCK_CLASS = 0x456E6772;
  private static final List<String> SCRIPTS = List.of("V1__init.sql", "V2__unique_active.sql", "V3__sources.sql",
      "V4__sources_occurred_at.sql", "V5__vector_epoch.sql", "V6__topic_counts.sql", "V7__text_analysis.sql",
      "V8__search_costs.sql", "V9__counted_inserts.sql", "V10__versions_occurred_at.sql",
      "V11__expected_head_lock.sql", "V12__one_hash_index_entry.sql",
      "V13__topic_counts_above_zero.sql", "V14__retrieval_keys.sql", "V15__experience_review.sql",
      "V16__term_counts.sql",
      "V17__model_usage.sql");
  /** The version of each script, from its name ({@code V<n>__…}), oldest first; strictly increasing. */
  private static final List<Integer> VERSIONS = versionsOf(SCRIPTS);

  /** The newest schema version this library knows. */
  static final int LATEST = VERSIONS.get(VERSIONS.size() - 1);

  private static List<Integer> versionsOf(List<String> scripts) {
    List<Integer> out = new ArrayList<>(scripts.size());
    for (String name : scripts) {
      int v = Integer.parseInt(name.substring(1, name.indexOf("__")));
      if (!out.isEmpty() && v <= out.get(out.size() - 1)) {
        throw new IllegalStateException("migration " + name + " is out of order");
      }
      out.add(v);
    }
    return List.copyOf(out);
  }

  /** The schema versions, oldest first. */
  static List<Integer> versions() {
    return VERSIONS;
  }

  private final String schema;
  private final String prefix;
  private final String history;

  Migrations(String schema, String prefix) {
    this.schema = schema;
    this.prefix = prefix;
    this.history = (schema.isEmpty() ? "" : schema + ".") + prefix + "schema_history";
  }

  /** The scripts with placeholders resolved, oldest first. */
  List<String> scripts() {
    List<String> out = new ArrayList<>(SCRIPTS.size());
    for (String name : SCRIPTS) {
      out.add(render(name));
    }
    return out;
  }

  /** Brings the schema to {@link #LATEST}; refuses a schema newer than that. */
  void migrate(Connection c) throws SQLException {
    boolean autoCommit = c.getAutoCommit();
    c.setAutoCommit(false);
    try {
      try (PreparedStatement lock = c.prepareStatement("SELECT pg_advisory_xact_lock(?, ?)")) {
        lock.setInt(1, LOCK_CLASS);
        lock.setInt(2, history.hashCode());
        lock.execute();
      }
      try (Statement st = c.createStatement()) {
        if (!schema.isEmpty()) {
          st.execute("CREATE SCHEMA IF NOT EXISTS " + schema);
        }
        st.execute("CREATE TABLE IF NOT EXISTS " + history + " ("
            + "version integer PRIMARY KEY, "
            + "script text NOT NULL, "
            + "installed_at timestamptz NOT NULL DEFAULT now())");
      }
      int current = installedVersion(c);
      requireKnown(current);
      for (int i = 0; i < SCRIPTS.size(); i++) {
        int v = VERSIONS.get(i);
        if (v <= current) {
          continue;
        }
        String name = SCRIPTS.get(i);
        try (Statement st = c.createStatement()) {
          st.execute(render(name));
        }
        try (PreparedStatement ps = c.prepareStatement(
            "INSERT INTO " + history + " (version, script) VALUES (?, ?)")) {
          ps.setInt(1, v);
          ps.setString(2, name);
          ps.executeUpdate();
        }
      }
      c.commit();
      if (current < LATEST && current > 0) {
        // Upgraded tables may hold data the new indexes and tables were just built over: plan on it at once.
        try (Statement st = c.createStatement()) {
          st.execute("ANALYZE " + (schema.isEmpty() ? "" : schema + ".") + prefix + "versions");
        }
        c.commit();
      }
      if (current > 0 && current < LATEST) {
        LOG.info("Upgraded the Engram schema from version {} to {} ({}tables prefixed '{}')", current, LATEST,
            schema.isEmpty() ? "" : "schema " + schema + ", ", prefix);
      } else if (current < LATEST) {
        LOG.debug("Created the Engram schema (version {}; {}tables prefixed '{}')", LATEST,
            schema.isEmpty() ? "" : "schema " + schema + ", ", prefix);
      }
    } catch (SQLException | RuntimeException e) {
      try {
        c.rollback();
      } catch (SQLException suppressed) {
        e.addSuppressed(suppressed);
      }
      throw e;
    } finally {
      c.setAutoCommit(autoCommit);
    }
  }

  /**
   * Checks a schema the host manages: when the history table exists it must be at {@link #LATEST};
   * without it, the store's tables must exist.
   */
  void verify(Connection c) throws SQLException {
    if (exists(c, history)) {
      int current = installedVersion(c);
      requireKnown(current);
      if (current < LATEST) {
        throw StoreException.incompatible("the Engram schema is at version " + current + " but this library needs "
            + LATEST + "; apply the newer migrations or build the store with runMigrations(true)");
      }
    } else if (!exists(c, (schema.isEmpty() ? "" : schema + ".") + prefix + "versions")) {
      throw StoreException.incompatible("no Engram tables with prefix '" + prefix + "'"
          + (schema.isEmpty() ? "" : " in schema " + schema)
          + "; create them from PostgresMemoryStore.migrationScripts or build the store with runMigrations(true)");
    }
  }

  private int installedVersion(Connection c) throws SQLException {
    try (Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT coalesce(max(version), 0) FROM " + history)) {
      rs.next();
      return rs.getInt(1);
    }
  }

  private static void requireKnown(int current) {
    if (current > LATEST) {
      throw StoreException.incompatible("the Engram schema is at version " + current
          + ", newer than version " + LATEST + " that this library knows; upgrade the library");
    }
  }

  private static boolean exists(Connection c, String table) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT to_regclass(?) IS NOT NULL")) {
      ps.setString(1, table);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getBoolean(1);
      }
    }
  }

  private String render(String name) {
    String path = "/dev/engram/store/postgres/" + name;
    try (InputStream in = Migrations.class.getResourceAsStream(path)) {
      if (in == null) {
        throw new IllegalStateException("migration " + path + " is missing from the classpath");
      }
      String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      return text.replace("${schema}", schema.isEmpty() ? "" : schema + ".").replace("${prefix}", prefix);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read migration " + path, e);
    }
  }
}
