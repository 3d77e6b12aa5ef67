/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.postgres;

import java.util.List;

/** The store's runtime statements, one per purpose, with table names resolved for one schema and prefix. */
final class Sql {
  /** The columns of a version, in the order {@link Rows#entry} reads them. */
  private static final String VERSION_COLUMNS =
      "v.version_id, v.entry_id, v.version, v.previous_version_id, v.scope, v.content, v.topics, v.type,"
          + " v.priority, v.disclosure, v.glossary, v.path, v.source, v.evidence, v.content_hash, v.status,"
          + " v.superseded_by, v.created_at, v.updated_at, v.created_in_revision, v.occurred_at";
  /** The columns of a source, in the order {@link Rows#source} reads them. */
  private static final String SOURCE_COLUMNS =
      "source_id, scope, position, session_id, speaker, body, occurred_at, metadata::text, captured_at";

  /**
   * Rank weights {D, C, B, A}: glossary (A) counts twice as much as content (B) and disclosure (D),
   * topics (C) half as much.
   */
  private static final String RANK_WEIGHTS = "'{0.5, 0.25, 0.5, 1.0}'";

  /**
   * Full text: glossary (A), content (B), topics (C), disclosure (D), each a {@link SearchText#vector}
   * of the field's analysed terms. Parameters in that order.
   */
  static final String SEARCH_VECTOR =
      "setweight(?::tsvector, 'A') || setweight(?::tsvector, 'B')"
          + " || setweight(?::tsvector, 'C') || setweight(?::tsvector, 'D')";

  /** A key document: a {@link SearchText#keyDocument} literal at the weight of a version's content (B). */
  static final String KEY_SEARCH_VECTOR = "setweight(?::tsvector, 'B')";

  /**
   * The element types of the arrays {@link #insertVersions} takes: the columns of {@link #insertVersion}
   * (text arrays as array literals) and the four search-vector literals.
   */
  static final List<String> INSERT_VERSIONS_TYPES = List.of("text", "text", "int4", "text", "text", "text", "text",
      "text", "int4", "text", "text", "text", "text", "text", "text", "text", "text", "text", "text", "int8", "text",
      "text", "text", "text", "text");
  /** The element types of the arrays {@link #insertEvents} takes. */
  static final List<String> INSERT_EVENTS_TYPES = List.of("text", "text", "text", "int8", "text");
  /**
   * The element types of the arrays {@link #insertManyKeys} takes: version id, scope, the keys (an array
   * literal) and the key document's {@link SearchText#vector} literal.
   */
  static final List<String> INSERT_KEYS_TYPES = List.of("text", "text", "text", "text");

  // ---- transactions
  final String lockHead;
  /** Locks the head on an expected value and no active holder of some content hashes (schema 11). */
  final String lockExpectedHead;
  final String createHead;
  final String appendRevision;
  final String insertVersion;
  /** {@link #insertVersion} for many versions at once: one array per column, in {@link #INSERT_VERSIONS_TYPES} order. */
  final String insertVersions;
  final String updateStatus;
  final String insertEvent;
  /** {@link #insertEvent} for many events at once: one array per column, in {@link #INSERT_EVENTS_TYPES} order. */
  final String insertEvents;
  final String markTopicsWritten;
  final String markTopicCurated;
  final String eraseEntry;
  final String dropUncarriedTopics;
  final String eraseScopeEntries;
  final String eraseScopeTopics;
  final String eraseScopeRevisions;
  final String resetHead;
  final String insertSource;
  final String sourceLastPosition;
  final String sourceCursor;
  final String restoreSourceState;
  final String eraseSource;
  final String eraseScopeSources;
  final String eraseScopeSourceState;
  /** Stores a version's retrieval keys, active as its version is, and counts them (schema 14). */
  final String insertKeys;
  /** {@link #insertKeys} for many versions at once: one array per column, in {@link #INSERT_KEYS_TYPES} order. */
  final String insertManyKeys;

  // ---- reads
  final String headRevision;
  final String version;
  final String versions;
  /** The versions table's qualified name, and the planner's estimate of its rows (-1 before any analyze). */
  final String versionsTable;
  final String versionsEstimate;
  final String currentVersion;
  final String findActiveByHash;
  final String findActiveByHashes;
  final String findActiveByPath;
  final String activeByTopic;
  final String activeByTopicInScope;
  final String versionsIn;
  final String events;
  final String eventsPage;
  final String event;
  final String revisions;
  final String topics;
  final String dirtyTopics;
  final String countActiveWithPriority;
  /** The same count for priorities 0 and 1, written so that the partial priority index applies. */
  final String countActiveWithCappedPriority;
  final String scopes;
  final String sourceState;
  final String source;
  /** Source reads by filter: index = {@link #SOURCES_SESSION} | {@link #SOURCES_FROM} | {@link #SOURCES_TO}. */
  final List<String> sources;
  static final int SOURCES_SESSION = 1;
  static final int SOURCES_FROM = 2;
  static final int SOURCES_TO = 4;

