/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.sqlite;

import dev.engram.EntryStatus;
import dev.engram.EntryType;
import dev.engram.MemoryEntry;
import dev.engram.MemoryEvent;
import dev.engram.Revision;
import dev.engram.EventKind;
import dev.engram.spi.EntryJson;
import dev.engram.spi.FullTextQuery;
import dev.engram.spi.FullTextResult;
import dev.engram.spi.ScoredEntry;
import dev.engram.spi.StoredVector;
import dev.engram.spi.TopicState;
import java.nio.charset.StandardCharsets;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * The read queries of the store, run on one {@link Session}: the pooled read connection for store
 * reads, the writer connection inside a transaction (so a transaction sees its own changes). Each
 * method is one SQL statement, so it sees one consistent snapshot.
 */
final class Queries {
  /**
   * The columns of a version as one row reads them: version_id (for ordering), the numbers, a mask of
   * the null text columns, and the text columns joined by U+001F into one value, so a row costs one
   * text read instead of seventeen. See {@link #entry}.
   */
  static final String VERSION_COLUMNS = "v.version_id, v.version, v.priority, v.created_in_revision,"
      + " (v.previous_version_id IS NULL) | ((v.disclosure IS NULL) << 1) | ((v.path IS NULL) << 2)"
      + " | ((v.source IS NULL) << 3) | ((v.superseded_by IS NULL) << 4) | ((v.occurred_at IS NULL) << 5),"
      + " concat_ws(char(31), v.entry_id, v.version_id, coalesce(v.previous_version_id, ''), v.scope, v.content,"
      + " v.topics, v.type, coalesce(v.disclosure, ''), v.glossary, coalesce(v.path, ''), coalesce(v.source, ''),"
      + " v.evidence, v.content_hash, v.status, coalesce(v.superseded_by, ''), v.created_at, v.updated_at,"
      + " coalesce(v.occurred_at, ''))";
  private static final int PACKED_FIELDS = 18;
  /** The same version column by column, for the rare row whose text itself contains U+001F. */
  private static final String VERSION_PLAIN = "SELECT v.entry_id, v.version_id, v.previous_version_id, v.scope,"
      + " v.content, v.topics, v.type, v.disclosure, v.glossary, v.path, v.source, v.evidence, v.content_hash,"
      + " v.status, v.superseded_by, v.created_at, v.updated_at, v.occurred_at FROM versions v WHERE v.version_id = ?";

  private static final String HEAD = "SELECT max(revision) FROM revisions WHERE scope = ?";
  private static final String VERSION = "SELECT " + VERSION_COLUMNS + " FROM versions v WHERE v.version_id = ?";
  private static final String ENTRY_VERSIONS =
      "SELECT " + VERSION_COLUMNS + " FROM versions v WHERE v.entry_id = ? ORDER BY v.version";
  /** The newest version through the (entry_id, version) unique index: one row, whatever the chain's length. */
  private static final String CURRENT_VERSION =
      "SELECT " + VERSION_COLUMNS + " FROM versions v WHERE v.entry_id = ? ORDER BY v.version DESC LIMIT 1";
  /**
   * The newest active version with a content hash, through the content-hash index (its few matches
   * sorted by version id). Named, because without statistics the planner would rather walk the scope's
   * active versions newest first through versions_scope_status, which yields the order but reads them all.
   */
  static final String ACTIVE_BY_HASH = "SELECT " + VERSION_COLUMNS + " FROM versions v INDEXED BY versions_active_hash"
      + " WHERE v.scope = ? AND v.content_hash = ? AND v.status = 'ACTIVE' ORDER BY v.version_id DESC LIMIT 1";
  private static final String ACTIVE_BY_PATH = "SELECT " + VERSION_COLUMNS + " FROM versions v"
      + " WHERE v.scope = ? AND v.path = ? AND v.status = 'ACTIVE' AND v.path IS NOT NULL"
      + " ORDER BY v.version_id DESC LIMIT 1";
  private static final String ACTIVE_BY_TOPIC_ONE_SCOPE = "SELECT " + VERSION_COLUMNS
      + " FROM version_topics t JOIN versions v ON v.seq = t.seq"
      + " WHERE t.scope = ? AND t.topic = ? AND t.active = 1 ORDER BY t.version_id DESC LIMIT ?";
  private static final String EVENT_COLUMNS =
      "event_id, scope, entry_id, kind, before, after, actor, reason, revision, at, origin";
  private static final String EVENTS =
      "SELECT " + EVENT_COLUMNS + " FROM events WHERE entry_id = ? ORDER BY revision, event_id";
  /** One page of history through the (entry_id, revision, event_id) index. */
  private static final String EVENTS_PAGE = "SELECT " + EVENT_COLUMNS + " FROM events WHERE entry_id = ?"
      + " AND (revision > ? OR (revision = ? AND event_id > ?)) ORDER BY revision, event_id LIMIT ?";
  private static final String EVENT = "SELECT " + EVENT_COLUMNS + " FROM events WHERE event_id = ?";
  private static final String REVISIONS = "SELECT revision, changes, at FROM revisions"
      + " WHERE scope = ? AND revision > ? ORDER BY revision LIMIT ?";
  private static final String TOPIC_COLUMNS = "t.scope, t.topic, coalesce(c.active_count, 0), t.blurb,"
      + " t.last_write_revision, t.last_curated_revision, t.last_updated_at"
      + " FROM topics t LEFT JOIN topic_counts c ON c.scope = t.scope AND c.topic = t.topic";
  /** The topics written since their last curation, in key order, from the dirty_topics list. */
  static final String DIRTY_TOPICS = "SELECT t.scope, t.topic, coalesce(c.active_count, 0), t.blurb,"
      + " t.last_write_revision, t.last_curated_revision, t.last_updated_at"
      + " FROM dirty_topics d CROSS JOIN topics t ON t.scope = d.scope AND t.topic = d.topic"
      + " LEFT JOIN topic_counts c ON c.scope = t.scope AND c.topic = t.topic"
      + " WHERE t.last_write_revision > t.last_curated_revision ORDER BY d.scope, d.topic LIMIT ?";
  private static final String COUNT_PRIORITY = "SELECT count(*) FROM versions"
      + " WHERE status = 'ACTIVE' AND priority = ? AND scope = ?";
  /** The same count for priorities 0 and 1, through the partial index that only those priorities enter. */
  private static final String COUNT_KEY_PRIORITY = "SELECT count(*) FROM versions"
      + " WHERE status = 'ACTIVE' AND priority <= 1 AND priority = ? AND scope = ?";
  private static final String SCOPES_RECURSIVE =
      "SELECT scope FROM versions WHERE scope = ?1 OR (scope > ?2 AND scope < ?3)"
          + " UNION SELECT scope FROM topics WHERE scope = ?1 OR (scope > ?2 AND scope < ?3)"
          + " UNION SELECT scope FROM source_state WHERE scope = ?1 OR (scope > ?2 AND scope < ?3)"
          + " UNION SELECT scope FROM experience_versions WHERE scope = ?1 OR (scope > ?2 AND scope < ?3)"
          + " UNION SELECT scope FROM review_items WHERE scope = ?1 OR (scope > ?2 AND scope < ?3)"
          + " UNION SELECT scope FROM model_usage WHERE scope = ?1 OR (scope > ?2 AND scope < ?3)";
  private static final String SCOPES_EXACT =
      "SELECT scope FROM versions WHERE scope = ?1 UNION SELECT scope FROM topics WHERE scope = ?1"
          + " UNION SELECT scope FROM source_state WHERE scope = ?1"
          + " UNION SELECT scope FROM experience_versions WHERE scope = ?1"
          + " UNION SELECT scope FROM review_items WHERE scope = ?1"
          + " UNION SELECT scope FROM model_usage WHERE scope = ?1";
  private static final String SOURCE_COLUMNS =
      "source_id, scope, position, session_id, speaker, text, occurred_at, metadata, captured_at FROM sources";
  private static final String SOURCE_STATE = "SELECT last_position, cursor FROM source_state WHERE scope = ?";
  private static final String SOURCE = "SELECT " + SOURCE_COLUMNS + " WHERE scope = ? AND source_id = ?";

