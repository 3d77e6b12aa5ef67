/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.sqlite;

import dev.engram.EntryStatus;
import dev.engram.MemoryEntry;
import dev.engram.MemoryEvent;
import dev.engram.Revision;
import dev.engram.spi.EntryJson;
import dev.engram.spi.FullTextQuery;
import dev.engram.spi.ScoredEntry;
import dev.engram.spi.StoreTransaction;
import dev.engram.spi.StoredVector;
import dev.engram.spi.TopicState;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.ArrayList;
import java.util.Map;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A transaction on the writer connection. SQLite holds the write lock ({@code BEGIN IMMEDIATE}) for its
 * whole life, so reads here see a stable state plus this transaction's own changes. The topic index and
 * active counts follow the version rows through triggers in the same transaction; the full-text index gets
 * the versions the transaction made active from the session's list of them ({@link Session#flushFullText})
 * and loses the terms of a version that stops being active or is deleted through its trigger. The key
 * index of the retrieval keys is kept the same way, from a second list, with triggers that act only on
 * versions flagged as having keys.
 */
final class SqliteTransaction extends SessionReads implements StoreTransaction {
  /** Whether this transaction erased rows; the store then wipes the write-ahead log after the commit. */
  private boolean erased;

  private static final String INSERT_VERSION = "INSERT INTO versions (version_id, entry_id, version,"
      + " previous_version_id, scope, content, topics, type, priority, disclosure, glossary, path, source,"
      + " evidence, content_hash, status, superseded_by, created_at, updated_at, created_in_revision, occurred_at,"
      + " occurred_s, occurred_n) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
  private static final String UPDATE_STATUS =
      "UPDATE versions SET status = ?, superseded_by = ?, updated_at = ? WHERE version_id = ? AND scope = ?";
  /** The same update only for a version that is not active: it reports whether the version became active. */
  private static final String ACTIVATE = UPDATE_STATUS + " AND status <> 'ACTIVE'";
  private static final String VERSION_SCOPE = "SELECT scope FROM versions WHERE version_id = ?";
  private static final String INSERT_EVENT = "INSERT INTO events (event_id, scope, entry_id, kind, before, after,"
      + " actor, reason, revision, at, origin) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
  /** Appends a revision only when it follows the scope's head: the gap check and the insert in one statement. */
  private static final String INSERT_REVISION =
      "INSERT INTO revisions (scope, revision, changes, at) SELECT ?1, ?2, ?3, ?4"
          + " WHERE ?2 = 1 + coalesce((SELECT max(revision) FROM revisions WHERE scope = ?1), 0)";
  private static final String TOPIC_WRITTEN =
      "INSERT INTO topics (scope, topic, last_write_revision, last_updated_at) VALUES (?, ?, ?, ?)"
          + " ON CONFLICT (scope, topic) DO UPDATE SET"
          + " last_write_revision = max(last_write_revision, excluded.last_write_revision),"
          + " last_updated_at = excluded.last_updated_at";
  private static final String TOPIC_CURATED =
      "INSERT INTO topics (scope, topic, blurb, last_curated_revision) VALUES (?, ?, ?, ?)"
          + " ON CONFLICT (scope, topic) DO UPDATE SET"
          + " last_curated_revision = max(last_curated_revision, excluded.last_curated_revision),"
          + " blurb = coalesce(excluded.blurb, blurb)";
  private static final String ENTRY_SCOPE = "SELECT scope FROM versions WHERE entry_id = ? ORDER BY version LIMIT 1";
  private static final String ENTRY_TOPICS =
      "SELECT json_group_array(DISTINCT j.value) FROM versions v, json_each(v.topics) j WHERE v.entry_id = ?";
  private static final String DELETE_ENTRY_EVENTS = "DELETE FROM events WHERE entry_id = ?";
  private static final String DELETE_ENTRY_VERSIONS = "DELETE FROM versions WHERE entry_id = ?";
  private static final String DELETE_UNCARRIED_TOPICS = "DELETE FROM topics"
      + " WHERE scope = ? AND topic IN (SELECT value FROM json_each(?))"
      + " AND NOT EXISTS (SELECT 1 FROM version_topics vt WHERE vt.scope = topics.scope AND vt.topic = topics.topic)";
  private static final String COUNT_SCOPE_ENTRIES = "SELECT count(DISTINCT entry_id) FROM versions WHERE scope = ?";
  private static final String DELETE_SCOPE_EVENTS =
      "DELETE FROM events WHERE entry_id IN (SELECT entry_id FROM versions WHERE scope = ?)";
  private static final String DELETE_SCOPE_VERSIONS = "DELETE FROM versions WHERE scope = ?";
  private static final String DELETE_SCOPE_TOPICS = "DELETE FROM topics WHERE scope = ?";
  private static final String DELETE_SCOPE_COUNTS = "DELETE FROM topic_counts WHERE scope = ?";
  private static final String DELETE_SCOPE_REVISIONS = "DELETE FROM revisions WHERE scope = ?";
  private static final String INSERT_SOURCE = "INSERT INTO sources (scope, position, source_id, session_id, speaker,"
      + " text, occurred_at, occurred_s, occurred_n, metadata, captured_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";
  private static final String SOURCE_LAST_POSITION =
      "INSERT INTO source_state (scope, last_position, cursor) VALUES (?, ?, 0)"
          + " ON CONFLICT (scope) DO UPDATE SET last_position = excluded.last_position";
  private static final String SOURCE_CURSOR = "UPDATE source_state SET cursor = ? WHERE scope = ?";
  private static final String RESTORE_SOURCE_STATE = "INSERT INTO source_state (scope, last_position, cursor)"
      + " VALUES (?, ?, ?) ON CONFLICT (scope) DO UPDATE SET last_position = excluded.last_position,"
      + " cursor = excluded.cursor";
  private static final String DELETE_SOURCE = "DELETE FROM sources WHERE scope = ? AND source_id = ?";
  private static final String DELETE_SCOPE_SOURCES = "DELETE FROM sources WHERE scope = ?";
  private static final String DELETE_SCOPE_SOURCE_STATE = "DELETE FROM source_state WHERE scope = ?";
  /** Flags a version of the scope as having keys; no row when it does not exist, is elsewhere or has keys. */
  private static final String MARK_KEYED =
      "UPDATE versions SET has_keys = 1 WHERE version_id = ? AND scope = ? AND has_keys = 0";
  private static final String VERSION_KEYED = "SELECT scope, has_keys FROM versions WHERE version_id = ?";
  private static final String INSERT_KEYS = "INSERT INTO version_keys (version_id, scope, keys) VALUES (?, ?, ?)";
  private static final String DELETE_VECTORS = "DELETE FROM version_vectors WHERE profile = ? AND version_id = ?";
  private static final String INSERT_VECTOR =
      "INSERT INTO version_vectors (profile, version_id, ordinal, view, vector) VALUES (?, ?, ?, ?, ?)";

