/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.Engram;
import dev.engram.Grants;
import dev.engram.WriteOptions;
import dev.engram.reasoner.DeterministicReasoner;
import dev.engram.spi.WorkClaim;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Work claims in the file: two stores on one file (as two processes) share them, and erasure takes them. */
class SqliteWorkClaimsTest {
  @TempDir Path dir;

  @Test
  void twoStoresOnOneFileNeverHoldTheSameItem() {
    Path file = dir.resolve("shared.db");
    try (SqliteMemoryStore a = new SqliteMemoryStore(file); SqliteMemoryStore b = new SqliteMemoryStore(file);
        Engram engram = Engram.builder().borrowedStore(a).reasoner(new DeterministicReasoner()).build()) {
      engram.write(Grants.of("app/u1"), "Likes tea.", WriteOptions.builder().topicsHint("drinks").build());
      List<WorkClaim> held = a.claimDirtyTopics("process-a", List.of("app/u1"), 10, Duration.ofMinutes(5));
      assertThat(held).extracting(WorkClaim::topic).containsExactly("drinks");
      assertThat(b.claimDirtyTopics("process-b", List.of("app/u1"), 10, Duration.ofMinutes(5))).isEmpty();
      assertThat(b.releaseClaim(held.get(0))).as("the token, not the store object, releases").isTrue();
      assertThat(b.claimDirtyTopics("process-b", List.of("app/u1"), 10, Duration.ofMinutes(5)))
          .extracting(WorkClaim::workerId).containsExactly("process-b");
    }
  }

  @Test
  void erasingAScopeErasesItsClaims() throws Exception {
    Path file = dir.resolve("erase.db");
    try (SqliteMemoryStore store = new SqliteMemoryStore(file);
        Engram engram = Engram.builder().borrowedStore(store).reasoner(new DeterministicReasoner()).build()) {
      engram.write(Grants.of("app/u1"), "Likes tea.", WriteOptions.builder().topicsHint("drinks").build());
      engram.write(Grants.of("app/u2"), "Likes coffee.", WriteOptions.builder().topicsHint("drinks").build());
      store.claimDirtyTopics("w", List.of("app/u1", "app/u2"), 10, Duration.ofMinutes(5));
      assertThat(claimRows(file)).isEqualTo(2);
      engram.deleteScope(Grants.of("app/u1"), "app/u1");
      assertThat(claimRows(file)).isEqualTo(1);
    }
  }

  private static int claimRows(Path file) throws Exception {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file); Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT count(*) FROM work_claims")) {
      rs.next();
      return rs.getInt(1);
    }
  }
}