  private static final String ACTIVE_VECTORS = "SELECT vv.version_id, vv.view, vv.vector FROM versions v"
      + " JOIN version_vectors vv ON vv.profile = ? AND vv.version_id = v.version_id"
      + " WHERE v.scope = ? AND v.status = 'ACTIVE' ORDER BY v.version_id, vv.ordinal";
  private static final String COUNT_WITHOUT_VECTORS = "SELECT count(*) FROM versions v"
      + " WHERE v.scope = ? AND v.status = 'ACTIVE'"
      + " AND NOT EXISTS (SELECT 1 FROM version_vectors vv WHERE vv.profile = ? AND vv.version_id = v.version_id)";

  /** FTS5 column weights of content, glossary, disclosure, topics and the scope key (not scored). */
  static final String BM25 = "bm25(versions_fts, 1.0, 2.0, 1.0, 0.5, 0.0)";

  /**
   * The store's two full-text indexes, searched by the same statements: the content's (content, glossary,
   * disclosure, topics) and the retrieval keys' (schema version 13: one column, the key document). Each
   * holds exactly the active versions it indexes, with rowid {@code versions.seq} and a {@code scope_key}
   * column.
   */
  enum FullTextIndex {
    CONTENT("versions_fts", "{content glossary disclosure topics}", BM25),
    KEYS("version_keys_fts", "keys", "bm25(version_keys_fts, 1.0, 0.0)");

    final String table;
    /** The MATCH column filter of the text columns. */
    final String columns;
    /** The rank expression: BM25 with the scope key not scored. */
    final String bm25;
    /** {@link #RANKED_IN_INDEX} over this index. */
    final String rankedInIndex;

    FullTextIndex(String table, String columns, String bm25) {
      this.table = table;
      this.columns = columns;
      this.bm25 = bm25;
      this.rankedInIndex = "WITH r AS MATERIALIZED (SELECT f.rowid AS seq, " + bm25
          + " AS rank FROM " + table + " f WHERE " + table + " MATCH ?) SELECT " + VERSION_COLUMNS + ", x.rank"
          + " FROM (SELECT seq, rank FROM r WHERE rank <= coalesce((SELECT rank FROM r ORDER BY rank LIMIT 1"
          + " OFFSET ?), 1e308)) x JOIN versions v ON v.seq = x.seq ORDER BY x.rank, v.version_id DESC LIMIT ?";
    }
  }

  private static final String KEYS_OF =
      "SELECT k.version_id, k.keys FROM json_each(?) p CROSS JOIN version_keys k ON k.version_id = p.value";

  private Queries() {}

  static long headRevision(Session s, String scope) throws SQLException {
    PreparedStatement ps = s.prepare(HEAD);
    ps.setString(1, scope);
    try (ResultSet rs = ps.executeQuery()) {
      return rs.next() ? rs.getLong(1) : 0L;
    }
  }