  private final SqliteMemoryStore store;
  private final Session session;
  private final String scope;
  private final int depth;
  private boolean closed;

  SqliteTransaction(SqliteMemoryStore store, Session session, String scope, int depth) {
    this.store = store;
    this.session = session;
    this.scope = scope;
    this.depth = depth;
  }

  /** 0 for a transaction, 1 and more for savepoints nested in it. */
  int depth() {
    return depth;
  }

  void close() {
    closed = true;
  }

  Session session() {
    return session;
  }

  private Session s() {
    if (closed) {
      throw new IllegalStateException("transaction on " + scope + " is closed");
    }
    return session;
  }

  @FunctionalInterface
  private interface Step<T> {
    T run(Session s) throws SQLException;
  }

  private <T> T run(String what, Step<T> step) {
    Session s = s();
    try {
      return step.run(s);
    } catch (SQLException e) {
      throw store.failure(what, e);
    }
  }

  @Override
  public String scope() {
    return scope;
  }

  /** Refuses a write for another scope than the one this transaction is bound to. */
  private void requireScope(String written, String what) {
    s();
    if (!written.equals(scope)) {
      throw new IllegalStateException(what + " of scope " + written + " in a transaction on " + scope);
    }
  }

  /** The scope of a stored version; {@link IllegalStateException} when there is none. */
  private String versionScope(Session s, String versionId) throws SQLException {
    PreparedStatement ps = s.prepare(VERSION_SCOPE);
    ps.setString(1, versionId);
    try (ResultSet rs = ps.executeQuery()) {
      if (!rs.next()) {
        throw new IllegalStateException("version " + versionId + " does not exist");
      }
      return rs.getString(1);
    }
  }

