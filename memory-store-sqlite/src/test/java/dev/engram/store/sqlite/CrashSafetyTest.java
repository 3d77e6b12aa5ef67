/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.EntryStatus;
import dev.engram.MemoryEntry;
import dev.engram.Revision;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A child JVM writes continuously and is killed with SIGKILL mid-stream, several times. Every write
 * it acknowledged must survive, the file must pass SQLite's integrity check, and no change may be
 * half there.
 */
class CrashSafetyTest {
  private static final Duration LINE_TIMEOUT = Duration.ofSeconds(60);

  @TempDir Path dir;

  @Test
  @Timeout(240)
  void everyAcknowledgedWriteSurvivesSigkillAndNothingIsHalfWritten() throws Exception {
    Path db = dir.resolve("crash.db");
    Random random = new Random();
    Map<String, String> writes = new LinkedHashMap<>();
    List<String> correctedVersions = new ArrayList<>();
    for (int round = 0; round < 4; round++) {
      int acknowledgements = 40 + random.nextInt(160);
      try (ChildJvm child = ChildJvm.start(CrashWriter.class, dir, db.toString(), String.valueOf(round))) {
        assertThat(child.nextLine(LINE_TIMEOUT)).as(child.stderr()).isEqualTo("READY");
        int seen = 0;
        while (seen < acknowledgements) {
          String line = child.nextLine(LINE_TIMEOUT);
          assertThat(line).as("child ended early: " + child.stderr()).isNotNull();
          seen += record(line, writes, correctedVersions);
        }
        child.kill();
        for (String line = child.nextLine(LINE_TIMEOUT); line != null; line = child.nextLine(LINE_TIMEOUT)) {
          record(line, writes, correctedVersions);
        }
      }
      verify(db, writes, correctedVersions);
    }
    assertThat(writes).hasSizeGreaterThan(100);
    assertThat(correctedVersions).isNotEmpty();
  }

  private static int record(String line, Map<String, String> writes, List<String> corrected) {
    String[] parts = line.split(" ");
    if (parts[0].equals("W")) {
      writes.put(parts[1], parts[2]);
      return 1;
    }
    if (parts[0].equals("C")) {
      corrected.add(parts[2]);
      return 1;
    }
    throw new AssertionError("unexpected line from the child: " + line);
  }

  private static void verify(Path db, Map<String, String> writes, List<String> correctedVersions) throws SQLException {
    try (SqliteMemoryStore store = new SqliteMemoryStore(db)) {
      for (Map.Entry<String, String> w : writes.entrySet()) {
        assertThat(store.versions(w.getKey())).as("acknowledged write " + w.getKey())
            .extracting(MemoryEntry::versionId).contains(w.getValue());
      }
      for (String versionId : correctedVersions) {
        assertThat(store.version(versionId)).as("acknowledged correction " + versionId).isPresent();
      }
      long head = store.headRevision("app/crash");
      List<Revision> revisions = store.revisions("app/crash", 0, Integer.MAX_VALUE);
      assertThat(revisions).hasSize((int) head);
      for (int i = 0; i < revisions.size(); i++) {
        assertThat(revisions.get(i).revision()).isEqualTo(i + 1);
        revisions.get(i).changes().forEach(c -> {
          if (c.versionId() != null) {
            assertThat(store.version(c.versionId())).as("version named by revision").isPresent();
          }
        });
      }
      for (MemoryEntry v : store.versionsIn(List.of("app/crash"), java.util.EnumSet.allOf(EntryStatus.class))) {
        assertThat(v.createdInRevision()).isBetween(1L, head);
      }
    }
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement s = c.createStatement()) {
      assertThat(single(s, "PRAGMA integrity_check")).isEqualTo("ok");
      assertThat(single(s, "SELECT count(*) FROM pragma_foreign_key_check")).isEqualTo("0");
      s.execute("INSERT INTO versions_fts (versions_fts) VALUES ('integrity-check')");
      assertThat(single(s, "SELECT count(*) FROM versions v WHERE NOT EXISTS (SELECT 1 FROM events e"
          + " WHERE e.entry_id = v.entry_id AND json_extract(e.after, '$.versionId') = v.version_id)"))
          .as("versions without the event that made them").isEqualTo("0");
      assertThat(single(s, "SELECT count(*) FROM events e WHERE NOT EXISTS (SELECT 1 FROM versions v"
          + " WHERE v.version_id = json_extract(e.after, '$.versionId'))"))
          .as("events without their version").isEqualTo("0");
      assertThat(single(s, "SELECT count(*) FROM versions v WHERE v.created_in_revision NOT IN"
          + " (SELECT revision FROM revisions r WHERE r.scope = v.scope)"))
          .as("versions without their revision").isEqualTo("0");
      assertThat(single(s, "SELECT count(*) FROM version_topics t WHERE NOT EXISTS"
          + " (SELECT 1 FROM versions v WHERE v.version_id = t.version_id)"))
          .as("topic rows of missing versions").isEqualTo("0");
      assertThat(single(s, "SELECT count(*) FROM topics p WHERE NOT EXISTS"
          + " (SELECT 1 FROM version_topics t WHERE t.scope = p.scope AND t.topic = p.topic)"))
          .as("topic bookkeeping without a version").isEqualTo("0");
      assertThat(single(s, "SELECT count(*) FROM (SELECT scope, topic, count(*) n FROM version_topics"
          + " WHERE active = 1 GROUP BY scope, topic) a FULL JOIN topic_counts c USING (scope, topic)"
          + " WHERE a.n IS NOT c.active_count"))
          .as("active counts out of step").isEqualTo("0");
      assertThat(single(s, "SELECT count(*) FROM versions_fts"))
          .as("full-text rows").isEqualTo(single(s, "SELECT count(*) FROM versions WHERE status = 'ACTIVE'"));
      assertThat(single(s, "SELECT count(*) FROM revisions WHERE scope = 'app/crash'"))
          .as("revisions without gaps").isEqualTo(single(s, "SELECT max(revision) FROM revisions WHERE scope = 'app/crash'"));
    }
  }

  private static String single(Statement s, String sql) throws SQLException {
    try (ResultSet rs = s.executeQuery(sql)) {
      assertThat(rs.next()).isTrue();
      return rs.getString(1);
    }
  }
}