  // ---- search and vectors
  final String searchFullText;
  /** The document frequency of each of some terms in some scopes (schema 16); a term in none is left out. */
  final String termFrequencies;
  /** How many active versions the scopes hold, counted up to a limit (an index range read of that many rows). */
  final String activeUpTo;
  /**
   * {@link #searchFullText}'s ranking over a bounded candidate set: the active versions of the scopes that
   * pass the filters and match one of three tier queries, each tier up to its own limit; document
   * frequencies from term_counts (schema 16) instead of a count over the hits.
   */
  final String searchFullTextBounded;
  /** Retrieval keys by version id (any status). */
  final String keysOf;
  /** A version's scope and whether it has retrieval keys. */
  final String keyOwner;
  /** The key search without filters, and with the query's filters (topics, types, event time). */
  final String searchKeys;
  final String searchKeysFiltered;
  final String countExistingVersions;
  /** Refreshes the planner statistics of the tables reads and searches plan over. */
  final String analyze;
  final String deleteVectors;
  final String insertVector;
  final String activeVectors;
  final String countActiveWithoutVectors;
  final String vectorsOf;
  final String vectorEpoch;
  final String advanceVectorEpoch;
  final String vectorProfiles;

  // ---- claims
  final String claimDirtyTopics;
  final String renewClaim;
  final String releaseClaim;
  final String claimPendingSources;
  final String claimDirtyTopicsIn;
  final String claimPendingSourcesIn;
  final String releaseSourceClaim;