  @Override
  public void insertVersion(MemoryEntry v) {
    requireScope(v.scope(), "version " + v.versionId());
    Session s = s();
    try {
      PreparedStatement ps = s.prepare(INSERT_VERSION);
      ps.setString(1, v.versionId());
      ps.setString(2, v.entryId());
      ps.setInt(3, v.version());
      ps.setString(4, v.previousVersionId());
      ps.setString(5, v.scope());
      ps.setString(6, v.content());
      ps.setString(7, Codec.strings(v.topics()));
      ps.setString(8, v.type().wireName());
      ps.setInt(9, v.priority());
      ps.setString(10, v.disclosure());
      ps.setString(11, Codec.strings(v.glossary()));
      ps.setString(12, v.path());
      ps.setString(13, v.source());
      ps.setString(14, Codec.strings(v.evidence()));
      ps.setString(15, v.contentHash());
      ps.setString(16, v.status().name());
      ps.setString(17, v.supersededBy());
      ps.setString(18, Codec.instant(v.createdAt()));
      ps.setString(19, Codec.instant(v.updatedAt()));
      ps.setLong(20, v.createdInRevision());
      Instant occurred = v.occurredAt();
      ps.setString(21, occurred == null ? null : Codec.instant(occurred));
      // the sortable form the event-time filter and its index compare
      if (occurred == null) {
        ps.setNull(22, java.sql.Types.INTEGER);
        ps.setNull(23, java.sql.Types.INTEGER);
      } else {
        ps.setLong(22, occurred.getEpochSecond());
        ps.setInt(23, occurred.getNano());
      }
      ps.executeUpdate();
      if (v.isActive()) {
        s.fullTextPending(v.versionId());
      }
    } catch (SQLException e) {
      if (SqliteErrors.isConstraint(e)) {
        throw new IllegalStateException("version " + v.versionId() + " of entry " + v.entryId() + " (version "
            + v.version() + ") already exists, or scope " + v.scope() + " already has an active version with its "
            + (v.path() == null ? "content" : "path"), e);
      }
      throw store.failure("insert a version", e);
    }
  }

  @Override
  public void updateStatus(String versionId, EntryStatus status, @Nullable String supersededBy, Instant updatedAt) {
    int changed = run("update the status of a version", s -> {
      if (status != EntryStatus.ACTIVE && (s.isFullTextPending(versionId) || s.isKeysPending(versionId))) {
        // the triggers take the version's terms out of the full-text and key indexes, so they must be in them
        s.flushFullText();
      }
      if (status == EntryStatus.ACTIVE && setStatus(s, ACTIVATE, versionId, status, supersededBy, updatedAt) == 1) {
        // a version that was not active: the full-text index waits for it, and the key index for its keys
        // if it has any
        s.fullTextPending(versionId);
        s.keysPending(versionId);
        return 1;
      }
      int n = setStatus(s, UPDATE_STATUS, versionId, status, supersededBy, updatedAt);
      if (n == 0) {
        requireScope(versionScope(s, versionId), "status change of version " + versionId);
      }
      return n;
    });
    if (changed == 0) {
      throw new IllegalStateException("version " + versionId + " does not exist");
    }
  }

  private int setStatus(Session s, String sql, String versionId, EntryStatus status, @Nullable String supersededBy,
      Instant updatedAt) throws SQLException {
    PreparedStatement ps = s.prepare(sql);
    ps.setString(1, status.name());
    ps.setString(2, supersededBy);
    ps.setString(3, Codec.instant(updatedAt));
    ps.setString(4, versionId);
    ps.setString(5, scope);
    return ps.executeUpdate();
  }

  @Override
  public void appendEvent(MemoryEvent e) {
    requireScope(e.scope(), "event " + e.eventId());
    Session s = s();
    try {
      PreparedStatement ps = s.prepare(INSERT_EVENT);
      ps.setString(1, e.eventId());
      ps.setString(2, e.scope());
      ps.setString(3, e.entryId());
      ps.setString(4, e.kind().name());
      ps.setString(5, e.before() == null ? null : EntryJson.writeEntry(e.before()));
      ps.setString(6, e.after() == null ? null : EntryJson.writeEntry(e.after()));
      ps.setString(7, e.actor());
      ps.setString(8, e.reason());
      ps.setLong(9, e.revision());
      ps.setString(10, Codec.instant(e.at()));
      ps.setString(11, e.origin());
      ps.executeUpdate();
    } catch (SQLException ex) {
      if (SqliteErrors.isConstraint(ex)) {
        throw new IllegalStateException("event " + e.eventId() + " already exists", ex);
      }
      throw store.failure("append an event", ex);
    }
  }

