/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.sqlite;

import dev.engram.ErrorCode;
import dev.engram.StoreException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The schema: versioned SQL scripts ({@code V1__init.sql}, …) next to this class, applied in order and
 * recorded in the library-owned {@value #VERSION_TABLE} table. A database is first judged without
 * changing it: one that is not Engram's, or that a newer Engram already migrated, is refused before
 * anything is written. Migrating runs under SQLite's write lock and re-reads the version inside it, so
 * two processes opening a new file at once apply each script exactly once.
 */
final class Migrations {
  private static final Logger LOG = LoggerFactory.getLogger(Migrations.class);
  static final String VERSION_TABLE = "engram_schema_version";
  /** {@code PRAGMA application_id} of an Engram database: "Engr". */
  static final int APPLICATION_ID = 0x456E6772;

  private record Migration(int version, String description, String resource) {}

  private static final List<Migration> ALL = List.of(
      new Migration(1, "init", "V1__init.sql"),
      new Migration(2, "unique active path and content", "V2__unique_active.sql"),
      new Migration(3, "full-text bounds", "V3__fts_bounds.sql"),
      new Migration(4, "erasure", "V4__erasure.sql"),
      new Migration(5, "sources and event time", "V5__sources.sql"),
      new Migration(6, "event origin", "V6__event_origin.sql"),
      new Migration(7, "sources by event time", "V7__sources_occurred_at.sql"),
      new Migration(8, "full text per transaction", "V8__fts_per_transaction.sql"),
      new Migration(9, "vector epoch", "V9__vector_epoch.sql"),
      new Migration(10, "one text analysis for full text", "V10__text_analysis.sql"),
      new Migration(11, "versions by event time", "V11__versions_occurred_at.sql"),
      new Migration(12, "fewer pages per write", "V12__fewer_pages_per_write.sql"),
      new Migration(13, "retrieval keys", "V13__retrieval_keys.sql"),
      new Migration(14, "experience and the review inbox", "V14__experience_review.sql"),
      new Migration(15, "term counts", "V15__term_counts.sql"),
      new Migration(16, "model usage per scope and day", "V16__model_usage.sql"),
      new Migration(17, "work claims", "V17__work_claims.sql"),
      new Migration(18, "text analysis 2: katakana and Hangul bigrams", "V18__text_analysis_2.sql"));

  private Migrations() {}

  /** The scripts' resource names, oldest first. */
  static List<String> resources() {
    return ALL.stream().map(Migration::resource).toList();
  }

  /** Every schema version, ascending (numbers may be skipped: each names one migration for good). */
  static List<Integer> versions() {
    return ALL.stream().map(Migration::version).toList();
  }

  static int latest() {
    return ALL.get(ALL.size() - 1).version();
  }

  /** What a database holds. */
  sealed interface State permits Empty, Engram, Foreign {}

  record Empty() implements State {}

  record Engram(int version) implements State {}

  record Foreign(String reason) implements State {}

  /** Judges the database with reads only. */
  static State inspect(Session s) throws SQLException {
    int applicationId;
    List<String> tables = new ArrayList<>();
    boolean hasVersionTable = false;
    try (Statement st = s.connection().createStatement()) {
      try (ResultSet rs = st.executeQuery("PRAGMA application_id")) {
        applicationId = rs.next() ? rs.getInt(1) : 0;
      }
      try (ResultSet rs = st.executeQuery("SELECT name FROM sqlite_master"
          + " WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' ORDER BY name")) {
        while (rs.next()) {
          String name = rs.getString(1);
          tables.add(name);
          hasVersionTable |= VERSION_TABLE.equals(name);
        }
      }
      boolean foreignId = applicationId != 0 && applicationId != APPLICATION_ID;
      if (foreignId) {
        return new Foreign(String.format(Locale.ROOT,
            "its application_id is 0x%08x; an Engram database has 0x%08x", applicationId, APPLICATION_ID));
      }
      if (hasVersionTable) {
        try (ResultSet rs = st.executeQuery("SELECT coalesce(max(version), 0) FROM " + VERSION_TABLE)) {
          return new Engram(rs.next() ? rs.getInt(1) : 0);
        }
      }
    }
    if (tables.isEmpty()) {
      return new Empty();
    }
    List<String> shown = tables.size() > 5 ? tables.subList(0, 5) : tables;
    return new Foreign("it holds tables " + String.join(", ", shown) + (tables.size() > 5 ? ", …" : "")
        + " but no " + VERSION_TABLE + " table");
  }

  /** Throws a {@link ErrorCode#STORE_INCOMPATIBLE} failure unless this library can use the database. */
  static void requireUsable(String database, State state) {
    if (state instanceof Foreign f) {
      throw new StoreException(ErrorCode.STORE_INCOMPATIBLE,
          database + " is not an Engram database: " + f.reason() + "; it was left unchanged", null);
    }
    if (state instanceof Engram e && e.version() > latest()) {
      throw new StoreException(ErrorCode.STORE_INCOMPATIBLE,
          database + " has Engram schema version " + e.version() + ", newer than version " + latest()
              + " that this library knows; use a newer Engram release. The database was left unchanged", null);
    }
  }

  /**
   * Brings the database to the latest schema: WAL journal, then every missing script and its version
   * row in one write transaction.
   */
  static void migrate(Session s, String database, Duration lockTimeout) throws SQLException {
    requireSqliteVersion(s, database);
    State state = inspect(s);
    requireUsable(database, state);
    WriteLock.withBusyRetry(database, "switch to the WAL journal", lockTimeout,
        () -> s.execute("PRAGMA journal_mode = WAL"));
    if (state instanceof Engram e && e.version() == latest()) {
      return;
    }
    WriteLock.begin(s, database, lockTimeout);
    boolean committed = false;
    try {
      State locked = inspect(s);
      requireUsable(database, locked);
      int current = locked instanceof Engram e ? e.version() : 0;
      s.execute("CREATE TABLE IF NOT EXISTS " + VERSION_TABLE + " (version INTEGER PRIMARY KEY,"
          + " description TEXT NOT NULL, applied_at TEXT NOT NULL)");
      for (Migration m : ALL) {
        if (m.version() > current) {
          for (String statement : statements(script(m.resource()))) {
            s.execute(statement);
          }
          try (PreparedStatement ps = s.connection().prepareStatement(
              "INSERT INTO " + VERSION_TABLE + " (version, description, applied_at) VALUES (?, ?, ?)")) {
            ps.setInt(1, m.version());
            ps.setString(2, m.description());
            ps.setString(3, Instant.now().toString());
            ps.executeUpdate();
          }
        }
      }
      s.execute("PRAGMA application_id = " + APPLICATION_ID);
      WriteLock.commit(s, database, lockTimeout);
      committed = true;
      if (current > 0 && current < latest()) {
        LOG.info("Upgraded the Engram schema of {} from version {} to {}", database, current, latest());
      } else if (current < latest()) {
        LOG.debug("Created the Engram schema (version {}) in {}", latest(), database);
      }
    } finally {
      if (!committed) {
        WriteLock.rollbackQuietly(s, null);
      }
    }
  }

  /** The oldest SQLite whose features the schema and queries use (FTS5 secure-delete, concat_ws). */
  static final int[] MIN_SQLITE = {3, 44, 0};

  private static void requireSqliteVersion(Session s, String database) throws SQLException {
    String version;
    try (Statement st = s.connection().createStatement(); ResultSet rs = st.executeQuery("SELECT sqlite_version()")) {
      rs.next();
      version = rs.getString(1);
    }
    String[] parts = version.split("\\.");
    for (int i = 0; i < MIN_SQLITE.length; i++) {
      int have = i < parts.length ? Integer.parseInt(parts[i].replaceAll("\\D.*", "")) : 0;
      if (have != MIN_SQLITE[i]) {
        if (have < MIN_SQLITE[i]) {
          throw new StoreException(ErrorCode.STORE_INCOMPATIBLE, database + " is served by SQLite " + version
              + "; Engram needs SQLite " + MIN_SQLITE[0] + "." + MIN_SQLITE[1] + "." + MIN_SQLITE[2]
              + " or newer (use a recent org.xerial:sqlite-jdbc)", null);
        }
        return;
      }
    }
  }

  private static String script(String resource) {
    try (InputStream in = Migrations.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("migration script " + resource + " is missing from the classpath");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IllegalStateException("cannot read migration script " + resource, e);
    }
  }

  /**
   * Splits a script into statements: each ends with {@code ;} at the end of a line, except a
   * {@code CREATE TRIGGER}, which ends at a line {@code END;}. Lines starting with {@code --} are comments.
   */
  static List<String> statements(String script) {
    List<String> out = new ArrayList<>();
    StringBuilder current = new StringBuilder();
    boolean trigger = false;
    for (String line : script.split("\n")) {
      String t = line.strip();
      if (t.isEmpty() || t.startsWith("--")) {
        continue;
      }
      if (current.length() == 0) {
        trigger = t.toUpperCase(Locale.ROOT).startsWith("CREATE TRIGGER");
      }
      current.append(line).append('\n');
      if (trigger ? t.equalsIgnoreCase("END;") : t.endsWith(";")) {
        out.add(current.toString().strip());
        current.setLength(0);
      }
    }
    if (!current.toString().isBlank()) {
      throw new IllegalStateException("migration script ends inside a statement: " + current);
    }
    return out;
  }
}
