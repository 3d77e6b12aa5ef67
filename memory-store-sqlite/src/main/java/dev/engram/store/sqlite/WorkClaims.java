/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.sqlite;

import dev.engram.spi.WorkClaim;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The statements of {@code work_claims} (V17): run inside one write transaction each, so the select of
 * unclaimed items and the upsert of their claims see no other claimer in between, in this process or another.
 */
final class WorkClaims {
  private WorkClaims() {}

  /** The dirty pairs of the scopes that no unexpired claim holds, from the dirty_topics list (V12). */
  private static final String UNCLAIMED_DIRTY = "SELECT d.scope, d.topic FROM dirty_topics d"
      + " LEFT JOIN work_claims w ON w.kind = 'DIRTY_TOPIC' AND w.scope = d.scope AND w.topic = d.topic"
      + " WHERE d.scope IN (SELECT value FROM json_each(?))"
      + " AND (w.claimed_until IS NULL OR w.claimed_until <= ?)"
      + " ORDER BY d.scope, d.topic LIMIT ?";
  private static final String UNCLAIMED_PENDING = "SELECT s.scope FROM source_state s"
      + " LEFT JOIN work_claims w ON w.kind = 'PENDING_SOURCES' AND w.scope = s.scope AND w.topic = ''"
      + " WHERE s.scope IN (SELECT value FROM json_each(?)) AND s.last_position > s.cursor"
      + " AND (w.claimed_until IS NULL OR w.claimed_until <= ?)"
      + " ORDER BY s.scope LIMIT ?";
  private static final String TAKE = "INSERT INTO work_claims (kind, scope, topic, worker_id, token, claimed_until)"
      + " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (kind, scope, topic) DO UPDATE SET worker_id = excluded.worker_id,"
      + " token = excluded.token, claimed_until = excluded.claimed_until";
  private static final String RELEASE = "DELETE FROM work_claims WHERE kind = ? AND scope = ? AND topic = ? AND token = ?";
  /** Erasure of a scope: its claims go with it. */
  static final String DELETE_SCOPE_CLAIMS = "DELETE FROM work_claims WHERE scope = ?";

  static List<WorkClaim> claim(Session s, WorkClaim.Kind kind, String workerId, List<String> scopes, int limit,
      Duration lease) throws SQLException {
    if (scopes.isEmpty()) {
      return List.of();
    }
    Instant now = Instant.now();
    long nowMillis = now.toEpochMilli();
    Instant until = now.plus(lease);
    long untilMillis = Math.max(until.toEpochMilli(), nowMillis + 1);
    String token = UUID.randomUUID().toString();
    List<String[]> items = new ArrayList<>();
    PreparedStatement select = s.prepare(kind == WorkClaim.Kind.DIRTY_TOPIC ? UNCLAIMED_DIRTY : UNCLAIMED_PENDING);
    select.setString(1, Codec.strings(scopes));
    select.setLong(2, nowMillis);
    select.setInt(3, limit);
    try (ResultSet rs = select.executeQuery()) {
      while (rs.next()) {
        items.add(new String[] {rs.getString(1), kind == WorkClaim.Kind.DIRTY_TOPIC ? rs.getString(2) : ""});
      }
    }
    List<WorkClaim> out = new ArrayList<>();
    PreparedStatement take = s.prepare(TAKE);
    for (String[] item : items) {
      take.setString(1, kind.name());
      take.setString(2, item[0]);
      take.setString(3, item[1]);
      take.setString(4, workerId);
      take.setString(5, token);
      take.setLong(6, untilMillis);
      take.executeUpdate();
      out.add(new WorkClaim(kind, item[0], kind == WorkClaim.Kind.DIRTY_TOPIC ? item[1] : null, workerId, token,
          Instant.ofEpochMilli(untilMillis)));
    }
    return List.copyOf(out);
  }

  static boolean release(Session s, WorkClaim claim) throws SQLException {
    PreparedStatement ps = s.prepare(RELEASE);
    ps.setString(1, claim.kind().name());
    ps.setString(2, claim.scope());
    ps.setString(3, claim.topic() == null ? "" : claim.topic());
    ps.setString(4, claim.token());
    return ps.executeUpdate() > 0;
  }
}