  static Optional<MemoryEntry> version(Session s, String versionId) throws SQLException {
    PreparedStatement ps = s.prepare(VERSION);
    ps.setString(1, versionId);
    return first(s, ps);
  }

  static List<MemoryEntry> versions(Session s, String entryId) throws SQLException {
    PreparedStatement ps = s.prepare(ENTRY_VERSIONS);
    ps.setString(1, entryId);
    return all(s, ps);
  }

  static Optional<MemoryEntry> currentVersion(Session s, String entryId) throws SQLException {
    PreparedStatement ps = s.prepare(CURRENT_VERSION);
    ps.setString(1, entryId);
    return first(s, ps);
  }

  static Optional<MemoryEntry> findActiveByHash(Session s, String scope, String hash) throws SQLException {
    PreparedStatement ps = s.prepare(ACTIVE_BY_HASH);
    ps.setString(1, scope);
    ps.setString(2, hash);
    return first(s, ps);
  }

  static Optional<MemoryEntry> findActiveByPath(Session s, String scope, String path) throws SQLException {
    PreparedStatement ps = s.prepare(ACTIVE_BY_PATH);
    ps.setString(1, scope);
    ps.setString(2, path);
    return first(s, ps);
  }

  /**
   * Scopes per compound statement of {@link #activeByTopic}: SQLite allows 500 terms in a compound
   * SELECT and bounds a statement's length, and grants can see {@code MAX_GRANTS * MAX_DEPTH} scopes.
   */
  static final int TOPIC_SCOPES_PER_STATEMENT = 100;

  /**
   * Newest active versions per scope from the topic index, merged newest first. The per-scope queries
   * run as compound statements of at most {@value #TOPIC_SCOPES_PER_STATEMENT} scopes; with more
   * scopes than that the statements run in one read transaction, so the answer is one snapshot.
   */
  static List<MemoryEntry> activeByTopic(Session s, Collection<String> scopes, String topic, int limit)
      throws SQLException {
    List<String> unique = new ArrayList<>(new LinkedHashSet<>(scopes));
    if (unique.isEmpty() || limit < 1) {
      return List.of();
    }
    if (unique.size() <= TOPIC_SCOPES_PER_STATEMENT) {
      return activeByTopicChunk(s, unique, topic, limit);
    }
    return inOneSnapshot(s, () -> {
      List<MemoryEntry> merged = new ArrayList<>();
      for (int from = 0; from < unique.size(); from += TOPIC_SCOPES_PER_STATEMENT) {
        List<String> chunk = unique.subList(from, Math.min(unique.size(), from + TOPIC_SCOPES_PER_STATEMENT));
        merged.addAll(activeByTopicChunk(s, chunk, topic, limit));
      }
      // the same order as the compound statement: newest version first (version ids are time-ordered)
      merged.sort(Comparator.comparing(MemoryEntry::versionId).reversed());
      return List.copyOf(merged.subList(0, Math.min(limit, merged.size())));
    });
  }

  private static List<MemoryEntry> activeByTopicChunk(Session s, List<String> scopes, String topic, int limit)
      throws SQLException {
    PreparedStatement ps = s.prepare(activeByTopicSql(scopes.size()));
    int i = 1;
    for (String scope : scopes) {
      ps.setString(i++, scope);
      ps.setString(i++, topic);
      ps.setInt(i++, limit);
    }
    if (scopes.size() > 1) {
      ps.setInt(i, limit);
    }
    return all(s, ps);
  }

  @FunctionalInterface
  interface SqlWork<T> {
    T run() throws SQLException;
  }

  /**
   * Runs several statements in one read transaction (one snapshot), or as part of the transaction the
   * connection already has open.
   */
  static <T> T inOneSnapshot(Session s, SqlWork<T> work) throws SQLException {
    java.sql.Connection c = s.connection();
    if (!c.getAutoCommit()) {
      return work.run();
    }
    c.setAutoCommit(false);
    try {
      T result = work.run();
      c.commit();
      return result;
    } catch (SQLException | RuntimeException e) {
      c.rollback();
      throw e;
    } finally {
      c.setAutoCommit(true);
    }
  }

  private static String activeByTopicSql(int scopes) {
    if (scopes == 1) {
      return ACTIVE_BY_TOPIC_ONE_SCOPE;
    }
    StringBuilder sql = new StringBuilder(ACTIVE_BY_TOPIC_ONE_SCOPE.length() * scopes + 64);
    for (int i = 0; i < scopes; i++) {
      if (i > 0) {
        sql.append(" UNION ALL ");
      }
      sql.append("SELECT * FROM (").append(ACTIVE_BY_TOPIC_ONE_SCOPE).append(')');
    }
    return sql.append(" ORDER BY 1 DESC LIMIT ?").toString();
  }

  static List<MemoryEntry> versionsIn(Session s, Collection<String> scopes, Set<EntryStatus> statuses)
      throws SQLException {
    Set<String> unique = new LinkedHashSet<>(scopes);
    if (unique.isEmpty() || statuses.isEmpty()) {
      return List.of();
    }
    String sql = "SELECT " + VERSION_COLUMNS + " FROM versions v WHERE v.scope IN (" + marks(unique.size())
        + ") AND v.status IN (" + marks(statuses.size()) + ")";
    PreparedStatement ps = s.prepare(sql);
    int i = 1;
    for (String scope : unique) {
      ps.setString(i++, scope);
    }
    for (EntryStatus status : statuses) {
      ps.setString(i++, status.name());
    }
    return all(s, ps);
  }

