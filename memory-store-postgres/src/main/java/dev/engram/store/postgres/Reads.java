/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.postgres;

import dev.engram.EntryStatus;
import dev.engram.EntryType;
import dev.engram.MemoryEntry;
import dev.engram.MemoryEvent;
import dev.engram.Revision;
import dev.engram.spi.EntryJson;
import dev.engram.spi.FullTextQuery;
import dev.engram.spi.ScoredEntry;
import dev.engram.spi.StoredVector;
import dev.engram.spi.TopicState;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** The {@link dev.engram.spi.StoreReader} queries, run on a connection the caller provides. */
final class Reads {
  private final Sql sql;
  /** The most versions a full-text search ranks; 0 ranks every hit ({@code fullTextCandidates}). */
  private final int candidates;
  /** Whether this store already logged that a search ranked a bounded candidate set. */
  private final java.util.concurrent.atomic.AtomicBoolean announced = new java.util.concurrent.atomic.AtomicBoolean();
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Reads.class);

  Reads(Sql sql, int candidates) {
    this.sql = sql;
    this.candidates = candidates;
  }

  long headRevision(Connection c, String scope) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql.headRevision)) {
      ps.setString(1, scope);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getLong(1) : 0L;
      }
    }
  }

  Optional<MemoryEntry> version(Connection c, String versionId) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql.version)) {
      ps.setString(1, versionId);
      return first(Rows.entries(ps));
    }
  }

  List<MemoryEntry> versions(Connection c, String entryId) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql.versions)) {
      ps.setString(1, entryId);
      return Rows.entries(ps);
    }
  }

  Optional<MemoryEntry> currentVersion(Connection c, String entryId) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql.currentVersion)) {
      ps.setString(1, entryId);
      return first(Rows.entries(ps));
    }
  }

  Optional<MemoryEntry> findActiveByHash(Connection c, String scope, String contentHash) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql.findActiveByHash)) {
      ps.setString(1, scope);
      ps.setString(2, contentHash);
      return first(Rows.entries(ps));
    }
  }

  /** For each hash with an active version in {@code scope}, the newest such version; one round trip. */
  java.util.Map<String, MemoryEntry> findActiveByHashes(Connection c, String scope, Collection<String> hashes)
      throws SQLException {
    java.util.Map<String, MemoryEntry> out = new java.util.HashMap<>();
    if (hashes.isEmpty()) {
      return out;
    }
    Set<String> distinct = new LinkedHashSet<>(hashes);
    if (distinct.size() == 1) {
      // by equality: planned once per connection, where the array form is planned for each array
      String hash = distinct.iterator().next();
      findActiveByHash(c, scope, hash).ifPresent(e -> out.put(hash, e));
      return out;
    }
    try (PreparedStatement ps = c.prepareStatement(sql.findActiveByHashes)) {
      ps.setString(1, scope);
      ps.setArray(2, Rows.textArray(c, distinct));
      for (MemoryEntry e : Rows.entries(ps)) {
        out.put(e.contentHash(), e);
      }
    }
    return out;
  }

  Optional<MemoryEntry> findActiveByPath(Connection c, String scope, String path) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql.findActiveByPath)) {
      ps.setString(1, scope);
      ps.setString(2, path);
      return first(Rows.entries(ps));
    }
  }

  List<MemoryEntry> activeByTopic(Connection c, Collection<String> scopes, String topic, int limit)
      throws SQLException {
    if (scopes.isEmpty() || limit <= 0) {
      return List.of();
    }
    Set<String> distinct = new LinkedHashSet<>(scopes);
    if (distinct.size() == 1) {
      try (PreparedStatement ps = c.prepareStatement(sql.activeByTopicInScope)) {
        ps.setString(1, distinct.iterator().next());
        ps.setString(2, topic);
        ps.setInt(3, limit);
        return Rows.entries(ps);
      }
    }
    try (PreparedStatement ps = c.prepareStatement(sql.activeByTopic)) {
      ps.setArray(1, Rows.textArray(c, distinct));
      ps.setString(2, topic);
      ps.setInt(3, limit);
      ps.setInt(4, limit);
      return Rows.entries(ps);
    }
  }

  List<MemoryEntry> versionsIn(Connection c, Collection<String> scopes, Set<EntryStatus> statuses)
      throws SQLException {
    if (scopes.isEmpty() || statuses.isEmpty()) {
      return List.of();
    }
    List<String> names = new ArrayList<>();
    for (EntryStatus s : statuses) {
      names.add(s.name());
    }
    try (PreparedStatement ps = c.prepareStatement(sql.versionsIn)) {
      ps.setArray(1, Rows.textArray(c, new LinkedHashSet<>(scopes)));
      ps.setArray(2, Rows.textArray(c, names));
      return Rows.entries(ps);
    }
  }

  List<MemoryEvent> events(Connection c, String entryId) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql.events)) {
      ps.setString(1, entryId);
      List<MemoryEvent> out = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(EntryJson.readEvent(rs.getString(1)));
        }
      }
      return out;
    }
  }

  List<MemoryEvent> events(Connection c, String entryId, long afterRevision, String afterEventId, int limit)
      throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql.eventsPage)) {
      ps.setString(1, entryId);
      ps.setLong(2, afterRevision);
      ps.setString(3, afterEventId);
      ps.setInt(4, limit);
      List<MemoryEvent> out = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(EntryJson.readEvent(rs.getString(1)));
        }
      }
      return out;
    }
  }

  Optional<MemoryEvent> event(Connection c, String eventId) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql.event)) {
      ps.setString(1, eventId);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? Optional.of(EntryJson.readEvent(rs.getString(1))) : Optional.empty();
      }
    }
  }

  List<Revision> revisions(Connection c, String scope, long sinceExclusive, int limit) throws SQLException {
    if (limit <= 0) {
      return List.of();
    }
    try (PreparedStatement ps = c.prepareStatement(sql.revisions)) {
      ps.setString(1, scope);
      ps.setLong(2, sinceExclusive);
      ps.setInt(3, limit);
      List<Revision> out = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(new Revision(rs.getString(1), rs.getLong(2), EntryJson.readChanges(rs.getString(3)),
              Instant.parse(rs.getString(4))));
        }
      }
      return out;
    }
  }

  List<TopicState> topics(Connection c, Collection<String> scopes) throws SQLException {
    if (scopes.isEmpty()) {
      return List.of();
    }
    try (PreparedStatement ps = c.prepareStatement(sql.topics)) {
      ps.setArray(1, Rows.textArray(c, new LinkedHashSet<>(scopes)));
      return topicStates(ps);
    }
  }

  List<TopicState> dirtyTopics(Connection c, int limit) throws SQLException {
    if (limit <= 0) {
      return List.of();
    }
    try (PreparedStatement ps = c.prepareStatement(sql.dirtyTopics)) {
      ps.setInt(1, limit);
      return topicStates(ps);
    }
  }

  int countActiveWithPriority(Connection c, String namespace, int priority) throws SQLException {
    String query = priority >= 0 && priority <= 1 ? sql.countActiveWithCappedPriority : sql.countActiveWithPriority;
    try (PreparedStatement ps = c.prepareStatement(query)) {
      ps.setInt(1, priority);
      ps.setString(2, namespace);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getInt(1);
      }
    }
  }

  List<String> scopes(Connection c, String prefix, boolean recursive) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql.scopes)) {
      for (int offset : new int[] {0, 4, 8, 12, 16, 20}) {
        ps.setString(offset + 1, prefix);
        ps.setBoolean(offset + 2, recursive);
        ps.setString(offset + 3, prefix + "/");
        ps.setString(offset + 4, prefix + "0");
      }
      List<String> out = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(rs.getString(1));
        }
      }
      return out;
    }
  }

  dev.engram.spi.SourceState sourceState(Connection c, String scope) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql.sourceState)) {
      ps.setString(1, scope);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? new dev.engram.spi.SourceState(rs.getLong(1), rs.getLong(2)) : dev.engram.spi.SourceState.EMPTY;
      }
    }
  }

  Optional<dev.engram.CapturedSource> source(Connection c, String scope, String sourceId) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql.source)) {
      ps.setString(1, scope);
      ps.setString(2, sourceId);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? Optional.of(Rows.source(rs)) : Optional.empty();
      }
    }
  }

  /** Records of a scope after a position, optionally of one session and within [from, to), by position. */
  List<dev.engram.CapturedSource> sources(Connection c, String scope, dev.engram.spi.SourceFilter f)
      throws SQLException {
    int variant = (f.sessionId() != null ? Sql.SOURCES_SESSION : 0) | (f.from() != null ? Sql.SOURCES_FROM : 0)
        | (f.to() != null ? Sql.SOURCES_TO : 0);
    try (PreparedStatement ps = c.prepareStatement(sql.sources.get(variant))) {
      int i = 1;
      ps.setString(i++, scope);
      ps.setLong(i++, f.afterPosition());
      if (f.sessionId() != null) {
        ps.setString(i++, f.sessionId());
      }
      for (java.time.Instant bound : new java.time.Instant[] {f.from(), f.to()}) {
        if (bound != null) {
          ps.setLong(i++, bound.getEpochSecond());
          ps.setLong(i++, bound.getEpochSecond());
          ps.setInt(i++, bound.getNano());
        }
      }
      ps.setInt(i, f.limit());
      List<dev.engram.CapturedSource> out = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(Rows.source(rs));
        }
      }
      return out;
    }
  }

  /**
   * Active versions of the scopes holding any query term, best first. With a bound, the terms' document
   * frequencies (schema 16) are read first: no hit returns nothing at once, more hits than the bound in scopes
   * holding more active versions than the bound are ranked by {@link #searchBounded}, and the rest by
   * {@link Sql#searchFullText}, unchanged.
   */
  dev.engram.spi.FullTextResult searchFullText(Connection c, Collection<String> scopes, FullTextQuery query, int limit)
      throws SQLException {
    if (scopes.isEmpty() || query.terms().isEmpty() || limit <= 0) {
      return dev.engram.spi.FullTextResult.exact(List.of());
    }
    if (candidates > 0) {
      java.sql.Array scopeArray = Rows.textArray(c, new LinkedHashSet<>(scopes));
      java.util.Map<String, Long> frequencies = termFrequencies(c, scopeArray, new LinkedHashSet<>(query.terms()));
      if (frequencies.isEmpty()) {
        return dev.engram.spi.FullTextResult.exact(List.of());
      }
      long hits = 0;
      for (long df : frequencies.values()) {
        hits += df;
      }
      // the sum of the frequencies overstates the hits of a query whose terms share versions; scopes that
      // hold no more active versions than the bound are ranked in full whatever the query
      if (hits > candidates && activeUpTo(c, scopeArray, candidates + 1) > candidates) {
        return new dev.engram.spi.FullTextResult(searchBounded(c, scopeArray, query, frequencies, limit), candidates);
      }
    }
    try (PreparedStatement ps = c.prepareStatement(sql.searchFullText)) {
      bindSearch(c, ps, scopes, query, limit, true);
      return dev.engram.spi.FullTextResult.exact(scored(ps));
    }
  }

  /** How many active versions {@code scopes} hold, counted up to {@code cap} at most. */
  private long activeUpTo(Connection c, java.sql.Array scopes, int cap) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql.activeUpTo)) {
      ps.setArray(1, scopes);
      ps.setInt(2, cap);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getLong(1) : 0;
      }
    }
  }

  /** The document frequency of each term that an active version of the scopes holds (schema 16). */
  private java.util.Map<String, Long> termFrequencies(Connection c, java.sql.Array scopes, Set<String> terms)
      throws SQLException {
    java.util.Map<String, Long> out = new java.util.HashMap<>();
    try (PreparedStatement ps = c.prepareStatement(sql.termFrequencies)) {
      ps.setArray(1, scopes);
      ps.setArray(2, Rows.textArray(c, terms));
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.put(rs.getString(1), rs.getLong(2));
        }
      }
    }
    return out;
  }

  /**
   * The full-text ranking over a bounded candidate set, for a query whose terms match more versions
   * than the bound: up to half the bound of the versions holding the rarest term, a quarter of those
   * holding all but one of the (up to) four rarest terms, and a quarter of those holding every term that
   * occurs, each version scored as {@link Sql#searchFullText} scores it.
   */
  private List<ScoredEntry> searchBounded(Connection c, java.sql.Array scopes, FullTextQuery query,
      java.util.Map<String, Long> frequencies, int limit) throws SQLException {
    if (announced.compareAndSet(false, true)) {
      LOG.info("A full-text search over scopes holding more than {} active versions ranked a bounded candidate"
          + " set; its order may differ from ranking every hit (fullTextCandidates(0) ranks every hit)", candidates);
    }
    List<String> rarest = new ArrayList<>(frequencies.keySet());
    rarest.sort(java.util.Comparator.comparingLong((String t) -> frequencies.get(t))
        .thenComparing(java.util.Comparator.naturalOrder()));
    List<String> tiers = candidateTiers(rarest);
    int[] limits = tierLimits(candidates, rarest.size());
    List<String> terms = new ArrayList<>(new LinkedHashSet<>(query.terms()));
    List<String> lexemes = new ArrayList<>();
    for (String term : terms) {
      lexemes.add(SearchText.query(term));
    }
    try (PreparedStatement ps = c.prepareStatement(sql.searchFullTextBounded)) {
      int i = 1;
      ps.setArray(i++, Rows.textArray(c, terms));
      ps.setArray(i++, Rows.textArray(c, lexemes));
      ps.setArray(i++, scopes);
      ps.setArray(i++, scopes);
      for (int t = 0; t < tiers.size(); t++) {
        ps.setString(i++, tiers.get(t));
        ps.setArray(i++, scopes);
        i = bindFilters(c, ps, i, query);
        ps.setInt(i++, limits[t]);
      }
      ps.setInt(i, limit);
      return scored(ps);
    }
  }

  /**
   * How many candidates each tier takes: half the bound for the rarest term, a quarter for each other
   * tier; with two terms or one, the second tier (the more common term alone, whose holders are the
   * least likely to rank first) takes none and the rarest term three quarters.
   */
  static int[] tierLimits(int candidates, int terms) {
    if (terms <= 2) {
      return new int[] {candidates - candidates / 4, 0, candidates / 4};
    }
    return new int[] {candidates / 2, candidates / 4, candidates - candidates / 2 - candidates / 4};
  }

  /**
   * The three candidate queries of a bounded search over terms ordered rarest first: the rarest term;
   * all but one of the (up to) four rarest (the second rarest of two); every term.
   */
  static List<String> candidateTiers(List<String> rarest) {
    List<String> q = new ArrayList<>();
    for (String term : rarest) {
      q.add(SearchText.query(term));
    }
    String second;
    int k = Math.min(4, q.size());
    if (k >= 3) {
      StringBuilder any = new StringBuilder();
      for (int skip = k - 1; skip >= 0; skip--) {
        StringBuilder all = new StringBuilder();
        for (int j = 0; j < k; j++) {
          if (j != skip) {
            all.append(all.length() == 0 ? "" : " & ").append(q.get(j));
          }
        }
        any.append(any.length() == 0 ? "" : " | ").append('(').append(all).append(')');
      }
      second = any.toString();
    } else {
      second = q.get(k - 1);
    }
    return List.of(q.get(0), second, String.join(" & ", q));
  }

  /**
   * {@link #searchFullText} over the key documents of the scopes' active versions (schema 14): the same
   * ranking, filters and order, none of the content's fields.
   */
  List<ScoredEntry> searchKeys(Connection c, Collection<String> scopes, FullTextQuery query, int limit)
      throws SQLException {
    if (scopes.isEmpty() || query.terms().isEmpty() || limit <= 0) {
      return List.of();
    }
    boolean filtered = !query.topics().isEmpty() || !query.types().isEmpty() || query.occurredFrom() != null
        || query.occurredTo() != null;
    try (PreparedStatement ps = c.prepareStatement(filtered ? sql.searchKeysFiltered : sql.searchKeys)) {
      bindSearch(c, ps, scopes, query, limit, filtered);
      return scored(ps);
    }
  }

  /**
   * Binds a search statement's parameters: the terms as one-lexeme queries, the scopes twice (document
   * count, hits), with {@code filters} the topics, types and event-time bounds, then the limit.
   */
  private static void bindSearch(Connection c, PreparedStatement ps, Collection<String> scopes, FullTextQuery query,
      int limit, boolean filters) throws SQLException {
    java.sql.Array scopeArray = Rows.textArray(c, new LinkedHashSet<>(scopes));
    List<String> lexemes = new ArrayList<>();
    for (String term : query.terms()) {
      lexemes.add(SearchText.query(term));
    }
    ps.setArray(1, Rows.textArray(c, lexemes));
    ps.setArray(2, scopeArray);
    ps.setArray(3, scopeArray);
    int i = 4;
    if (filters) {
      i = bindFilters(c, ps, i, query);
    }
    ps.setInt(i, limit);
  }

  /** Binds the topic, type and event-time filters from parameter {@code i} on; returns the next parameter. */
  private static int bindFilters(Connection c, PreparedStatement ps, int i, FullTextQuery query)
      throws SQLException {
    {
      List<String> types = new ArrayList<>();
      for (EntryType t : query.types()) {
        types.add(t.wireName());
      }
      java.sql.Array topicArray = Rows.textArray(c, query.topics());
      java.sql.Array typeArray = Rows.textArray(c, types);
      ps.setArray(i++, topicArray);
      ps.setArray(i++, topicArray);
      ps.setArray(i++, typeArray);
      ps.setArray(i++, typeArray);
      for (java.time.Instant bound : new java.time.Instant[] {query.occurredFrom(), query.occurredTo()}) {
        if (bound == null) {
          ps.setNull(i++, java.sql.Types.BIGINT);
          ps.setNull(i++, java.sql.Types.BIGINT);
          ps.setNull(i++, java.sql.Types.INTEGER);
        } else {
          ps.setLong(i++, bound.getEpochSecond());
          ps.setLong(i++, bound.getEpochSecond());
          ps.setInt(i++, bound.getNano());
        }
      }
    }
    return i;
  }

  /** The rows of a search statement: a version's columns, then its score. */
  private static List<ScoredEntry> scored(PreparedStatement ps) throws SQLException {
    List<ScoredEntry> out = new ArrayList<>();
    try (ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        out.add(new ScoredEntry(Rows.entry(rs), rs.getDouble(22)));
      }
    }
    return out;
  }

  /** The retrieval keys of those of {@code versionIds} that have keys, in the order the ids are given. */
  java.util.Map<String, List<String>> keysOf(Connection c, Collection<String> versionIds) throws SQLException {
    Set<String> ids = new LinkedHashSet<>(versionIds);
    if (ids.isEmpty()) {
      return java.util.Map.of();
    }
    java.util.Map<String, List<String>> found = new java.util.HashMap<>();
    try (PreparedStatement ps = c.prepareStatement(sql.keysOf)) {
      ps.setArray(1, Rows.textArray(c, ids));
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          found.put(rs.getString(1), List.copyOf(Rows.strings(rs.getArray(2))));
        }
      }
    }
    java.util.Map<String, List<String>> out = new java.util.LinkedHashMap<>();
    for (String id : ids) {
      List<String> keys = found.get(id);
      if (keys != null) {
        out.put(id, keys);
      }
    }
    return out;
  }

  List<StoredVector> activeVectors(Connection c, String scope, String profileId) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql.activeVectors)) {
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
  }

  List<StoredVector> vectorsOf(Connection c, String scope, String profileId, Collection<String> versionIds)
      throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql.vectorsOf)) {
      ps.setString(1, profileId);
      ps.setString(2, scope);
      ps.setArray(3, Rows.textArray(c, new LinkedHashSet<>(versionIds)));
      List<StoredVector> out = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(new StoredVector(rs.getString(1), rs.getString(2), StoredVector.fromBytes(rs.getBytes(3))));
        }
      }
      return out;
    }
  }

  long vectorEpoch(Connection c) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql.vectorEpoch); ResultSet rs = ps.executeQuery()) {
      return rs.next() ? rs.getLong(1) : 0;
    }
  }

  void advanceVectorEpoch(Connection c) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql.advanceVectorEpoch)) {
      ps.executeUpdate();
    }
  }

  int countActiveWithoutVectors(Connection c, String scope, String profileId) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql.countActiveWithoutVectors)) {
      ps.setString(1, scope);
      ps.setString(2, profileId);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        return rs.getInt(1);
      }
    }
  }

  private static List<TopicState> topicStates(PreparedStatement ps) throws SQLException {
    List<TopicState> out = new ArrayList<>();
    try (ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        out.add(Rows.topic(rs));
      }
    }
    return out;
  }

  private static Optional<MemoryEntry> first(List<MemoryEntry> rows) {
    return rows.isEmpty() ? Optional.empty() : Optional.of(rows.get(0));
  }
}
