/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.sqlite;

import dev.engram.Experience;
import dev.engram.ExperienceStatus;
import dev.engram.ReviewItem;
import dev.engram.ReviewState;
import dev.engram.spi.FullTextQuery;
import dev.engram.spi.ReviewJson;
import dev.engram.spi.ScoredExperience;
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

/**
 * The statements of experience versions, review items and the incubation cursor (schema version 14),
 * for the store's reads and its transactions alike. Lists are bound as one JSON array each, so every
 * statement is prepared once per connection.
 */
final class ExperienceRows {
  private static final String EXPERIENCE = "SELECT doc FROM experience_versions WHERE version_id = ?";
  private static final String EXPERIENCE_CHAIN =
      "SELECT doc FROM experience_versions WHERE experience_id = ? ORDER BY version";
  private static final String EXPERIENCES = "SELECT doc FROM experience_versions"
      + " WHERE scope IN (SELECT value FROM json_each(?)) AND status IN (SELECT value FROM json_each(?))"
      + " ORDER BY scope, experience_id, version LIMIT ?";
  private static final String SEARCH = "SELECT e.doc, bm25(experience_fts) AS rank FROM experience_fts f"
      + " CROSS JOIN experience_versions e ON e.seq = f.rowid"
      + " WHERE experience_fts MATCH ? AND e.scope IN (SELECT value FROM json_each(?))"
      + " ORDER BY rank, e.version_id DESC LIMIT ?";
  private static final String ITEM = "SELECT doc FROM review_items WHERE item_id = ?";
  private static final String ITEMS = "SELECT doc FROM review_items"
      + " WHERE scope IN (SELECT value FROM json_each(?)) AND state IN (SELECT value FROM json_each(?))"
      + " AND item_id > ? ORDER BY item_id LIMIT ?";
  private static final String INCUBATION = "SELECT cursor FROM incubation_state WHERE scope = ?";

  private static final String INSERT_EXPERIENCE = "INSERT INTO experience_versions (version_id, experience_id,"
      + " version, scope, status, doc) VALUES (?, ?, ?, ?, ?, ?)";
  private static final String EXPERIENCE_ROW =
      "SELECT seq, scope, status, doc FROM experience_versions WHERE version_id = ?";
  private static final String EXPERIENCE_OWNER =
      "SELECT scope FROM experience_versions WHERE experience_id = ? ORDER BY version LIMIT 1";
  private static final String OTHER_ACTIVE = "SELECT version_id FROM experience_versions"
      + " WHERE experience_id = ? AND status = 'ACTIVE' AND version_id <> ?";
  private static final String VERSION_TAKEN =
      "SELECT 1 FROM experience_versions WHERE version_id = ? OR (experience_id = ? AND version = ?)";
  private static final String UPDATE_EXPERIENCE = "UPDATE experience_versions SET status = ?, doc = ? WHERE seq = ?";
  /** The terms of the one text analysis, as the versions' index gets them ({@link FtsTerms}). */
  private static final String INDEX = "INSERT INTO experience_fts (rowid, terms) VALUES (?, " + FtsTerms.NAME + "(?))";
  private static final String UNINDEX = "DELETE FROM experience_fts WHERE rowid = ?";
  private static final String UNINDEX_CHAIN = "DELETE FROM experience_fts WHERE rowid IN"
      + " (SELECT seq FROM experience_versions WHERE experience_id = ? AND status = 'ACTIVE')";
  private static final String DELETE_CHAIN = "DELETE FROM experience_versions WHERE experience_id = ?";
  private static final String UNINDEX_SCOPE = "DELETE FROM experience_fts WHERE rowid IN"
      + " (SELECT seq FROM experience_versions WHERE scope = ? AND status = 'ACTIVE')";
  private static final String DELETE_SCOPE_EXPERIENCE = "DELETE FROM experience_versions WHERE scope = ?";
  private static final String DELETE_SCOPE_ITEMS = "DELETE FROM review_items WHERE scope = ?";
  private static final String DELETE_SCOPE_INCUBATION = "DELETE FROM incubation_state WHERE scope = ?";
  private static final String ITEM_ROW = "SELECT scope, kind, version FROM review_items WHERE item_id = ?";
  private static final String INSERT_ITEM =
      "INSERT INTO review_items (item_id, scope, kind, state, version, doc) VALUES (?, ?, ?, ?, ?, ?)";
  private static final String UPDATE_ITEM = "UPDATE review_items SET state = ?, version = ?, doc = ? WHERE item_id = ?";
  private static final String DELETE_ITEM = "DELETE FROM review_items WHERE item_id = ? AND scope = ?";
  private static final String SET_INCUBATION = "INSERT INTO incubation_state (scope, cursor) VALUES (?, ?)"
      + " ON CONFLICT (scope) DO UPDATE SET cursor = excluded.cursor";