  static List<MemoryEvent> events(Session s, String entryId) throws SQLException {
    PreparedStatement ps = s.prepare(EVENTS);
    ps.setString(1, entryId);
    List<MemoryEvent> out = new ArrayList<>();
    try (ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        out.add(event(rs));
      }
    }
    return out;
  }

  static List<MemoryEvent> events(Session s, String entryId, long afterRevision, String afterEventId, int limit)
      throws SQLException {
    PreparedStatement ps = s.prepare(EVENTS_PAGE);
    ps.setString(1, entryId);
    ps.setLong(2, afterRevision);
    ps.setLong(3, afterRevision);
    ps.setString(4, afterEventId);
    ps.setInt(5, limit);
    List<MemoryEvent> out = new ArrayList<>();
    try (ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        out.add(event(rs));
      }
    }
    return out;
  }

  static Optional<MemoryEvent> event(Session s, String eventId) throws SQLException {
    PreparedStatement ps = s.prepare(EVENT);
    ps.setString(1, eventId);
    try (ResultSet rs = ps.executeQuery()) {
      return rs.next() ? Optional.of(event(rs)) : Optional.empty();
    }
  }

  static List<Revision> revisions(Session s, String scope, long sinceExclusive, int limit) throws SQLException {
    if (limit < 1) {
      return List.of();
    }
    PreparedStatement ps = s.prepare(REVISIONS);
    ps.setString(1, scope);
    ps.setLong(2, sinceExclusive);
    ps.setInt(3, limit);
    List<Revision> out = new ArrayList<>();
    try (ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        out.add(new Revision(scope, rs.getLong(1), EntryJson.readChanges(rs.getString(2)),
            Codec.instant(rs.getString(3))));
      }
    }
    return out;
  }

  static List<TopicState> topics(Session s, Collection<String> scopes) throws SQLException {
    Set<String> unique = new TreeSet<>(scopes);
    if (unique.isEmpty()) {
      return List.of();
    }
    PreparedStatement ps = s.prepare("SELECT " + TOPIC_COLUMNS + " WHERE t.scope IN (" + marks(unique.size())
        + ") ORDER BY t.scope, t.topic");
    int i = 1;
    for (String scope : unique) {
      ps.setString(i++, scope);
    }
    List<TopicState> out = topicStates(ps);
    out.sort(Comparator.comparing(TopicState::scope).thenComparing(TopicState::topic));
    return out;
  }

  static List<TopicState> dirtyTopics(Session s, int limit) throws SQLException {
    if (limit < 1) {
      return List.of();
    }
    PreparedStatement ps = s.prepare(DIRTY_TOPICS);
    ps.setInt(1, limit);
    return topicStates(ps);
  }

  static int countActiveWithPriority(Session s, String scope, int priority) throws SQLException {
    PreparedStatement ps = s.prepare(priority <= 1 ? COUNT_KEY_PRIORITY : COUNT_PRIORITY);
    ps.setInt(1, priority);
    ps.setString(2, scope);
    try (ResultSet rs = ps.executeQuery()) {
      rs.next();
      return rs.getInt(1);
    }
  }

  static List<String> scopes(Session s, String prefix, boolean recursive) throws SQLException {
    PreparedStatement ps = s.prepare(recursive ? SCOPES_RECURSIVE : SCOPES_EXACT);
    ps.setString(1, prefix);
    if (recursive) {
      ps.setString(2, prefix + "/");
      ps.setString(3, prefix + "0");
    }
    TreeSet<String> out = new TreeSet<>();
    try (ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        out.add(rs.getString(1));
      }
    }
    return List.copyOf(out);
  }

  /**
   * Active versions in {@code scopes} containing any query term (analysed terms, matched as given), ranked
   * by FTS5's BM25 with glossary weighted twice and topics half; ties newest first. The type, topic and
   * event-time filters are conditions of the statement, so the limit applies to the versions that pass
   * them. Inside a transaction, the versions it made active are indexed first, so it finds its own
   * changes.
   *
   * <p>The full-text index holds exactly the active versions, each with its scope's key, so when the
   * MATCH expression itself confines the hits to the scopes and nothing else filters them, the hits are
   * ranked inside the index and only the best {@code limit} (with every hit tied with the last of them)
   * are joined with their version rows. The other shape joins every hit before ranking, which reads one
   * version row per matching entry. The scope key is left out of the MATCH when no other scope has
   * active entries: it then confines nothing, and ranking would still count the scope's every entry for
   * it.
   *
   * <p>With filters, the statement is driven by the full-text index: it reads the versions that hold a
   * term, checks each against the filters by its row, and computes BM25 only for those that pass. The
   * versions table is its inner loop on purpose ({@code CROSS JOIN}): a plan driven by an event-time range
   * instead looks each version of the range up in the full-text index, which costs about as much as a
   * twentieth of the whole term scan per version (measured with 15,000 matching versions), so it loses
   * from a few dozen versions in the range on.
   *
   * <p>With a bound ({@code fullTextCandidates}), the query's document frequencies are read first: no hit
   * returns nothing at once, more hits than the bound in scopes holding more active versions than the bound
   * go to {@link BoundedFullText}, and the rest run the statements above unchanged.
   */
  static FullTextResult searchFullText(Session s, Collection<String> scopes, FullTextQuery query,
      int limit) throws SQLException {
    return search(s, FullTextIndex.CONTENT, scopes, query, limit);
  }

  /**
   * Active versions in {@code scopes} whose key document holds any query term, ranked by BM25 over the
   * key index: {@link #searchFullText}'s statements, filters, limit and order over {@link FullTextIndex#KEYS}.
   * Inside a transaction, the keys it stored are indexed first, so it finds them.
   */
  static List<ScoredEntry> searchKeys(Session s, Collection<String> scopes, FullTextQuery query, int limit)
      throws SQLException {
    return search(s, FullTextIndex.KEYS, scopes, query, limit).hits();
  }

  private static FullTextResult search(Session s, FullTextIndex index, Collection<String> scopes,
      FullTextQuery query, int limit) throws SQLException {
    s.flushFullText();
    Set<String> unique = new LinkedHashSet<>(scopes);
    if (unique.isEmpty() || query.terms().isEmpty() || limit < 1) {
      return FullTextResult.exact(List.of());
    }
    int candidates = s.fullTextCandidates();
    if (index == FullTextIndex.CONTENT && candidates > 0) {
      java.util.Map<String, BoundedFullText.Frequency> frequencies =
          BoundedFullText.frequencies(s, unique, query.terms());
      long hits = BoundedFullText.hits(frequencies);
      if (hits == 0) {
        return FullTextResult.exact(List.of());
      }
      // the sum of the frequencies overstates the hits of a query whose terms share versions; a scope that
      // holds no more active versions than the bound is ranked in full whatever its query
      if (hits > candidates && BoundedFullText.activeUpTo(s, unique, candidates + 1) > candidates) {
        return new FullTextResult(BoundedFullText.search(s, unique, query, frequencies, candidates, limit), candidates);
      }
    }
    boolean filtered = !query.types().isEmpty() || !query.topics().isEmpty() || query.filtersOccurredAt();
    boolean confined = unique.size() <= MATCH_SCOPE_KEYS;
    if (!filtered && confined) {
      // an index holds active versions only, and every scope with one has a row in topic_counts
      boolean alone = onlyScopesWithEntries(s, unique);
      return FullTextResult.exact(rankedInIndex(s, index,
          alone ? terms(index, query.terms()) : matchExpression(index, query.terms(), unique), limit));
    }
    PreparedStatement ps = s.prepare(searchFullTextSql(index, unique.size(), query));
    bindFullText(ps, index, unique, query, limit);
    return FullTextResult.exact(scored(s, ps));
  }

  /** The retrieval keys of the named versions that have keys, in the order of the ids. */
  static java.util.Map<String, List<String>> keysOf(Session s, Collection<String> versionIds) throws SQLException {
    if (versionIds.isEmpty()) {
      return java.util.Map.of();
    }
    PreparedStatement ps = s.prepare(KEYS_OF);
    ps.setString(1, Codec.strings(List.copyOf(new LinkedHashSet<>(versionIds))));
    java.util.Map<String, List<String>> out = new java.util.LinkedHashMap<>();
    try (ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        out.put(rs.getString(1), Codec.strings(rs.getString(2)));
      }
    }
    return java.util.Collections.unmodifiableMap(out);
  }

  /** The content's full-text statement; see {@link #searchFullTextSql(FullTextIndex, int, FullTextQuery)}. */
  static String searchFullTextSql(int scopes, FullTextQuery query) {
    return searchFullTextSql(FullTextIndex.CONTENT, scopes, query);
  }

  /** The full-text statement for {@code scopes} scopes and the query's filters; {@link #bindFullText} binds it. */
  static String searchFullTextSql(FullTextIndex index, int scopes, FullTextQuery query) {
    StringBuilder sql = new StringBuilder("SELECT ").append(VERSION_COLUMNS).append(", ").append(index.bm25)
        .append(" AS rank FROM ").append(index.table).append(" f CROSS JOIN versions v ON v.seq = f.rowid WHERE ")
        .append(index.table).append(" MATCH ?")
        .append(" AND v.status = 'ACTIVE' AND v.scope IN (").append(marks(scopes)).append(')');
    if (!query.types().isEmpty()) {
      sql.append(" AND v.type IN (").append(marks(query.types().size())).append(')');
    }
    if (!query.topics().isEmpty()) {
      sql.append(" AND EXISTS (SELECT 1 FROM version_topics t WHERE t.scope = v.scope AND t.topic IN (")
          .append(marks(query.topics().size())).append(") AND t.active = 1 AND t.version_id = v.version_id)");
    }
    occurredBounds(sql, query);
    return sql.append(" ORDER BY rank, v.version_id DESC LIMIT ?").toString();
  }

  /**
   * The content index's candidate statement of a bounded search: the row ids of the newest active versions
   * of the scopes that match and pass the query's filters, up to a limit; {@link #bindMatch} binds it.
   */
  static String candidatesSql(int scopes, FullTextQuery query) {
    StringBuilder sql = new StringBuilder("SELECT f.rowid FROM versions_fts f CROSS JOIN versions v ON v.seq = f.rowid")
        .append(" WHERE versions_fts MATCH ? AND v.status = 'ACTIVE' AND v.scope IN (").append(marks(scopes)).append(')');
    if (!query.types().isEmpty()) {
      sql.append(" AND v.type IN (").append(marks(query.types().size())).append(')');
    }
    if (!query.topics().isEmpty()) {
      sql.append(" AND EXISTS (SELECT 1 FROM version_topics t WHERE t.scope = v.scope AND t.topic IN (")
          .append(marks(query.topics().size())).append(") AND t.active = 1 AND t.version_id = v.version_id)");
    }
    occurredBounds(sql, query);
    return sql.append(" ORDER BY f.rowid DESC LIMIT ?").toString();
  }

  /**
   * Binds a statement made by {@link #candidatesSql} or {@link #searchFullTextSql(FullTextIndex, int,
   * FullTextQuery)}: the MATCH expression, the scopes, the filters, the limit.
   */
  static void bindMatch(PreparedStatement ps, String match, Collection<String> scopes, FullTextQuery query,
      int limit) throws SQLException {
    int i = 1;
    ps.setString(i++, match);
    for (String scope : scopes) {
      ps.setString(i++, scope);
    }
    for (EntryType type : query.types()) {
      ps.setString(i++, type.wireName());
    }
    for (String topic : query.topics()) {
      ps.setString(i++, topic);
    }
    i = bindOccurred(ps, i, query);
    ps.setInt(i, limit);
  }

  /** {@code AND scope_key : ("k…" OR …)} for up to {@link #MATCH_SCOPE_KEYS} scopes, else nothing. */
  static String scopeKeys(Collection<String> scopes) {
    if (scopes.size() > MATCH_SCOPE_KEYS) {
      return "";
    }
    StringBuilder b = new StringBuilder(" AND scope_key : (");
    int i = 0;
    for (String scope : scopes) {
      b.append(i++ == 0 ? "" : " OR ").append('"').append(scopeKey(scope)).append('"');
    }
    return b.append(')').toString();
  }

  /** {@code [from, to)} on {@code (occurred_s, occurred_n)}; a version without event time fails either bound. */
  private static void occurredBounds(StringBuilder sql, FullTextQuery query) {
    if (query.occurredFrom() != null) {
      sql.append(" AND v.occurred_s >= ? AND (v.occurred_s > ? OR v.occurred_n >= ?)");
    }
    if (query.occurredTo() != null) {
      sql.append(" AND v.occurred_s <= ? AND (v.occurred_s < ? OR v.occurred_n < ?)");
    }
  }

  /** Binds the bounds {@link #occurredBounds} wrote from parameter {@code i} on; returns the next parameter. */
  private static int bindOccurred(PreparedStatement ps, int i, FullTextQuery query) throws SQLException {
    for (Instant bound : new Instant[] {query.occurredFrom(), query.occurredTo()}) {
      if (bound != null) {
        ps.setLong(i++, bound.getEpochSecond());
        ps.setLong(i++, bound.getEpochSecond());
        ps.setLong(i++, bound.getNano());
      }
    }
    return i;
  }

  /** Binds the parameters of the content's {@link #searchFullTextSql(int, FullTextQuery)}. */
  static void bindFullText(PreparedStatement ps, Collection<String> scopes, FullTextQuery query, int limit)
      throws SQLException {
    bindFullText(ps, FullTextIndex.CONTENT, scopes, query, limit);
  }

  /** Binds the parameters of {@link #searchFullTextSql(FullTextIndex, int, FullTextQuery)}. */
  static void bindFullText(PreparedStatement ps, FullTextIndex index, Collection<String> scopes,
      FullTextQuery query, int limit) throws SQLException {
    bindMatch(ps, matchExpression(index, query.terms(), scopes), scopes, query, limit);
  }

  /**
   * Hits ranked in the index: every match's rank computed once, the rank of the {@code limit}-th best
   * as the cut, and only the hits at or above it joined with their version rows; ordered and cut as the
   * joined shape orders them (rank, then version id descending).
   */
  static final String RANKED_IN_INDEX = FullTextIndex.CONTENT.rankedInIndex;

  private static List<ScoredEntry> rankedInIndex(Session s, FullTextIndex index, String match, int limit)
      throws SQLException {
    PreparedStatement ps = s.prepare(index.rankedInIndex);
    ps.setString(1, match);
    ps.setInt(2, limit - 1);
    ps.setInt(3, limit);
    return scored(s, ps);
  }

  private static List<ScoredEntry> scored(Session s, PreparedStatement ps) throws SQLException {
    List<ScoredEntry> out = new ArrayList<>();
    try (ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        out.add(new ScoredEntry(entry(s, rs), -rs.getDouble(7)));
      }
    }
    return out;
  }

  private static final String SCOPES_WITH_ENTRIES = "SELECT DISTINCT scope FROM topic_counts LIMIT ?";

  /**
   * Whether no scope outside {@code scopes} has an active entry ({@code topic_counts} holds a row per
   * scope and topic with active entries; every active entry has a topic). Reads the rows of at most
   * {@code scopes.size() + 1} scopes.
   */
  private static boolean onlyScopesWithEntries(Session s, Set<String> scopes) throws SQLException {
    PreparedStatement ps = s.prepare(SCOPES_WITH_ENTRIES);
    ps.setInt(1, scopes.size() + 1);
    try (ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        if (!scopes.contains(rs.getString(1))) {
          return false;
        }
      }
    }
    return true;
  }

  /**
   * Any of the terms in the text columns, within the scopes:
   * {@code {content glossary disclosure topics} : ("a" OR "b") AND scope_key : ("k…" OR "k…")}.
   */
  static String matchExpression(FullTextIndex index, List<String> terms, Collection<String> scopes) {
    StringBuilder b = new StringBuilder(terms(index, terms));
    if (scopes.size() > MATCH_SCOPE_KEYS) {
      // the statement's scope IN (...) alone restricts the hits; a longer MATCH would exceed SQLite's limits
      return b.toString();
    }
    b.append(" AND scope_key : (");
    int i = 0;
    for (String scope : scopes) {
      b.append(i++ == 0 ? "" : " OR ").append('"').append(scopeKey(scope)).append('"');
    }
    return b.append(')').toString();
  }

  /**
   * Any of the terms in the text columns of the index: {@code {content glossary disclosure topics} : ("a" OR
   * "b")}, {@code keys : ("a" OR "b")}.
   */
  private static String terms(FullTextIndex index, List<String> terms) {
    StringBuilder b = new StringBuilder(index.columns).append(" : (");
    for (int i = 0; i < terms.size(); i++) {
      b.append(i == 0 ? "" : " OR ").append('"').append(terms.get(i).replace("\"", "\"\"")).append('"');
    }
    return b.append(')').toString();
  }

  /** Up to this many scopes, the MATCH expression itself narrows the full-text index to them. */
  static final int MATCH_SCOPE_KEYS = 64;

  /** The one-token form of a scope in the full-text index: 'k' and the hex of its UTF-8 bytes. */
  static String scopeKey(String scope) {
    return "k" + HexFormat.of().formatHex(scope.getBytes(StandardCharsets.UTF_8));
  }

  static List<StoredVector> activeVectors(Session s, String scope, String profileId) throws SQLException {
    PreparedStatement ps = s.prepare(ACTIVE_VECTORS);
    ps.setString(1, profileId);
    ps.setString(2, scope);
    List<StoredVector> out = new ArrayList<>();
    try (ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        out.add(new StoredVector(rs.getString(1), rs.getString(2), StoredVector.fromBytes(rs.getBytes(3))));
      }
    }
    return out;
  }

  /** Version ids per {@code vectorsOf} statement. */
  private static final int VECTORS_OF_CHUNK = 64;
  private static final String VECTOR_EPOCH = "SELECT epoch FROM vector_epoch WHERE id = 1";
  static final String ADVANCE_VECTOR_EPOCH = "UPDATE vector_epoch SET epoch = epoch + 1 WHERE id = 1";

  static List<StoredVector> vectorsOf(Session s, String scope, String profileId, java.util.Collection<String> versionIds)
      throws SQLException {
    List<String> ids = new ArrayList<>(new java.util.LinkedHashSet<>(versionIds));
    List<StoredVector> out = new ArrayList<>();
    for (int from = 0; from < ids.size(); from += VECTORS_OF_CHUNK) {
      List<String> chunk = ids.subList(from, Math.min(ids.size(), from + VECTORS_OF_CHUNK));
      PreparedStatement ps = s.prepare("SELECT vv.version_id, vv.view, vv.vector FROM version_vectors vv"
          + " JOIN versions v ON v.version_id = vv.version_id"
          + " WHERE vv.profile = ? AND v.scope = ? AND vv.version_id IN ("
          + String.join(", ", java.util.Collections.nCopies(chunk.size(), "?")) + ")"
          + " ORDER BY vv.version_id, vv.ordinal");
      ps.setString(1, profileId);
      ps.setString(2, scope);
      for (int i = 0; i < chunk.size(); i++) {
        ps.setString(3 + i, chunk.get(i));
      }
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(new StoredVector(rs.getString(1), rs.getString(2), StoredVector.fromBytes(rs.getBytes(3))));
        }
      }
    }
    return out;
  }

  static long vectorEpoch(Session s) throws SQLException {
    PreparedStatement ps = s.prepare(VECTOR_EPOCH);
    try (ResultSet rs = ps.executeQuery()) {
      return rs.next() ? rs.getLong(1) : 0;
    }
  }

  static int countActiveWithoutVectors(Session s, String scope, String profileId) throws SQLException {
    PreparedStatement ps = s.prepare(COUNT_WITHOUT_VECTORS);
    ps.setString(1, scope);
    ps.setString(2, profileId);
    try (ResultSet rs = ps.executeQuery()) {
      rs.next();
      return rs.getInt(1);
    }
  }

  // ---- row mapping

  private static Optional<MemoryEntry> first(Session s, PreparedStatement ps) throws SQLException {
    try (ResultSet rs = ps.executeQuery()) {
      return rs.next() ? Optional.of(entry(s, rs)) : Optional.empty();
    }
  }

  private static List<MemoryEntry> all(Session s, PreparedStatement ps) throws SQLException {
    List<MemoryEntry> out = new ArrayList<>();
    try (ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        out.add(entry(s, rs));
      }
    }
    return out;
  }

  /** Maps a row selected with {@link #VERSION_COLUMNS}. */
  static MemoryEntry entry(Session s, ResultSet rs) throws SQLException {
    int nulls = rs.getInt(5);
    String packed = rs.getString(6);
    String[] f = new String[PACKED_FIELDS];
    int start = 0;
    int n = 0;
    while (n < PACKED_FIELDS) {
      int end = packed.indexOf('\u001f', start);
      if (end < 0) {
        f[n++] = packed.substring(start);
        break;
      }
      if (n == PACKED_FIELDS - 1) {
        n = -1;
        break;
      }
      f[n++] = packed.substring(start, end);
      start = end + 1;
    }
    if (n != PACKED_FIELDS) {
      return plain(s, rs.getString(1), rs.getInt(2), rs.getInt(3), rs.getLong(4));
    }
    return new MemoryEntry(
        f[0], f[1], rs.getInt(2), (nulls & 1) != 0 ? null : f[2], f[3], f[4], Codec.strings(f[5]),
        Codec.type(f[6]), rs.getInt(3), (nulls & 2) != 0 ? null : f[7], Codec.strings(f[8]),
        (nulls & 4) != 0 ? null : f[9], (nulls & 8) != 0 ? null : f[10], Codec.strings(f[11]), f[12],
        EntryStatus.valueOf(f[13]), (nulls & 16) != 0 ? null : f[14], (nulls & 32) != 0 ? null : Codec.instant(f[17]),
        Codec.instant(f[15]), Codec.instant(f[16]), rs.getLong(4));
  }

  private static MemoryEntry plain(Session s, String versionId, int version, int priority, long revision)
      throws SQLException {
    PreparedStatement ps = s.prepare(VERSION_PLAIN);
    ps.setString(1, versionId);
    try (ResultSet rs = ps.executeQuery()) {
      if (!rs.next()) {
        throw new SQLException("version " + versionId + " vanished while it was being read");
      }
      return new MemoryEntry(
          rs.getString(1), rs.getString(2), version, rs.getString(3), rs.getString(4), rs.getString(5),
          Codec.strings(rs.getString(6)), Codec.type(rs.getString(7)), priority, rs.getString(8),
          Codec.strings(rs.getString(9)), rs.getString(10), rs.getString(11), Codec.strings(rs.getString(12)),
          rs.getString(13), EntryStatus.valueOf(rs.getString(14)), rs.getString(15),
          rs.getString(18) == null ? null : Codec.instant(rs.getString(18)),
          Codec.instant(rs.getString(16)), Codec.instant(rs.getString(17)), revision);
    }
  }

  private static MemoryEvent event(ResultSet rs) throws SQLException {
    return new MemoryEvent(
        rs.getString(1), rs.getString(2), rs.getString(3), EventKind.valueOf(rs.getString(4)),
        snapshot(rs.getString(5)), snapshot(rs.getString(6)), rs.getString(7), rs.getString(8), rs.getLong(9),
        Codec.instant(rs.getString(10)),
        rs.getString(11));
  }

  private static List<TopicState> topicStates(PreparedStatement ps) throws SQLException {
    List<TopicState> out = new ArrayList<>();
    try (ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        String updated = rs.getString(7);
        out.add(new TopicState(rs.getString(1), rs.getString(2), rs.getInt(3), rs.getString(4), rs.getLong(5),
            rs.getLong(6), updated == null ? null : Codec.instant(updated)));
      }
    }
    return out;
  }

  private static @Nullable MemoryEntry snapshot(@Nullable String json) {
    return json == null ? null : EntryJson.readEntry(json);
  }

  static dev.engram.spi.SourceState sourceState(Session s, String scope) throws SQLException {
    PreparedStatement ps = s.prepare(SOURCE_STATE);
    ps.setString(1, scope);
    try (ResultSet rs = ps.executeQuery()) {
      return rs.next() ? new dev.engram.spi.SourceState(rs.getLong(1), rs.getLong(2)) : dev.engram.spi.SourceState.EMPTY;
    }
  }

  static Optional<dev.engram.CapturedSource> source(Session s, String scope, String sourceId) throws SQLException {
    PreparedStatement ps = s.prepare(SOURCE);
    ps.setString(1, scope);
    ps.setString(2, sourceId);
    try (ResultSet rs = ps.executeQuery()) {
      return rs.next() ? Optional.of(source(rs)) : Optional.empty();
    }
  }

  /** The statement {@link #sources} runs for a filter (only the filters given appear in it). */
  static String sourcesSql(dev.engram.spi.SourceFilter f) {
    StringBuilder sql = new StringBuilder("SELECT ").append(SOURCE_COLUMNS);
    if (f.from() != null || f.to() != null) {
      // without statistics the planner prefers the primary key (it yields position order), which scans
      // the whole scope; a time range is the selective filter, so it goes through its index
      sql.append(" INDEXED BY sources_occurred");
    }
    sql.append(" WHERE scope = ? AND position > ?");
    if (f.sessionId() != null) {
      sql.append(" AND session_id = ?");
    }
    // the first term of each bound is a plain range on occurred_s, which the sources_occurred index serves
    if (f.from() != null) {
      sql.append(" AND occurred_s >= ? AND (occurred_s > ? OR occurred_n >= ?)");
    }
    if (f.to() != null) {
      sql.append(" AND occurred_s <= ? AND (occurred_s < ? OR occurred_n < ?)");
    }
    return sql.append(" ORDER BY position LIMIT ?").toString();
  }

  /** Records of a scope after a position, optionally of one session and within [from, to), by position. */
  static List<dev.engram.CapturedSource> sources(Session s, String scope, dev.engram.spi.SourceFilter f)
      throws SQLException {
    PreparedStatement ps = s.prepare(sourcesSql(f));
    int i = 1;
    ps.setString(i++, scope);
    ps.setLong(i++, f.afterPosition());
    if (f.sessionId() != null) {
      ps.setString(i++, f.sessionId());
    }
    for (Instant bound : new Instant[] {f.from(), f.to()}) {
      if (bound != null) {
        ps.setLong(i++, bound.getEpochSecond());
        ps.setLong(i++, bound.getEpochSecond());
        ps.setLong(i++, bound.getNano());
      }
    }
    ps.setInt(i, f.limit());
    List<dev.engram.CapturedSource> out = new ArrayList<>();
    try (ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        out.add(source(rs));
      }
    }
    return out;
  }

  private static dev.engram.CapturedSource source(ResultSet rs) throws SQLException {
    return new dev.engram.CapturedSource(rs.getString(1), rs.getString(2), rs.getLong(3), rs.getString(4),
        rs.getString(5), rs.getString(6), Codec.instant(rs.getString(7)), Codec.metadata(rs.getString(8)),
        Codec.instant(rs.getString(9)));
  }

  static String marks(int n) {
    StringBuilder b = new StringBuilder(n * 2);
    for (int i = 0; i < n; i++) {
      b.append(i == 0 ? "?" : ",?");
    }
    return b.toString();
  }
}