  Sql(String schema, String prefix) {
    String p = (schema.isEmpty() ? "" : schema + ".") + prefix;
    String heads = p + "scope_heads";
    String versionsT = p + "versions";
    String topicsIdx = p + "version_topics";
    String eventsT = p + "events";
    String revisionsT = p + "revisions";
    String topicsT = p + "topics";
    String vectorsT = p + "vectors";
    String sourcesT = p + "sources";
    String sourceStateT = p + "source_state";
    String keysT = p + "version_keys";

    lockHead = "SELECT head FROM " + heads + " WHERE scope = ? FOR UPDATE";
    lockExpectedHead = "SELECT " + p + "lock_expected_head(?, ?, ?::text[])";
    createHead = "INSERT INTO " + heads + " (scope, head) VALUES (?, 0) ON CONFLICT (scope) DO NOTHING";
    appendRevision = "WITH r AS (INSERT INTO " + revisionsT + " (scope, revision, changes, at)"
        + " VALUES (?, ?, ?::jsonb, ?))"
        + " UPDATE " + heads + " SET head = ? WHERE scope = ?";
    // the inserted versions' topic rows, and both added to the active counts, and the active versions'
    // lexemes to the term counts of schema 16 (no trigger counts inserts)
    String topicRowsAndCounts = " RETURNING version_id, scope, topics, status, search),"
        + " tc AS (INSERT INTO " + p + "term_counts AS c (scope, term, df)"
        + " SELECT v.scope, t.term, count(*) FROM v CROSS JOIN LATERAL unnest(tsvector_to_array(v.search)) AS t(term)"
        + " WHERE v.status = 'ACTIVE' GROUP BY v.scope, t.term ORDER BY v.scope, t.term"
        + " ON CONFLICT (scope, term) DO UPDATE SET df = c.df + EXCLUDED.df),"
        + " x AS (SELECT DISTINCT v.scope, t.topic, v.version_id, v.status = 'ACTIVE' AS active"
        + " FROM v CROSS JOIN LATERAL unnest(v.topics) AS t(topic)),"
        + " vt AS (INSERT INTO " + topicsIdx + " (scope, topic, version_id, active)"
        + " SELECT scope, topic, version_id, active FROM x),"
        + " sc AS (INSERT INTO " + p + "scope_counts AS c (scope, active_count)"
        + " SELECT scope, count(*) FROM v WHERE status = 'ACTIVE' GROUP BY scope"
        + " ON CONFLICT (scope) DO UPDATE SET active_count = c.active_count + EXCLUDED.active_count)"
        + " INSERT INTO " + p + "topic_counts AS c (scope, topic, active_count)"
        + " SELECT scope, topic, count(*) FROM x WHERE active GROUP BY scope, topic"
        + " ON CONFLICT (scope, topic) DO UPDATE SET active_count = c.active_count + EXCLUDED.active_count";
    insertVersion = "WITH v AS (INSERT INTO " + versionsT + " (version_id, entry_id, version, previous_version_id,"
        + " scope, content, topics, type, priority, disclosure, glossary, path, source, evidence, content_hash,"
        + " status, superseded_by, created_at, updated_at, created_in_revision, occurred_at, search)"
        + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, " + SEARCH_VECTOR + ")"
        + topicRowsAndCounts;
    StringBuilder arrays = new StringBuilder();
    for (String type : INSERT_VERSIONS_TYPES) {
      arrays.append(arrays.length() == 0 ? "" : ", ").append("?::").append(type).append("[]");
    }
    insertVersions = "WITH v AS (INSERT INTO " + versionsT + " (version_id, entry_id, version, previous_version_id,"
        + " scope, content, topics, type, priority, disclosure, glossary, path, source, evidence, content_hash,"
        + " status, superseded_by, created_at, updated_at, created_in_revision, occurred_at, search)"
        + " SELECT u.version_id, u.entry_id, u.version, u.previous_version_id, u.scope, u.content, u.topics::text[],"
        + " u.type, u.priority, u.disclosure, u.glossary::text[], u.path, u.source, u.evidence::text[], u.content_hash,"
        + " u.status, u.superseded_by, u.created_at, u.updated_at, u.created_in_revision, u.occurred_at,"
        + " setweight(u.a::tsvector, 'A') || setweight(u.b::tsvector, 'B')"
        + " || setweight(u.c::tsvector, 'C') || setweight(u.d::tsvector, 'D')"
        + " FROM unnest(" + arrays + ") AS u(version_id, entry_id, version, previous_version_id, scope, content,"
        + " topics, type, priority, disclosure, glossary, path, source, evidence, content_hash, status, superseded_by,"
        + " created_at, updated_at, created_in_revision, occurred_at, a, b, c, d)"
        + topicRowsAndCounts;
    insertEvents = "INSERT INTO " + eventsT + " (event_id, entry_id, scope, revision, body)"
        + " SELECT u.event_id, u.entry_id, u.scope, u.revision, u.body::jsonb"
        + " FROM unnest(?::text[], ?::text[], ?::text[], ?::int8[], ?::text[]) AS u(event_id, entry_id, scope, revision, body)";
    // the version's keys (if any) follow its status, so the key search needs no join to find active ones
    updateStatus = "WITH u AS (UPDATE " + versionsT + " SET status = ?, superseded_by = ?, updated_at = ?"
        + " WHERE version_id = ? AND scope = ? RETURNING version_id, scope, topics, status),"
        + " t AS (UPDATE " + topicsIdx + " vt SET active = ? FROM u"
        + " WHERE vt.scope = u.scope AND vt.topic = ANY (u.topics) AND vt.version_id = u.version_id),"
        + " k AS (UPDATE " + keysT + " x SET active = u.status = 'ACTIVE' FROM u WHERE x.version_id = u.version_id)"
        + " SELECT count(*) FROM u";
    insertEvent = "INSERT INTO " + eventsT + " (event_id, entry_id, scope, revision, body)"
        + " VALUES (?, ?, ?, ?, ?::jsonb)";
    markTopicsWritten = "INSERT INTO " + topicsT + " AS t (scope, topic, last_write_revision, last_updated_at)"
        + " SELECT ?, x.topic, GREATEST(0, ?), ? FROM unnest(?::text[]) AS x(topic)"
        + " ON CONFLICT (scope, topic) DO UPDATE SET"
        + " last_write_revision = GREATEST(t.last_write_revision, EXCLUDED.last_write_revision),"
        + " last_updated_at = EXCLUDED.last_updated_at";
    markTopicCurated = "INSERT INTO " + topicsT + " AS t (scope, topic, last_curated_revision, blurb)"
        + " VALUES (?, ?, GREATEST(0, ?), ?)"
        + " ON CONFLICT (scope, topic) DO UPDATE SET"
        + " last_curated_revision = GREATEST(t.last_curated_revision, EXCLUDED.last_curated_revision),"
        + " blurb = COALESCE(EXCLUDED.blurb, t.blurb)";
    eraseEntry = "WITH d AS (DELETE FROM " + versionsT + " WHERE entry_id = ? RETURNING version_id, version, scope, topics),"
        + " dt AS (DELETE FROM " + topicsIdx + " vt USING d"
        + " WHERE vt.scope = d.scope AND vt.topic = ANY (d.topics) AND vt.version_id = d.version_id),"
        + " dv AS (DELETE FROM " + vectorsT + " x USING d WHERE x.version_id = d.version_id),"
        + " dk AS (DELETE FROM " + keysT + " x USING d WHERE x.version_id = d.version_id),"
        + " de AS (DELETE FROM " + eventsT + " WHERE entry_id = ?)"
        + " SELECT version, scope, topics FROM d ORDER BY version";
    dropUncarriedTopics = "DELETE FROM " + topicsT + " t WHERE t.scope = ? AND t.topic = ANY (?::text[])"
        + " AND NOT EXISTS (SELECT 1 FROM " + topicsIdx + " vt WHERE vt.scope = t.scope AND vt.topic = t.topic)";
    eraseScopeEntries = "WITH ids AS (SELECT DISTINCT entry_id FROM " + versionsT + " WHERE scope = ?),"
        + " d AS (DELETE FROM " + versionsT + " v USING ids WHERE v.entry_id = ids.entry_id"
        + " RETURNING v.version_id, v.scope, v.topics),"
        + " dt AS (DELETE FROM " + topicsIdx + " vt USING d"
        + " WHERE vt.scope = d.scope AND vt.topic = ANY (d.topics) AND vt.version_id = d.version_id),"
        + " dv AS (DELETE FROM " + vectorsT + " x USING d WHERE x.version_id = d.version_id),"
        + " dk AS (DELETE FROM " + keysT + " x USING d WHERE x.version_id = d.version_id),"
        + " de AS (DELETE FROM " + eventsT + " e USING ids WHERE e.entry_id = ids.entry_id)"
        + " SELECT count(*) FROM ids";
    eraseScopeTopics = "DELETE FROM " + topicsT + " WHERE scope = ?";
    eraseScopeRevisions = "DELETE FROM " + revisionsT + " WHERE scope = ?";
    resetHead = "UPDATE " + heads + " SET head = 0 WHERE scope = ?";
    // the keys take the status of their version as it is when the statement runs (the version was
    // written before them, in the same transaction or earlier) and are counted once per statement
    String countKeys = " RETURNING scope, active)"
        + " INSERT INTO " + p + "key_counts AS c (scope, active_count)"
        + " SELECT scope, count(*) FROM k WHERE active GROUP BY scope"
        + " ON CONFLICT (scope) DO UPDATE SET active_count = c.active_count + EXCLUDED.active_count";
    insertKeys = "WITH k AS (INSERT INTO " + keysT + " (version_id, scope, keys, active, search)"
        + " SELECT v.version_id, v.scope, ?::text[], v.status = 'ACTIVE', " + KEY_SEARCH_VECTOR
        + " FROM " + versionsT + " v WHERE v.version_id = ? AND v.scope = ?"
        + countKeys;
    insertManyKeys = "WITH k AS (INSERT INTO " + keysT + " (version_id, scope, keys, active, search)"
        + " SELECT v.version_id, v.scope, u.keys::text[], v.status = 'ACTIVE', setweight(u.search::tsvector, 'B')"
        + " FROM unnest(?::text[], ?::text[], ?::text[], ?::text[]) AS u(version_id, scope, keys, search)"
        + " JOIN " + versionsT + " v ON v.version_id = u.version_id AND v.scope = u.scope"
        + countKeys;
    insertSource = "INSERT INTO " + sourcesT + " (scope, position, source_id, session_id, speaker, body, occurred_at,"
        + " occurred_s, occurred_n, metadata, captured_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?)";
    sourceLastPosition = "INSERT INTO " + sourceStateT + " AS s (scope, last_position, cursor) VALUES (?, ?, 0)"
        + " ON CONFLICT (scope) DO UPDATE SET last_position = EXCLUDED.last_position";
    sourceCursor = "UPDATE " + sourceStateT + " SET cursor = ? WHERE scope = ?";
    restoreSourceState = "INSERT INTO " + sourceStateT + " (scope, last_position, cursor) VALUES (?, ?, ?)"
        + " ON CONFLICT (scope) DO UPDATE SET last_position = EXCLUDED.last_position, cursor = EXCLUDED.cursor";
    eraseSource = "DELETE FROM " + sourcesT + " WHERE scope = ? AND source_id = ?";
    eraseScopeSources = "DELETE FROM " + sourcesT + " WHERE scope = ?";
    eraseScopeSourceState = "DELETE FROM " + sourceStateT + " WHERE scope = ?";
    sourceState = "SELECT last_position, cursor FROM " + sourceStateT + " WHERE scope = ?";
    source = "SELECT " + SOURCE_COLUMNS + " FROM " + sourcesT + " WHERE scope = ? AND source_id = ?";
    // one statement per combination of filters, so each plan can use the index that fits it: the
    // primary key for the cursor, sources_session_idx for a session, sources_occurred_idx for a time
    // range (the first term of each bound is a plain range on occurred_s)
    String[] variants = new String[8];
    for (int v = 0; v < variants.length; v++) {
      StringBuilder q = new StringBuilder("SELECT ").append(SOURCE_COLUMNS).append(" FROM ").append(sourcesT)
          .append(" WHERE scope = ? AND position > ?");
      if ((v & SOURCES_SESSION) != 0) {
        q.append(" AND session_id = ?");
      }
      if ((v & SOURCES_FROM) != 0) {
        q.append(" AND occurred_s >= ? AND (occurred_s > ? OR occurred_n >= ?)");
      }
      if ((v & SOURCES_TO) != 0) {
        q.append(" AND occurred_s <= ? AND (occurred_s < ? OR occurred_n < ?)");
      }
      variants[v] = q.append(" ORDER BY position LIMIT ?").toString();
    }
    sources = List.of(variants);