  @Override
  public void appendRevision(Revision r) {
    if (!r.scope().equals(scope)) {
      throw new IllegalStateException("revision for " + r.scope() + " in a transaction on " + scope);
    }
    int inserted = run("append a revision", s -> {
      PreparedStatement ps = s.prepare(INSERT_REVISION);
      ps.setString(1, scope);
      ps.setLong(2, r.revision());
      ps.setString(3, EntryJson.writeChanges(r.changes()));
      ps.setString(4, Codec.instant(r.at()));
      return ps.executeUpdate();
    });
    if (inserted == 0) {
      long head = headRevision(scope);
      throw new IllegalStateException("revision " + r.revision() + " does not follow head " + head + " of " + scope);
    }
  }

  @Override
  public void markTopicsWritten(String topicScope, Collection<String> topics, long revision, Instant at) {
    requireScope(topicScope, "topic rows");
    run("mark topics written", s -> {
      PreparedStatement ps = s.prepare(TOPIC_WRITTEN);
      String stamp = Codec.instant(at);
      for (String topic : topics) {
        ps.setString(1, topicScope);
        ps.setString(2, topic);
        ps.setLong(3, revision);
        ps.setString(4, stamp);
        ps.executeUpdate();
      }
      return null;
    });
  }

  @Override
  public void markTopicCurated(String topicScope, String topic, long revision, @Nullable String blurb) {
    requireScope(topicScope, "topic row " + topic);
    run("mark a topic curated", s -> {
      PreparedStatement ps = s.prepare(TOPIC_CURATED);
      ps.setString(1, topicScope);
      ps.setString(2, topic);
      ps.setString(3, blurb);
      ps.setLong(4, revision);
      ps.executeUpdate();
      return null;
    });
  }

  boolean erased() {
    return erased;
  }

  void markErased() {
    erased = true;
  }

  @Override
  public int eraseEntry(String entryId) {
    return run("erase entry " + entryId, s -> {
      String entryScope;
      PreparedStatement find = s.prepare(ENTRY_SCOPE);
      find.setString(1, entryId);
      try (ResultSet rs = find.executeQuery()) {
        if (!rs.next()) {
          return 0;
        }
        entryScope = rs.getString(1);
      }
      requireScope(entryScope, "erasure of entry " + entryId);
      // deleting an active version takes its terms out of the full-text index, so they must be in it
      s.flushFullText();
      String topics;
      PreparedStatement topicQuery = s.prepare(ENTRY_TOPICS);
      topicQuery.setString(1, entryId);
      try (ResultSet rs = topicQuery.executeQuery()) {
        rs.next();
        topics = rs.getString(1);
      }
      PreparedStatement events = s.prepare(DELETE_ENTRY_EVENTS);
      events.setString(1, entryId);
      events.executeUpdate();
      PreparedStatement versions = s.prepare(DELETE_ENTRY_VERSIONS);
      versions.setString(1, entryId);
      int removed = versions.executeUpdate();
      erased = true;
      s.fullTextCache().clear();
      PreparedStatement uncarried = s.prepare(DELETE_UNCARRIED_TOPICS);
      uncarried.setString(1, entryScope);
      uncarried.setString(2, topics);
      uncarried.executeUpdate();
      return removed;
    });
  }

  /**
   * {@link #eraseScopeContent} and the revision log: the head goes back to 0. The rows go the way every
   * erasure's go (the full-text terms with secure-delete, the write-ahead log wiped after the commit).
   */
  @Override
  public int eraseScope() {
    int entries = eraseScopeContent();
    run("erase the revision log of scope " + scope, s -> {
      PreparedStatement ps = s.prepare(DELETE_SCOPE_REVISIONS);
      ps.setString(1, scope);
      ps.executeUpdate();
      return null;
    });
    erased = true;
    return entries;
  }

  @Override
  public int eraseScopeContent() {
    return run("erase the content of scope " + scope, s -> {
      int entries;
      PreparedStatement count = s.prepare(COUNT_SCOPE_ENTRIES);
      count.setString(1, scope);
      try (ResultSet rs = count.executeQuery()) {
        rs.next();
        entries = rs.getInt(1);
      }
      s.flushFullText();
      for (String sql : List.of(DELETE_SCOPE_EVENTS, DELETE_SCOPE_VERSIONS, DELETE_SCOPE_TOPICS, DELETE_SCOPE_COUNTS,
          DELETE_SCOPE_SOURCES, DELETE_SCOPE_SOURCE_STATE, WorkClaims.DELETE_SCOPE_CLAIMS)) {
        PreparedStatement ps = s.prepare(sql);
        ps.setString(1, scope);
        ps.executeUpdate();
      }
      ExperienceRows.eraseScope(s, scope);
      PreparedStatement usage = s.prepare(UsageRows.DELETE_SCOPE);
      usage.setString(1, scope);
      usage.executeUpdate();
      erased = true;
      s.fullTextCache().clear();
      return entries;
    });
  }

