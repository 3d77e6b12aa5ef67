/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.postgres;

import dev.engram.Experience;
import dev.engram.ExperienceStatus;
import dev.engram.ReviewItem;
import dev.engram.ReviewState;
import dev.engram.spi.FullTextQuery;
import dev.engram.spi.ReviewJson;
import dev.engram.spi.ScoredExperience;
import dev.engram.spi.TextAnalysis;
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
import org.jspecify.annotations.Nullable;

/**
 * The statements of experience versions, review items and the incubation cursor (schema version 15),
 * for the store's reads and its transactions alike. The experience search scores like the versions'
 * full-text search: per query lexeme its inverse document frequency over the scopes' active experience
 * times {@code ts_rank} of the version's terms, summed.
 */
final class ExperienceSql {
  private final String experience;
  private final String read;
  private final String chain;
  private final String list;
  private final String search;
  private final String item;
  private final String items;
  private final String incubation;
  private final String insert;
  private final String row;
  private final String owner;
  private final String otherActive;
  private final String taken;
  private final String update;
  private final String eraseChain;
  private final String itemRow;
  private final String insertItem;
  private final String updateItem;
  private final String eraseItem;
  private final String setIncubation;
  private final List<String> eraseScope;
  /** The table whose search column the text reanalysis rebuilds. */
  final String table;
  /** The active versions' id and document, for the text reanalysis. */
  final String reanalysisRows;
  /** Sets the search column of one version from its terms' literal, for the text reanalysis. */
  final String reanalysisUpdate;

  ExperienceSql(String schema, String prefix) {
    String p = (schema.isEmpty() ? "" : schema + ".") + prefix;
    experience = p + "experience_versions";
    table = experience;
    String itemsT = p + "review_items";
    String incubationT = p + "incubation_state";
    read = "SELECT doc FROM " + experience + " WHERE version_id = ?";
    chain = "SELECT doc FROM " + experience + " WHERE experience_id = ? ORDER BY version";
    list = "SELECT doc FROM " + experience + " WHERE scope = ANY (?::text[]) AND status = ANY (?::text[])"
        + " ORDER BY scope, experience_id, version LIMIT ?";
    search = "WITH terms AS (SELECT DISTINCT t.term::tsquery AS query FROM unnest(?::text[]) AS t(term)),"
        + " n AS (SELECT count(*)::float8 AS n FROM " + experience
        + " WHERE scope = ANY (?::text[]) AND status = 'ACTIVE'),"
        + " hits AS (SELECT e.version_id, e.search, t.query FROM terms t JOIN " + experience
        + " e ON e.search @@ t.query WHERE e.scope = ANY (?::text[]) AND e.status = 'ACTIVE'),"
        + " df AS (SELECT query, count(*)::float8 AS df FROM hits GROUP BY query),"
        + " scored AS (SELECT h.version_id, sum(ln(1 + (n.n - df.df + 0.5) / (df.df + 0.5))"
        + " * ts_rank(h.search, h.query, 1)) AS score FROM hits h JOIN df ON df.query = h.query CROSS JOIN n"
        + " GROUP BY h.version_id)"
        + " SELECT e.doc, s.score FROM scored s JOIN " + experience + " e ON e.version_id = s.version_id"
        + " ORDER BY s.score DESC, s.version_id DESC LIMIT ?";
    item = "SELECT doc FROM " + itemsT + " WHERE item_id = ?";
    items = "SELECT doc FROM " + itemsT + " WHERE scope = ANY (?::text[]) AND state = ANY (?::text[])"
        + " AND item_id > ? ORDER BY item_id LIMIT ?";
    incubation = "SELECT cursor FROM " + incubationT + " WHERE scope = ?";
    insert = "INSERT INTO " + experience + " (version_id, experience_id, version, scope, status, doc, search)"
        + " VALUES (?, ?, ?, ?, ?, ?, ?::tsvector)";
    row = "SELECT scope, doc FROM " + experience + " WHERE version_id = ?";
    owner = "SELECT scope FROM " + experience + " WHERE experience_id = ? ORDER BY version LIMIT 1";
    otherActive = "SELECT version_id FROM " + experience
        + " WHERE experience_id = ? AND status = 'ACTIVE' AND version_id <> ?";
    taken = "SELECT 1 FROM " + experience + " WHERE version_id = ? OR (experience_id = ? AND version = ?)";
    update = "UPDATE " + experience + " SET status = ?, doc = ?, search = ?::tsvector WHERE version_id = ?";
    eraseChain = "DELETE FROM " + experience + " WHERE experience_id = ?";
    itemRow = "SELECT scope, kind, version FROM " + itemsT + " WHERE item_id = ?";
    insertItem = "INSERT INTO " + itemsT + " (item_id, scope, kind, state, version, doc) VALUES (?, ?, ?, ?, ?, ?)";
    updateItem = "UPDATE " + itemsT + " SET state = ?, version = ?, doc = ? WHERE item_id = ?";
    eraseItem = "DELETE FROM " + itemsT + " WHERE item_id = ? AND scope = ?";
    setIncubation = "INSERT INTO " + incubationT + " (scope, cursor) VALUES (?, ?)"
        + " ON CONFLICT (scope) DO UPDATE SET cursor = excluded.cursor";
    eraseScope = List.of("DELETE FROM " + experience + " WHERE scope = ?", "DELETE FROM " + itemsT + " WHERE scope = ?",
        "DELETE FROM " + incubationT + " WHERE scope = ?");
    reanalysisRows = "SELECT version_id, doc FROM (SELECT version_id, doc FROM " + experience
        + " WHERE status = 'ACTIVE') a";
    reanalysisUpdate = "UPDATE " + experience + " SET search = ?::tsvector WHERE version_id = ?";
  }