    headRevision = "SELECT head FROM " + heads + " WHERE scope = ?";
    String fromVersions = " FROM " + versionsT + " v";
    version = "SELECT " + VERSION_COLUMNS + fromVersions + " WHERE v.version_id = ?";
    versions = "SELECT " + VERSION_COLUMNS + fromVersions + " WHERE v.entry_id = ? ORDER BY v.version, v.version_id";
    currentVersion = "SELECT " + VERSION_COLUMNS + fromVersions
        + " WHERE v.entry_id = ? ORDER BY v.version DESC LIMIT 1";
    findActiveByHash = "SELECT " + VERSION_COLUMNS + fromVersions
        + " WHERE v.scope = ? AND v.content_hash = ? AND v.status = 'ACTIVE' ORDER BY v.version_id DESC LIMIT 1";
    findActiveByHashes = "SELECT DISTINCT ON (v.content_hash) " + VERSION_COLUMNS + fromVersions
        + " WHERE v.scope = ? AND v.content_hash = ANY(?) AND v.status = 'ACTIVE'"
        + " ORDER BY v.content_hash, v.version_id DESC";
    findActiveByPath = "SELECT " + VERSION_COLUMNS + fromVersions
        + " WHERE v.scope = ? AND v.path = ? AND v.status = 'ACTIVE' ORDER BY v.version_id DESC LIMIT 1";
    // version_topics.active mirrors versions.status in the same transaction; filtering versions on
    // status as well would invite plans that scan the partial indexes on status instead of the key
    activeByTopicInScope = "SELECT " + VERSION_COLUMNS + " FROM " + topicsIdx + " vt"
        + " JOIN " + versionsT + " v ON v.version_id = vt.version_id"
        + " WHERE vt.scope = ? AND vt.topic = ? AND vt.active"
        + " ORDER BY vt.version_id DESC LIMIT ?";
    activeByTopic = "SELECT " + VERSION_COLUMNS + " FROM unnest(?::text[]) AS s(scope)"
        + " CROSS JOIN LATERAL (SELECT vt.version_id FROM " + topicsIdx + " vt"
        + " WHERE vt.scope = s.scope AND vt.topic = ? AND vt.active ORDER BY vt.version_id DESC LIMIT ?) x"
        + " JOIN " + versionsT + " v ON v.version_id = x.version_id"
        + " ORDER BY v.version_id DESC LIMIT ?";
    versionsIn = "SELECT " + VERSION_COLUMNS + fromVersions
        + " WHERE v.scope = ANY (?::text[]) AND v.status = ANY (?::text[])";
    events = "SELECT body::text FROM " + eventsT + " WHERE entry_id = ? ORDER BY revision, event_id";
    eventsPage = "SELECT body::text FROM " + eventsT + " WHERE entry_id = ? AND (revision, event_id) > (?, ?)"
        + " ORDER BY revision, event_id LIMIT ?";
    event = "SELECT body::text FROM " + eventsT + " WHERE event_id = ?";
    revisions = "SELECT scope, revision, changes::text, at FROM " + revisionsT
        + " WHERE scope = ? AND revision > ? ORDER BY revision LIMIT ?";
    String topicColumns = "t.scope, t.topic, coalesce(n.active_count, 0) AS active_count,"
        + " t.blurb, t.last_write_revision, t.last_curated_revision, t.last_updated_at";
    String fromTopics = " FROM " + topicsT + " t LEFT JOIN " + p + "topic_counts n"
        + " ON n.scope = t.scope AND n.topic = t.topic";
    topics = "SELECT " + topicColumns + fromTopics + " WHERE t.scope = ANY (?::text[])"
        + " ORDER BY t.scope, t.topic";
    dirtyTopics = "SELECT " + topicColumns + fromTopics
        + " WHERE t.last_write_revision > t.last_curated_revision ORDER BY t.scope, t.topic LIMIT ?";
    countActiveWithPriority = "SELECT count(*) FROM " + versionsT
        + " WHERE status = 'ACTIVE' AND priority = ? AND scope = ?";
    countActiveWithCappedPriority = "SELECT count(*) FROM " + versionsT
        + " WHERE status = 'ACTIVE' AND priority <= 1 AND priority = ? AND scope = ?";
    scopes = "SELECT scope FROM " + versionsT + " WHERE scope = ? OR (? AND scope >= ? AND scope < ?)"
        + " UNION SELECT scope FROM " + topicsT + " WHERE scope = ? OR (? AND scope >= ? AND scope < ?)"
        + " UNION SELECT scope FROM " + sourceStateT + " WHERE scope = ? OR (? AND scope >= ? AND scope < ?)"
        + " UNION SELECT scope FROM " + p + "experience_versions WHERE scope = ? OR (? AND scope >= ? AND scope < ?)"
        + " UNION SELECT scope FROM " + p + "review_items WHERE scope = ? OR (? AND scope >= ? AND scope < ?)"
        + " UNION SELECT scope FROM " + p + "model_usage WHERE scope = ? OR (? AND scope >= ? AND scope < ?)"
        + " ORDER BY 1";