  // ---- model usage (schema version 16, UsageRows)

  @Override
  public void addModelUsage(List<dev.engram.ModelUsageRow> rows) {
    java.util.Objects.requireNonNull(rows, "rows");
    for (dev.engram.ModelUsageRow r : rows) {
      requireScope(java.util.Objects.requireNonNull(r, "row").scope(), "model usage");
    }
    run("add model usage", s -> {
      UsageRows.add(s, rows);
      return null;
    });
  }

  // ---- experience and review items (schema version 14, ExperienceRows)

  @Override
  public void insertExperience(dev.engram.Experience version) {
    requireScope(version.scope(), "experience version " + version.versionId());
    run("store an experience version", s -> {
      ExperienceRows.insert(s, scope, version);
      return null;
    });
  }

  @Override
  public void updateExperienceStatus(String versionId, dev.engram.ExperienceStatus status, Instant at) {
    run("change the status of an experience version", s -> {
      ExperienceRows.status(s, scope, versionId, status, at);
      return null;
    });
  }

  @Override
  public int eraseExperience(String experienceId) {
    int removed = run("erase an experience", s -> ExperienceRows.erase(s, scope, experienceId));
    if (removed > 0) {
      erased = true;
    }
    return removed;
  }

  @Override
  public void putReviewItem(dev.engram.ReviewItem item) {
    requireScope(item.scope(), "review item " + item.id());
    run("store a review item", s -> {
      ExperienceRows.put(s, item);
      return null;
    });
  }

  @Override
  public boolean eraseReviewItem(String itemId) {
    boolean removed = run("erase a review item", s -> ExperienceRows.eraseItem(s, scope, itemId));
    if (removed) {
      erased = true;
    }
    return removed;
  }

  @Override
  public void advanceIncubationCursor(long position) {
    long last = sourceState(scope).lastPosition();
    long cursor = incubationCursor(scope);
    if (position < cursor || position > last) {
      throw new IllegalStateException("incubation cursor " + position + " outside " + cursor + ".." + last + " in " + scope);
    }
    run("advance the incubation cursor", s -> {
      ExperienceRows.incubate(s, scope, position);
      return null;
    });
  }

  // ---- sources

  @Override
  public void insertSource(dev.engram.CapturedSource source) {
    if (!source.scope().equals(scope)) {
      throw new IllegalStateException("source of " + source.scope() + " in a transaction on " + scope);
    }
    dev.engram.spi.SourceState state = sourceState(scope);
    if (source.position() <= state.lastPosition()) {
      throw new IllegalStateException("source position " + source.position() + " does not follow "
          + state.lastPosition() + " in " + scope);
    }
    Session s = s();
    try {
      PreparedStatement ps = s.prepare(INSERT_SOURCE);
      ps.setString(1, scope);
      ps.setLong(2, source.position());
      ps.setString(3, source.id());
      ps.setString(4, source.sessionId());
      ps.setString(5, source.speaker());
      ps.setString(6, source.text());
      ps.setString(7, Codec.instant(source.occurredAt()));
      ps.setLong(8, source.occurredAt().getEpochSecond());
      ps.setLong(9, source.occurredAt().getNano());
      ps.setString(10, Codec.metadata(source.metadata()));
      ps.setString(11, Codec.instant(source.capturedAt()));
      ps.executeUpdate();
      PreparedStatement last = s.prepare(SOURCE_LAST_POSITION);
      last.setString(1, scope);
      last.setLong(2, source.position());
      last.executeUpdate();
    } catch (SQLException e) {
      if (SqliteErrors.isConstraint(e)) {
        throw new IllegalStateException("source " + source.id() + " already exists in " + scope, e);
      }
      throw store.failure("insert a source", e);
    }
  }

  @Override
  public void advanceSourceCursor(long position) {
    dev.engram.spi.SourceState state = sourceState(scope);
    if (position < state.cursor() || position > state.lastPosition()) {
      throw new IllegalStateException("cursor " + position + " outside " + state.cursor() + ".."
          + state.lastPosition() + " in " + scope);
    }
    run("advance the source cursor", x -> {
      PreparedStatement ps = x.prepare(SOURCE_CURSOR);
      ps.setLong(1, position);
      ps.setString(2, scope);
      return ps.executeUpdate();
    });
  }