  private ExperienceRows() {}

  // ---- reads

  static Optional<Experience> experience(Session s, String versionId) throws SQLException {
    PreparedStatement ps = s.prepare(EXPERIENCE);
    ps.setString(1, versionId);
    try (ResultSet rs = ps.executeQuery()) {
      return rs.next() ? Optional.of(ReviewJson.readExperience(rs.getString(1))) : Optional.empty();
    }
  }

  static List<Experience> chain(Session s, String experienceId) throws SQLException {
    PreparedStatement ps = s.prepare(EXPERIENCE_CHAIN);
    ps.setString(1, experienceId);
    return experiences(ps);
  }

  static List<Experience> experiences(Session s, Collection<String> scopes, Set<ExperienceStatus> statuses, int limit)
      throws SQLException {
    if (scopes.isEmpty() || statuses.isEmpty() || limit < 1) {
      return List.of();
    }
    PreparedStatement ps = s.prepare(EXPERIENCES);
    ps.setString(1, Codec.strings(List.copyOf(new LinkedHashSet<>(scopes))));
    ps.setString(2, Codec.strings(statuses.stream().map(Enum::name).toList()));
    ps.setInt(3, limit);
    return experiences(ps);
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

  /** BM25 over the active versions' terms, confined to the scopes; ties by version id descending. */
  static List<ScoredExperience> search(Session s, Collection<String> scopes, FullTextQuery query, int limit)
      throws SQLException {
    if (scopes.isEmpty() || query.terms().isEmpty() || limit < 1) {
      return List.of();
    }
    StringBuilder match = new StringBuilder("terms : (");
    for (int i = 0; i < query.terms().size(); i++) {
      match.append(i == 0 ? "" : " OR ").append('"').append(query.terms().get(i).replace("\"", "\"\"")).append('"');
    }
    match.append(')');
    PreparedStatement ps = s.prepare(SEARCH);
    ps.setString(1, match.toString());
    ps.setString(2, Codec.strings(List.copyOf(new LinkedHashSet<>(scopes))));
    ps.setInt(3, limit);
    List<ScoredExperience> out = new ArrayList<>();
    try (ResultSet rs = ps.executeQuery()) {
      while (rs.next()) {
        out.add(new ScoredExperience(ReviewJson.readExperience(rs.getString(1)), -rs.getDouble(2)));
      }
    }
    return out;
  }

  static Optional<ReviewItem> item(Session s, String itemId) throws SQLException {
    PreparedStatement ps = s.prepare(ITEM);
    ps.setString(1, itemId);
    try (ResultSet rs = ps.executeQuery()) {
      return rs.next() ? Optional.of(ReviewJson.readReviewItem(rs.getString(1))) : Optional.empty();
    }
  }

  static List<ReviewItem> items(Session s, Collection<String> scopes, Set<ReviewState> states, String afterId,
      int limit) throws SQLException {
    if (scopes.isEmpty() || states.isEmpty() || limit < 1) {
      return List.of();
    }
    PreparedStatement ps = s.prepare(ITEMS);
    ps.setString(1, Codec.strings(List.copyOf(new LinkedHashSet<>(scopes))));
    ps.setString(2, Codec.strings(states.stream().map(Enum::name).toList()));
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

  static long incubation(Session s, String scope) throws SQLException {
    PreparedStatement ps = s.prepare(INCUBATION);
    ps.setString(1, scope);
    try (ResultSet rs = ps.executeQuery()) {
      return rs.next() ? rs.getLong(1) : 0;
    }
  }

  // ---- writes (the transaction checks the scope first)

  static void insert(Session s, String scope, Experience v) throws SQLException {
    PreparedStatement taken = s.prepare(VERSION_TAKEN);
    taken.setString(1, v.versionId());
    taken.setString(2, v.experienceId());
    taken.setInt(3, v.version());
    try (ResultSet rs = taken.executeQuery()) {
      if (rs.next()) {
        throw new IllegalStateException("experience version " + v.versionId() + " or version " + v.version()
            + " of experience " + v.experienceId() + " already exists");
      }
    }
    String owner = owner(s, v.experienceId());
    if (owner != null && !owner.equals(scope)) {
      throw new IllegalStateException("experience " + v.experienceId() + " of scope " + owner
          + " in a transaction on " + scope);
    }
    if (v.isActive()) {
      requireNoOtherActive(s, v.experienceId(), v.versionId());
    }
    PreparedStatement ps = s.prepare(INSERT_EXPERIENCE);
    ps.setString(1, v.versionId());
    ps.setString(2, v.experienceId());
    ps.setInt(3, v.version());
    ps.setString(4, v.scope());
    ps.setString(5, v.status().name());
    ps.setString(6, ReviewJson.writeExperience(v));
    ps.executeUpdate();
    if (v.isActive()) {
      index(s, seq(s, v.versionId()), v);
    }
  }

  private static @org.jspecify.annotations.Nullable String owner(Session s, String experienceId) throws SQLException {
    PreparedStatement ps = s.prepare(EXPERIENCE_OWNER);
    ps.setString(1, experienceId);
    try (ResultSet rs = ps.executeQuery()) {
      return rs.next() ? rs.getString(1) : null;
    }
  }

  private static void requireNoOtherActive(Session s, String experienceId, String versionId) throws SQLException {
    PreparedStatement ps = s.prepare(OTHER_ACTIVE);
    ps.setString(1, experienceId);
    ps.setString(2, versionId);
    try (ResultSet rs = ps.executeQuery()) {
      if (rs.next()) {
        throw new IllegalStateException("experience " + experienceId + " already has active version " + rs.getString(1));
      }
    }
  }

  private static long seq(Session s, String versionId) throws SQLException {
    PreparedStatement ps = s.prepare(EXPERIENCE_ROW);
    ps.setString(1, versionId);
    try (ResultSet rs = ps.executeQuery()) {
      rs.next();
      return rs.getLong(1);
    }
  }

  private static void index(Session s, long seq, Experience v) throws SQLException {
    PreparedStatement ps = s.prepare(INDEX);
    ps.setLong(1, seq);
    ps.setString(2, v.text());
    ps.executeUpdate();
  }

  static void status(Session s, String scope, String versionId, ExperienceStatus status, Instant at)
      throws SQLException {
    PreparedStatement row = s.prepare(EXPERIENCE_ROW);
    row.setString(1, versionId);
    long seq;
    Experience old;
    try (ResultSet rs = row.executeQuery()) {
      if (!rs.next()) {
        throw new IllegalStateException("experience version " + versionId + " does not exist");
      }
      if (!rs.getString(2).equals(scope)) {
        throw new IllegalStateException("status change of experience version " + versionId + " of scope "
            + rs.getString(2) + " in a transaction on " + scope);
      }
      seq = rs.getLong(1);
      old = ReviewJson.readExperience(rs.getString(4));
    }
    Experience updated = old.withStatus(status, at);
    if (!old.isActive() && updated.isActive()) {
      requireNoOtherActive(s, old.experienceId(), versionId);
    }
    PreparedStatement ps = s.prepare(UPDATE_EXPERIENCE);
    ps.setString(1, status.name());
    ps.setString(2, ReviewJson.writeExperience(updated));
    ps.setLong(3, seq);
    ps.executeUpdate();
    if (old.isActive() && !updated.isActive()) {
      PreparedStatement un = s.prepare(UNINDEX);
      un.setLong(1, seq);
      un.executeUpdate();
    } else if (!old.isActive() && updated.isActive()) {
      index(s, seq, updated);
    }
  }

  static int erase(Session s, String scope, String experienceId) throws SQLException {
    String owner = owner(s, experienceId);
    if (owner == null) {
      return 0;
    }
    if (!owner.equals(scope)) {
      throw new IllegalStateException("erasure of experience " + experienceId + " of scope " + owner
          + " in a transaction on " + scope);
    }
    PreparedStatement un = s.prepare(UNINDEX_CHAIN);
    un.setString(1, experienceId);
    un.executeUpdate();
    PreparedStatement del = s.prepare(DELETE_CHAIN);
    del.setString(1, experienceId);
    return del.executeUpdate();
  }

  static void put(Session s, ReviewItem item) throws SQLException {
    PreparedStatement row = s.prepare(ITEM_ROW);
    row.setString(1, item.id());
    String heldScope = null;
    String heldKind = null;
    long heldVersion = 0;
    try (ResultSet rs = row.executeQuery()) {
      if (rs.next()) {
        heldScope = rs.getString(1);
        heldKind = rs.getString(2);
        heldVersion = rs.getLong(3);
      }
    }
    if (heldScope == null) {
      PreparedStatement ps = s.prepare(INSERT_ITEM);
      ps.setString(1, item.id());
      ps.setString(2, item.scope());
      ps.setString(3, item.kind().name());
      ps.setString(4, item.state().name());
      ps.setLong(5, item.version());
      ps.setString(6, ReviewJson.writeReviewItem(item));
      ps.executeUpdate();
      return;
    }
    if (!heldScope.equals(item.scope()) || !heldKind.equals(item.kind().name())) {
      throw new IllegalStateException("review item " + item.id() + " is a " + heldKind + " item of " + heldScope);
    }
    if (item.version() != heldVersion + 1) {
      throw new IllegalStateException("review item " + item.id() + " is at version " + heldVersion
          + "; its next version is " + (heldVersion + 1) + ", not " + item.version());
    }
    PreparedStatement ps = s.prepare(UPDATE_ITEM);
    ps.setString(1, item.state().name());
    ps.setLong(2, item.version());
    ps.setString(3, ReviewJson.writeReviewItem(item));
    ps.setString(4, item.id());
    ps.executeUpdate();
  }

  static boolean eraseItem(Session s, String scope, String itemId) throws SQLException {
    PreparedStatement row = s.prepare(ITEM_ROW);
    row.setString(1, itemId);
    try (ResultSet rs = row.executeQuery()) {
      if (!rs.next()) {
        return false;
      }
      if (!rs.getString(1).equals(scope)) {
        throw new IllegalStateException("erasure of review item " + itemId + " of scope " + rs.getString(1)
            + " in a transaction on " + scope);
      }
    }
    PreparedStatement ps = s.prepare(DELETE_ITEM);
    ps.setString(1, itemId);
    ps.setString(2, scope);
    return ps.executeUpdate() > 0;
  }

  static void incubate(Session s, String scope, long position) throws SQLException {
    PreparedStatement ps = s.prepare(SET_INCUBATION);
    ps.setString(1, scope);
    ps.setLong(2, position);
    ps.executeUpdate();
  }

  /** Everything of the scope: experience versions and their index rows, review items, the incubation cursor. */
  static void eraseScope(Session s, String scope) throws SQLException {
    for (String sql : List.of(UNINDEX_SCOPE, DELETE_SCOPE_EXPERIENCE, DELETE_SCOPE_ITEMS, DELETE_SCOPE_INCUBATION)) {
      PreparedStatement ps = s.prepare(sql);
      ps.setString(1, scope);
      ps.executeUpdate();
    }
  }
}