    searchFullText = "WITH terms AS (SELECT DISTINCT t.term::tsquery AS query FROM unnest(?::text[]) AS t(term)),"
        + " n AS (SELECT coalesce(sum(active_count), 0)::float8 AS n FROM " + p + "scope_counts"
        + " WHERE scope = ANY (?::text[])),"
        + " hits AS (SELECT v.version_id, v.topics, v.type, v.occurred_s, v.occurred_n, v.search, t.query FROM terms t"
        + " JOIN " + versionsT + " v ON v.search @@ t.query"
        + " WHERE v.scope = ANY (?::text[]) AND v.status = 'ACTIVE'),"
        + " df AS (SELECT query, count(*)::float8 AS df FROM hits GROUP BY query),"
        + " scored AS (SELECT h.version_id,"
        + " sum(ln(1 + (n.n - df.df + 0.5) / (df.df + 0.5)) * ts_rank(" + RANK_WEIGHTS + ", h.search, h.query, 1))"
        + " AS score FROM hits h JOIN df ON df.query = h.query CROSS JOIN n"
        + " WHERE (cardinality(?::text[]) = 0 OR h.topics && ?::text[])"
        + " AND (cardinality(?::text[]) = 0 OR h.type = ANY (?::text[]))"
        // [from, to) on (occurred_s, occurred_n); a version without event time fails either comparison
        + " AND (?::bigint IS NULL OR (h.occurred_s, h.occurred_n) >= (?::bigint, ?::integer))"
        + " AND (?::bigint IS NULL OR (h.occurred_s, h.occurred_n) < (?::bigint, ?::integer))"
        + " GROUP BY h.version_id),"
        + " best AS (SELECT version_id, score FROM scored ORDER BY score DESC, version_id DESC LIMIT ?)"
        + " SELECT " + VERSION_COLUMNS + ", s.score FROM best s JOIN " + versionsT + " v ON v.version_id = s.version_id"
        + " ORDER BY s.score DESC, v.version_id DESC";
    activeUpTo = "SELECT count(*) FROM (SELECT 1 FROM " + versionsT + " WHERE scope = ANY (?::text[]) AND status = 'ACTIVE'"
        + " LIMIT ?) a";
    termFrequencies = "SELECT term, sum(df) FROM " + p + "term_counts"
        + " WHERE scope = ANY (?::text[]) AND term = ANY (?::text[]) GROUP BY term";
    // one tier: the scopes' active versions matching a query and passing the filters, up to a limit;
    // bound as ?tier query, scopes, the filters as in searchFullText, limit
    String tier = "(SELECT v.version_id FROM " + versionsT + " v WHERE v.search @@ ?::tsquery"
        + " AND v.scope = ANY (?::text[]) AND v.status = 'ACTIVE'"
        + " AND (cardinality(?::text[]) = 0 OR v.topics && ?::text[])"
        + " AND (cardinality(?::text[]) = 0 OR v.type = ANY (?::text[]))"
        + " AND (?::bigint IS NULL OR (v.occurred_s, v.occurred_n) >= (?::bigint, ?::integer))"
        + " AND (?::bigint IS NULL OR (v.occurred_s, v.occurred_n) < (?::bigint, ?::integer))"
        + " LIMIT ?)";
    searchFullTextBounded = "WITH terms AS (SELECT DISTINCT t.term, t.term_query::tsquery AS query"
        + " FROM unnest(?::text[], ?::text[]) AS t(term, term_query)),"
        + " n AS (SELECT coalesce(sum(active_count), 0)::float8 AS n FROM " + p + "scope_counts"
        + " WHERE scope = ANY (?::text[])),"
        + " df AS (SELECT t.query, sum(c.df)::float8 AS df FROM terms t JOIN " + p + "term_counts c"
        + " ON c.term = t.term AND c.scope = ANY (?::text[]) GROUP BY t.query),"
        + " candidates AS (" + tier + " UNION " + tier + " UNION " + tier + "),"
        // the candidates' rows, read by key and kept apart, so that matching them with the terms cannot be
        // planned as an index scan of each term's every hit joined with the candidates afterwards
        + " rows AS MATERIALIZED (SELECT v.version_id, v.search FROM candidates k"
        + " JOIN " + versionsT + " v ON v.version_id = k.version_id),"
        + " hits AS (SELECT r.version_id, r.search, t.query FROM rows r CROSS JOIN terms t WHERE r.search @@ t.query),"
        + " scored AS (SELECT h.version_id,"
        + " sum(ln(1 + (n.n - df.df + 0.5) / (df.df + 0.5)) * ts_rank(" + RANK_WEIGHTS + ", h.search, h.query, 1))"
        + " AS score FROM hits h JOIN df ON df.query = h.query CROSS JOIN n GROUP BY h.version_id),"
        + " best AS (SELECT version_id, score FROM scored ORDER BY score DESC, version_id DESC LIMIT ?)"
        + " SELECT " + VERSION_COLUMNS + ", s.score FROM best s JOIN " + versionsT + " v ON v.version_id = s.version_id"
        + " ORDER BY s.score DESC, v.version_id DESC";
    keysOf = "SELECT version_id, keys FROM " + keysT + " WHERE version_id = ANY (?::text[])";
    keyOwner = "SELECT v.scope, EXISTS (SELECT 1 FROM " + keysT + " x WHERE x.version_id = v.version_id)"
        + " FROM " + versionsT + " v WHERE v.version_id = ?";
    // The same ranking as searchFullText over the key documents of the scopes' active versions: the
    // document count from key_counts, each term's document frequency from its hits. Without filters the
    // versions table is read for the best rows only; with them, for every hit, before the limit.
    String keyScores = "WITH terms AS (SELECT DISTINCT t.term::tsquery AS query FROM unnest(?::text[]) AS t(term)),"
        + " n AS (SELECT coalesce(sum(active_count), 0)::float8 AS n FROM " + p + "key_counts"
        + " WHERE scope = ANY (?::text[])),"
        + " hits AS (SELECT k.version_id, k.search, t.query FROM terms t"
        + " JOIN " + keysT + " k ON k.search @@ t.query WHERE k.scope = ANY (?::text[]) AND k.active),"
        + " df AS (SELECT query, count(*)::float8 AS df FROM hits GROUP BY query),"
        + " scored AS (SELECT h.version_id,"
        + " sum(ln(1 + (n.n - df.df + 0.5) / (df.df + 0.5)) * ts_rank(" + RANK_WEIGHTS + ", h.search, h.query, 1))"
        + " AS score FROM hits h JOIN df ON df.query = h.query CROSS JOIN n GROUP BY h.version_id),";
    String bestRows = " SELECT " + VERSION_COLUMNS + ", s.score FROM best s JOIN " + versionsT + " v"
        + " ON v.version_id = s.version_id ORDER BY s.score DESC, v.version_id DESC";
    searchKeys = keyScores
        + " best AS (SELECT version_id, score FROM scored ORDER BY score DESC, version_id DESC LIMIT ?)"
        + bestRows;
    searchKeysFiltered = keyScores
        + " best AS (SELECT s.version_id, s.score FROM scored s JOIN " + versionsT + " v ON v.version_id = s.version_id"
        + " WHERE (cardinality(?::text[]) = 0 OR v.topics && ?::text[])"
        + " AND (cardinality(?::text[]) = 0 OR v.type = ANY (?::text[]))"
        + " AND (?::bigint IS NULL OR (v.occurred_s, v.occurred_n) >= (?::bigint, ?::integer))"
        + " AND (?::bigint IS NULL OR (v.occurred_s, v.occurred_n) < (?::bigint, ?::integer))"
        + " ORDER BY s.score DESC, s.version_id DESC LIMIT ?)"
        + bestRows;
    // events are read by key only (entry, event id), so their plans need no fresh statistics
    analyze = "ANALYZE " + versionsT + ", " + topicsIdx + ", " + p + "topic_counts, " + keysT;
    versionsTable = versionsT;
    versionsEstimate = "SELECT reltuples::bigint FROM pg_class WHERE oid = to_regclass(?)";
    countExistingVersions = "SELECT count(*) FROM " + versionsT + " WHERE version_id = ANY (?::text[]) AND scope = ?";
    deleteVectors = "DELETE FROM " + vectorsT + " WHERE profile_id = ? AND version_id = ANY (?::text[])";
    insertVector = "INSERT INTO " + vectorsT + " (version_id, profile_id, ordinal, view, vector)"
        + " VALUES (?, ?, ?, ?, ?)";
    activeVectors = "SELECT x.version_id, x.view, x.vector FROM " + versionsT + " v"
        + " JOIN " + vectorsT + " x ON x.version_id = v.version_id AND x.profile_id = ?"
        + " WHERE v.scope = ? AND v.status = 'ACTIVE'"
        + " ORDER BY x.version_id, x.ordinal";
    vectorsOf = "SELECT x.version_id, x.view, x.vector FROM " + versionsT + " v"
        + " JOIN " + vectorsT + " x ON x.version_id = v.version_id AND x.profile_id = ?"
        + " WHERE v.scope = ? AND v.version_id = ANY (?::text[])"
        + " ORDER BY x.version_id, x.ordinal";
    vectorEpoch = "SELECT epoch FROM " + p + "vector_epoch WHERE id = 1";
    advanceVectorEpoch = "UPDATE " + p + "vector_epoch SET epoch = epoch + 1 WHERE id = 1";
    vectorProfiles = "SELECT DISTINCT profile_id FROM " + vectorsT + " ORDER BY 1";
    countActiveWithoutVectors = "SELECT count(*) FROM " + versionsT + " v"
        + " WHERE v.scope = ? AND v.status = 'ACTIVE' AND NOT EXISTS (SELECT 1 FROM " + vectorsT + " x"
        + " WHERE x.version_id = v.version_id AND x.profile_id = ?)";