  @Override
  public void restoreSourceState(dev.engram.spi.SourceState state) {
    dev.engram.spi.SourceState now = sourceState(scope);
    if (state.lastPosition() < now.lastPosition()) {
      throw new IllegalStateException("last position " + state.lastPosition() + " is below " + now.lastPosition()
          + " in " + scope);
    }
    run("restore the source state", x -> {
      PreparedStatement ps = x.prepare(RESTORE_SOURCE_STATE);
      ps.setString(1, scope);
      ps.setLong(2, state.lastPosition());
      ps.setLong(3, state.cursor());
      return ps.executeUpdate();
    });
  }

  @Override
  public boolean eraseSource(String sourceId) {
    return run("erase a source", x -> {
      PreparedStatement ps = x.prepare(DELETE_SOURCE);
      ps.setString(1, scope);
      ps.setString(2, sourceId);
      boolean removed = ps.executeUpdate() > 0;
      if (removed) {
        erased = true;
      }
      return removed;
    });
  }

  @Override
  public void putVectors(String profileId, List<StoredVector> vectors) {
    Map<String, List<StoredVector>> byVersion = new LinkedHashMap<>();
    for (StoredVector v : vectors) {
      byVersion.computeIfAbsent(v.versionId(), k -> new ArrayList<>()).add(v);
    }
    Session s = s();
    try {
      for (String versionId : byVersion.keySet()) {
        requireScope(versionScope(s, versionId), "vectors of version " + versionId);
      }
      for (Map.Entry<String, List<StoredVector>> group : byVersion.entrySet()) {
        PreparedStatement delete = s.prepare(DELETE_VECTORS);
        delete.setString(1, profileId);
        delete.setString(2, group.getKey());
        delete.executeUpdate();
        PreparedStatement insert = s.prepare(INSERT_VECTOR);
        int ordinal = 0;
        for (StoredVector v : group.getValue()) {
          insert.setString(1, profileId);
          insert.setString(2, v.versionId());
          insert.setInt(3, ordinal++);
          insert.setString(4, v.view());
          insert.setBytes(5, StoredVector.toBytes(v.vector()));
          insert.executeUpdate();
        }
      }
    } catch (SQLException e) {
      throw store.failure("store vectors", e);
    }
  }

  /**
   * Stores the keys in {@code version_keys} and flags the version, two statements for a version with
   * keys; its keys wait for the key index with the transaction's other pending versions (indexed only
   * while it is active). An empty list stores nothing, after the same checks.
   */
  @Override
  public void putKeys(String versionId, List<String> keys) {
    for (String key : keys) {
      if (key == null || key.isBlank()) {
        throw new IllegalStateException("a retrieval key of version " + versionId + " is blank");
      }
    }
    run("store the retrieval keys of a version", s -> {
      if (!keys.isEmpty()) {
        PreparedStatement mark = s.prepare(MARK_KEYED);
        mark.setString(1, versionId);
        mark.setString(2, scope);
        if (mark.executeUpdate() == 1) {
          PreparedStatement insert = s.prepare(INSERT_KEYS);
          insert.setString(1, versionId);
          insert.setString(2, scope);
          insert.setString(3, Codec.strings(List.copyOf(keys)));
          insert.executeUpdate();
          s.keysPending(versionId);
          return null;
        }
      }
      // nothing stored: says why, or (an empty list for a version that may take keys) nothing at all
      PreparedStatement find = s.prepare(VERSION_KEYED);
      find.setString(1, versionId);
      try (ResultSet rs = find.executeQuery()) {
        if (!rs.next()) {
          throw new IllegalStateException("version " + versionId + " does not exist");
        }
        requireScope(rs.getString(1), "retrieval keys of version " + versionId);
        if (rs.getInt(2) == 1) {
          throw new IllegalStateException("version " + versionId + " already has retrieval keys");
        }
      }
      if (!keys.isEmpty()) {
        throw new IllegalStateException("version " + versionId + " of scope " + scope + " took no retrieval keys");
      }
      return null;
    });
  }

  @Override
  public void advanceVectorEpoch() {
    try {
      s().prepare(Queries.ADVANCE_VECTOR_EPOCH).executeUpdate();
    } catch (SQLException e) {
      throw store.failure("advance the vector epoch", e);
    }
  }

  // ---- reads: the store's, on the transaction's own connection

  @Override
  <T> T read(String what, boolean point, Read<T> query) {
    return run(what, query::run);
  }
}
