/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.cli;

import dev.engram.StoreException;
import dev.engram.spi.StoreSpec;
import dev.engram.store.postgres.PostgresMemoryStore;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;

/**
 * What the command line reads from the database itself, beside the store SPI: the schema version, the
 * database's own consistency check and every scope that holds data. Read-only.
 */
interface StoreInspector {

  /** The view of a store without a database (the in-memory store). */
  StoreInspector NONE = new StoreInspector() {
    @Override
    public OptionalInt schemaVersion() {
      return OptionalInt.empty();
    }

    @Override
    public IntegrityCheck integrity() {
      return new IntegrityCheck("none (in-memory store)", List.of());
    }

    @Override
    public List<String> allScopes() {
      return List.of();
    }
  };

  /** The inspector of the database {@code spec} names: SQLite and PostgreSQL have one, other stores none. */
  static StoreInspector of(StoreSpec spec) {
    return switch (spec.scheme()) {
      case "sqlite" -> new SqliteInspector(Path.of(spec.location()));
      case "postgres" -> new PostgresInspector(spec.location(), PostgresMemoryStore.DEFAULT_TABLE_PREFIX);
      default -> NONE;
    };
  }

  /** The recorded schema version, empty when the store keeps none. */
  OptionalInt schemaVersion();

  /** The database's own check; {@code problems} is empty when it passed. */
  IntegrityCheck integrity();

  /** Every scope with versions or topic rows, sorted. */
  List<String> allScopes();

  /**
   * One database check.
   *
   * @param method what ran
   * @param problems what it reported, empty when it passed
   */
  record IntegrityCheck(String method, List<String> problems) {
    public IntegrityCheck {
      problems = List.copyOf(problems);
    }
  }

  /** A query over one JDBC connection that the inspector opens and closes per call. */
  @FunctionalInterface
  interface Query<T> {
    T run(Statement st) throws SQLException;
  }

  static List<String> strings(Statement st, String sql) throws SQLException {
    List<String> out = new ArrayList<>();
    try (ResultSet rs = st.executeQuery(sql)) {
      while (rs.next()) {
        out.add(rs.getString(1));
      }
    }
    return out;
  }

  static <T> T withStatement(Connection c, String database, Query<T> query) {
    try (c; Statement st = c.createStatement()) {
      return query.run(st);
    } catch (SQLException e) {
      throw StoreException.unavailable("cannot inspect " + database + ": " + e.getMessage(), e);
    }
  }
}