    claimDirtyTopics = "WITH c AS (SELECT scope, topic FROM " + topicsT
        + " WHERE last_write_revision > last_curated_revision"
        + " AND (claimed_until IS NULL OR claimed_until <= clock_timestamp())"
        + " ORDER BY scope, topic LIMIT ? FOR UPDATE SKIP LOCKED)"
        + " UPDATE " + topicsT + " t SET claimed_by = ?, claim_token = ?,"
        + " claimed_until = clock_timestamp() + make_interval(secs => ?)"
        + " FROM c WHERE t.scope = c.scope AND t.topic = c.topic"
        + " RETURNING t.scope, t.topic, t.last_write_revision, t.last_curated_revision, t.claimed_until";
    renewClaim = "UPDATE " + topicsT + " SET claimed_until = clock_timestamp() + make_interval(secs => ?)"
        + " WHERE scope = ? AND topic = ? AND claim_token = ? RETURNING claimed_until";
    claimPendingSources = "WITH c AS (SELECT scope FROM " + sourceStateT
        + " WHERE last_position > cursor AND (claimed_until IS NULL OR claimed_until <= clock_timestamp())"
        + " ORDER BY scope LIMIT ? FOR UPDATE SKIP LOCKED)"
        + " UPDATE " + sourceStateT + " s SET claimed_by = ?, claim_token = ?,"
        + " claimed_until = clock_timestamp() + make_interval(secs => ?)"
        + " FROM c WHERE s.scope = c.scope"
        + " RETURNING s.scope, s.last_position, s.cursor, s.claimed_until";
    claimDirtyTopicsIn = "WITH c AS (SELECT scope, topic FROM " + topicsT
        + " WHERE scope = ANY (?) AND last_write_revision > last_curated_revision"
        + " AND (claimed_until IS NULL OR claimed_until <= clock_timestamp())"
        + " ORDER BY scope, topic LIMIT ? FOR UPDATE SKIP LOCKED)"
        + " UPDATE " + topicsT + " t SET claimed_by = ?, claim_token = ?,"
        + " claimed_until = clock_timestamp() + make_interval(secs => ?)"
        + " FROM c WHERE t.scope = c.scope AND t.topic = c.topic"
        + " RETURNING t.scope, t.topic, t.claimed_until";
    claimPendingSourcesIn = "WITH c AS (SELECT scope FROM " + sourceStateT
        + " WHERE scope = ANY (?) AND last_position > cursor"
        + " AND (claimed_until IS NULL OR claimed_until <= clock_timestamp())"
        + " ORDER BY scope LIMIT ? FOR UPDATE SKIP LOCKED)"
        + " UPDATE " + sourceStateT + " s SET claimed_by = ?, claim_token = ?,"
        + " claimed_until = clock_timestamp() + make_interval(secs => ?)"
        + " FROM c WHERE s.scope = c.scope"
        + " RETURNING s.scope, s.claimed_until";
    releaseSourceClaim = "UPDATE " + sourceStateT + " SET claimed_by = NULL, claim_token = NULL, claimed_until = NULL"
        + " WHERE scope = ? AND claim_token = ?";
    releaseClaim = "UPDATE " + topicsT + " SET claimed_by = NULL, claim_token = NULL, claimed_until = NULL"
        + " WHERE scope = ? AND topic = ? AND claim_token = ?";
  }
}