  /** The {@code tsvector} literal of an active version: the one text analysis of its four fields. */
  static String document(Experience e) {
    return SearchText.vector(TextAnalysis.terms(e.text()));
  }

  /** The {@code tsvector} literal of the version a stored document describes (for the text reanalysis). */
  static String document(String doc) {
    return document(ReviewJson.readExperience(doc));
  }

  // ---- reads

  Optional<Experience> experience(Connection c, String versionId) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(read)) {
      ps.setString(1, versionId);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? Optional.of(ReviewJson.readExperience(rs.getString(1))) : Optional.empty();
      }
    }
  }

  List<Experience> chain(Connection c, String experienceId) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(chain)) {
      ps.setString(1, experienceId);
      return experiences(ps);
    }
  }

  List<Experience> experiences(Connection c, Collection<String> scopes, Set<ExperienceStatus> statuses, int limit)
      throws SQLException {
    if (scopes.isEmpty() || statuses.isEmpty() || limit < 1) {
      return List.of();
    }
    try (PreparedStatement ps = c.prepareStatement(list)) {
      ps.setArray(1, Rows.textArray(c, new LinkedHashSet<>(scopes)));
      ps.setArray(2, Rows.textArray(c, statuses.stream().map(Enum::name).toList()));
      ps.setInt(3, limit);
      return experiences(ps);
    }
  }

  private static List<Experience> experiences(PreparedStatement ps) throws SQLException {
    List<Experience> out = new ArrayList<>();
    try (ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        out.add(ReviewJson.readExperience(rs.getString(1)));
      }
    }
    return out;
  }

  List<ScoredExperience> search(Connection c, Collection<String> scopes, FullTextQuery query, int limit)
      throws SQLException {
    if (scopes.isEmpty() || query.terms().isEmpty() || limit < 1) {
      return List.of();
    }
    List<String> lexemes = new ArrayList<>();
    for (String term : query.terms()) {
      lexemes.add(SearchText.query(term));
    }
    java.sql.Array scopeArray = Rows.textArray(c, new LinkedHashSet<>(scopes));
    try (PreparedStatement ps = c.prepareStatement(search)) {
      ps.setArray(1, Rows.textArray(c, lexemes));
      ps.setArray(2, scopeArray);
      ps.setArray(3, scopeArray);
      ps.setInt(4, limit);
      List<ScoredExperience> out = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(new ScoredExperience(ReviewJson.readExperience(rs.getString(1)), rs.getDouble(2)));
        }
      }
      return out;
    }
  }

  Optional<ReviewItem> item(Connection c, String itemId) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(item)) {
      ps.setString(1, itemId);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? Optional.of(ReviewJson.readReviewItem(rs.getString(1))) : Optional.empty();
      }
    }
  }

  List<ReviewItem> items(Connection c, Collection<String> scopes, Set<ReviewState> states, String afterId, int limit)
      throws SQLException {
    if (scopes.isEmpty() || states.isEmpty() || limit < 1) {
      return List.of();
    }
    try (PreparedStatement ps = c.prepareStatement(items)) {
      ps.setArray(1, Rows.textArray(c, new LinkedHashSet<>(scopes)));
      ps.setArray(2, Rows.textArray(c, states.stream().map(Enum::name).toList()));
      ps.setString(3, afterId);
      ps.setInt(4, limit);
      List<ReviewItem> out = new ArrayList<>();
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(ReviewJson.readReviewItem(rs.getString(1)));
        }
      }
      return out;
    }
  }

  long incubation(Connection c, String scope) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(incubation)) {
      ps.setString(1, scope);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getLong(1) : 0;
      }
    }
  }

  // ---- writes (the transaction checks its scope first)

  void insert(Connection c, String scope, Experience v) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(taken)) {
      ps.setString(1, v.versionId());
      ps.setString(2, v.experienceId());
      ps.setInt(3, v.version());
      try (ResultSet rs = ps.executeQuery()) {
        if (rs.next()) {
          throw new IllegalStateException("experience version " + v.versionId() + " or version " + v.version()
              + " of experience " + v.experienceId() + " already exists");
        }
      }
    }
    String held = owner(c, v.experienceId());
    if (held != null && !held.equals(scope)) {
      throw new IllegalStateException("experience " + v.experienceId() + " of scope " + held
          + " in a transaction on " + scope);
    }
    if (v.isActive()) {
      requireNoOtherActive(c, v.experienceId(), v.versionId());
    }
    try (PreparedStatement ps = c.prepareStatement(insert)) {
      ps.setString(1, v.versionId());
      ps.setString(2, v.experienceId());
      ps.setInt(3, v.version());
      ps.setString(4, v.scope());
      ps.setString(5, v.status().name());
      ps.setString(6, ReviewJson.writeExperience(v));
      ps.setString(7, v.isActive() ? document(v) : null);
      ps.executeUpdate();
    }
  }

  private @Nullable String owner(Connection c, String experienceId) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(owner)) {
      ps.setString(1, experienceId);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getString(1) : null;
      }
    }
  }

  private void requireNoOtherActive(Connection c, String experienceId, String versionId) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(otherActive)) {
      ps.setString(1, experienceId);
      ps.setString(2, versionId);
      try (ResultSet rs = ps.executeQuery()) {
        if (rs.next()) {
          throw new IllegalStateException("experience " + experienceId + " already has active version "
              + rs.getString(1));
        }
      }
    }
  }

  void status(Connection c, String scope, String versionId, ExperienceStatus status, Instant at) throws SQLException {
    Experience old;
    try (PreparedStatement ps = c.prepareStatement(row)) {
      ps.setString(1, versionId);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          throw new IllegalStateException("experience version " + versionId + " does not exist");
        }
        if (!rs.getString(1).equals(scope)) {
          throw new IllegalStateException("status change of experience version " + versionId + " of scope "
              + rs.getString(1) + " in a transaction on " + scope);
        }
        old = ReviewJson.readExperience(rs.getString(2));
      }
    }
    Experience updated = old.withStatus(status, at);
    if (!old.isActive() && updated.isActive()) {
      requireNoOtherActive(c, old.experienceId(), versionId);
    }
    try (PreparedStatement ps = c.prepareStatement(update)) {
      ps.setString(1, status.name());
      ps.setString(2, ReviewJson.writeExperience(updated));
      ps.setString(3, updated.isActive() ? document(updated) : null);
      ps.setString(4, versionId);
      ps.executeUpdate();
    }
  }

  int erase(Connection c, String scope, String experienceId) throws SQLException {
    String held = owner(c, experienceId);
    if (held == null) {
      return 0;
    }
    if (!held.equals(scope)) {
      throw new IllegalStateException("erasure of experience " + experienceId + " of scope " + held
          + " in a transaction on " + scope);
    }
    try (PreparedStatement ps = c.prepareStatement(eraseChain)) {
      ps.setString(1, experienceId);
      return ps.executeUpdate();
    }
  }

  void put(Connection c, ReviewItem next) throws SQLException {
    String heldScope = null;
    String heldKind = null;
    long heldVersion = 0;
    try (PreparedStatement ps = c.prepareStatement(itemRow)) {
      ps.setString(1, next.id());
      try (ResultSet rs = ps.executeQuery()) {
        if (rs.next()) {
          heldScope = rs.getString(1);
          heldKind = rs.getString(2);
          heldVersion = rs.getLong(3);
        }
      }
    }
    if (heldScope == null) {
      try (PreparedStatement ps = c.prepareStatement(insertItem)) {
        ps.setString(1, next.id());
        ps.setString(2, next.scope());
        ps.setString(3, next.kind().name());
        ps.setString(4, next.state().name());
        ps.setLong(5, next.version());
        ps.setString(6, ReviewJson.writeReviewItem(next));
        ps.executeUpdate();
      }
      return;
    }
    if (!heldScope.equals(next.scope()) || !heldKind.equals(next.kind().name())) {
      throw new IllegalStateException("review item " + next.id() + " is a " + heldKind + " item of " + heldScope);
    }
    if (next.version() != heldVersion + 1) {
      throw new IllegalStateException("review item " + next.id() + " is at version " + heldVersion
          + "; its next version is " + (heldVersion + 1) + ", not " + next.version());
    }
    try (PreparedStatement ps = c.prepareStatement(updateItem)) {
      ps.setString(1, next.state().name());
      ps.setLong(2, next.version());
      ps.setString(3, ReviewJson.writeReviewItem(next));
      ps.setString(4, next.id());
      ps.executeUpdate();
    }
  }

  boolean eraseItem(Connection c, String scope, String itemId) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(itemRow)) {
      ps.setString(1, itemId);
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next()) {
          return false;
        }
        if (!rs.getString(1).equals(scope)) {
          throw new IllegalStateException("erasure of review item " + itemId + " of scope " + rs.getString(1)
              + " in a transaction on " + scope);
        }
      }
    }
    try (PreparedStatement ps = c.prepareStatement(eraseItem)) {
      ps.setString(1, itemId);
      ps.setString(2, scope);
      return ps.executeUpdate() > 0;
    }
  }

  void incubate(Connection c, String scope, long position) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(setIncubation)) {
      ps.setString(1, scope);
      ps.setLong(2, position);
      ps.executeUpdate();
    }
  }

  void eraseScope(Connection c, String scope) throws SQLException {
    for (String statement : eraseScope) {
      try (PreparedStatement ps = c.prepareStatement(statement)) {
        ps.setString(1, scope);
        ps.executeUpdate();
      }
    }
  }
}
