/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.Change;
import dev.engram.EntryStatus;
import dev.engram.Revision;
import dev.engram.MemoryEntry;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Several JVMs on one database: the guarantees the store exists for. Each test starts its children,
 * waits until every child is connected, releases them together and then checks the database.
 */
@Timeout(300)
class MultiProcessTest {
  private static final long START_MILLIS = 120_000;
  private static final long RUN_MILLIS = 180_000;

  private final TestPostgres pg = TestPostgres.get();

  private List<ChildProcess> startTogether(List<ChildProcess> children) throws Exception {
    for (ChildProcess c : children) {
      c.awaitLine("READY", START_MILLIS);
    }
    for (ChildProcess c : children) {
      c.send("GO");
    }
    for (ChildProcess c : children) {
      assertThat(c.awaitExit(RUN_MILLIS)).as("exit status of %s", c).isZero();
      assertThat(c.linesStartingWith("ERROR")).as(c.name()).isEmpty();
    }
    return children;
  }

  private static void closeAll(List<ChildProcess> children) {
    children.forEach(ChildProcess::close);
  }

  @Test
  void fourProcessesWritingAndCorrectingOneScopeLoseNothingAndReportEveryConflict() throws Exception {
    String schema = pg.newSchema("mp_write");
    String scope = "app/team/shared";
    int ops = 40;
    List<ChildProcess> children = new ArrayList<>();
    try {
      for (int w = 0; w < 4; w++) {
        children.add(ChildProcess.start("writer-" + w, "write", pg.jdbcUrl(), schema, scope, String.valueOf(w),
            String.valueOf(ops)));
      }
      startTogether(children);
    } finally {
      closeAll(children);
    }

    List<String[]> oks = new ArrayList<>();
    List<String[]> conflicts = new ArrayList<>();
    for (ChildProcess c : children) {
      c.linesStartingWith("OK ").forEach(l -> oks.add(l.split(" ")));
      c.linesStartingWith("CONFLICT ").forEach(l -> conflicts.add(l.split(" ")));
    }
    assertThat(oks.size() + conflicts.size()).as("every operation succeeded or conflicted").isEqualTo(4 * ops);

    try (PostgresMemoryStore store = PostgresMemoryStore.builder().dataSource(pg.pool()).schema(schema).build()) {
      long head = store.headRevision(scope);
      List<Long> revisions = oks.stream().map(ok -> Long.parseLong(ok[1])).sorted().toList();
      assertThat(head).as("one revision per successful change, none lost").isEqualTo(oks.size());
      assertThat(revisions).as("revisions handed out").doesNotHaveDuplicates()
          .containsExactlyElementsOf(range(1, head));

      List<Revision> log = store.revisions(scope, 0, 100_000);
      assertThat(log).extracting(Revision::revision).as("gap-free revision log").containsExactlyElementsOf(range(1, head));
      Map<Long, Revision> byNumber = log.stream().collect(Collectors.toMap(Revision::revision, r -> r));
      for (String[] ok : oks) {
        Revision r = byNumber.get(Long.parseLong(ok[1]));
        assertThat(r.changes()).extracting(Change::versionId).as("change set of revision %s", ok[1]).contains(ok[4]);
        if (ok.length > 5) {
          assertThat(Long.parseLong(ok[1])).as("a change made with expectedRevision %s", ok[5])
              .isEqualTo(Long.parseLong(ok[5]) + 1);
        }
      }
      for (String[] conflict : conflicts) {
        assertThat(conflict[3]).isEqualTo("REVISION_CONFLICT");
        assertThat(Long.parseLong(conflict[2])).as("actual revision of a conflict").isGreaterThan(Long.parseLong(conflict[1]));
      }

      List<MemoryEntry> all = store.versionsIn(List.of(scope), EnumSet.allOf(EntryStatus.class));
      long appends = oks.stream().filter(ok -> ok[2].equals("APPEND")).count();
      assertThat(all).as("every version that was reported is stored").hasSize(oks.size());
      Map<String, List<MemoryEntry>> byEntry = all.stream().collect(Collectors.groupingBy(MemoryEntry::entryId));
      assertThat(byEntry).hasSize((int) appends);
      Map<String, Integer> updates = new HashMap<>();
      oks.stream().filter(ok -> ok[2].equals("UPDATE")).forEach(ok -> updates.merge(ok[3], 1, Integer::sum));
      for (Map.Entry<String, List<MemoryEntry>> e : byEntry.entrySet()) {
        List<MemoryEntry> chain = new ArrayList<>(e.getValue());
        chain.sort(Comparator.comparingInt(MemoryEntry::version));
        assertThat(chain).hasSize(1 + updates.getOrDefault(e.getKey(), 0));
        for (int i = 0; i < chain.size(); i++) {
          MemoryEntry v = chain.get(i);
          assertThat(v.version()).isEqualTo(i + 1);
          if (i + 1 < chain.size()) {
            assertThat(v.status()).isEqualTo(EntryStatus.SUPERSEDED);
            assertThat(v.supersededBy()).isEqualTo(chain.get(i + 1).versionId());
            assertThat(chain.get(i + 1).previousVersionId()).isEqualTo(v.versionId());
          } else {
            assertThat(v.status()).isEqualTo(EntryStatus.ACTIVE);
          }
        }
      }
    }
  }

  @Test
  void twoProcessesClaimDisjointTopicsThatTogetherCoverEveryDirtyTopic() throws Exception {
    String schema = pg.newSchema("mp_claim");
    Set<String> dirty = new TreeSet<>();
    try (PostgresMemoryStore store = PostgresMemoryStore.builder().dataSource(pg.pool()).schema(schema).build()) {
      for (int s = 0; s < 6; s++) {
        String scope = "app/user/u" + s;
        List<String> topics = new ArrayList<>();
        for (int t = 0; t < 25; t++) {
          topics.add("topic" + t);
          dirty.add(scope + " topic" + t);
        }
        store.inTransaction(scope, tx -> {
          tx.markTopicsWritten(scope, topics, 1, Instant.now());
          return null;
        });
      }
    }
    List<ChildProcess> children = new ArrayList<>();
    try {
      for (int w = 0; w < 2; w++) {
        children.add(ChildProcess.start("claimer-" + w, "claim", pg.jdbcUrl(), schema, "worker-" + w, "3"));
      }
      startTogether(children);
    } finally {
      closeAll(children);
    }
    List<String> first = claims(children.get(0));
    List<String> second = claims(children.get(1));
    assertThat(first).doesNotHaveDuplicates();
    assertThat(second).doesNotHaveDuplicates();
    Set<String> overlap = new HashSet<>(first);
    overlap.retainAll(second);
    assertThat(overlap).as("topics claimed by both workers").isEmpty();
    Set<String> union = new TreeSet<>(first);
    union.addAll(second);
    assertThat(union).isEqualTo(dirty);
  }

  private static List<String> claims(ChildProcess c) {
    return c.linesStartingWith("CLAIM ").stream().map(l -> l.substring("CLAIM ".length())).toList();
  }

  @Test
  void aClaimWhoseHolderDiesIsClaimableAgainOnceItsLeasePasses() throws Exception {
    String schema = pg.newSchema("mp_lease");
    long leaseMillis = 4_000;
    try (PostgresMemoryStore store = PostgresMemoryStore.builder().dataSource(pg.pool()).schema(schema).build()) {
      store.inTransaction("app/user/u1", tx -> {
        tx.markTopicsWritten("app/user/u1", List.of("billing", "travel", "health"), 1, Instant.now());
        return null;
      });
      ChildProcess holder = ChildProcess.start("holder", "hold", pg.jdbcUrl(), schema, "doomed-worker",
          String.valueOf(leaseMillis));
      List<String> held;
      try {
        holder.awaitLine("READY", START_MILLIS);
        holder.send("GO");
        holder.awaitLine("HOLDING", RUN_MILLIS);
        held = holder.linesStartingWith("CLAIM ");
        holder.kill(30_000);
      } finally {
        holder.close();
      }
      assertThat(held).hasSize(3);
      Instant until = held.stream().map(l -> Instant.parse(l.split(" ")[3])).min(Comparator.naturalOrder()).orElseThrow();

      if (databaseNow().isBefore(until.minusMillis(500))) {
        assertThat(store.claimDirtyTopics("rescuer", 100, Duration.ofMinutes(1)))
            .as("claims of a dead holder before its lease passed").isEmpty();
      }
      List<TopicClaim> rescued = List.of();
      long deadline = System.nanoTime() + Duration.ofMillis(leaseMillis + 30_000).toNanos();
      while (rescued.isEmpty() && System.nanoTime() < deadline) {
        Thread.sleep(100);
        rescued = store.claimDirtyTopics("rescuer", 100, Duration.ofMinutes(1));
      }
      assertThat(rescued).extracting(TopicClaim::topic).containsExactly("billing", "health", "travel");
      assertThat(rescued).allSatisfy(c -> assertThat(c.workerId()).isEqualTo("rescuer"));
      assertThat(databaseNow()).isAfterOrEqualTo(until);
    }
  }

  private Instant databaseNow() throws SQLException {
    try (Connection c = pg.pool().getConnection();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT clock_timestamp()")) {
      rs.next();
      return rs.getObject(1, java.time.OffsetDateTime.class).toInstant();
    }
  }

  /** Captures {@code turns} turns into each scope, through an engine on its own store. */
  private void capture(String schema, List<String> scopes, int turns) {
    try (PostgresMemoryStore store = PostgresMemoryStore.builder().dataSource(pg.pool()).schema(schema).build();
        dev.engram.Engram engram = dev.engram.Engram.builder().borrowedStore(store)
            .reasoner(new dev.engram.reasoner.DeterministicReasoner()).build()) {
      for (String scope : scopes) {
        List<dev.engram.SourceRecord> records = new ArrayList<>();
        for (int i = 0; i < turns; i++) {
          records.add(dev.engram.SourceRecord.of("chat", i % 2 == 0 ? "Ana" : "Ben", "Turn " + i + " in " + scope)
              .id("t" + i));
        }
        engram.captureAll(dev.engram.Grants.of(scope), records);
      }
    }
  }

  /** Each turn of each scope is cited by exactly one entry, and each cursor is at the scope's end. */
  private void assertEveryTurnExtractedOnce(String schema, List<String> scopes, int turns) {
    try (PostgresMemoryStore store = PostgresMemoryStore.builder().dataSource(pg.pool()).schema(schema).build()) {
      for (String scope : scopes) {
        Map<String, Integer> cited = new HashMap<>();
        for (MemoryEntry e : store.versionsIn(List.of(scope), EnumSet.allOf(EntryStatus.class))) {
          assertThat(e.status()).isEqualTo(EntryStatus.ACTIVE);
          e.evidence().forEach(id -> cited.merge(id, 1, Integer::sum));
        }
        assertThat(cited).as(scope).hasSize(turns).allSatisfy((id, n) -> assertThat(n).as(scope + " " + id).isEqualTo(1));
        assertThat(store.sourceState(scope)).as(scope).isEqualTo(new dev.engram.spi.SourceState(turns, turns));
        assertThat(store.headRevision(scope)).as("one revision per window of %s", scope).isEqualTo(turns / 4);
      }
      assertThat(store.claimPendingSources("checker", 100, Duration.ofMinutes(1))).isEmpty();
    }
  }

  private static List<String> lines(List<ChildProcess> children, String prefix) {
    List<String> out = new ArrayList<>();
    for (ChildProcess c : children) {
      c.linesStartingWith(prefix).forEach(l -> out.add(l.substring(prefix.length())));
    }
    return out;
  }

  @Test
  void twoProcessesDrainingThroughClaimsExtractEachWindowExactlyOnce() throws Exception {
    String schema = pg.newSchema("mp_drain");
    List<String> scopes = new ArrayList<>();
    for (int s = 0; s < 6; s++) {
      scopes.add("app/user/u" + s);
    }
    int turns = 12;
    capture(schema, scopes, turns);
    List<ChildProcess> children = new ArrayList<>();
    try {
      for (int w = 0; w < 2; w++) {
        children.add(ChildProcess.start("drainer-" + w, "drain", pg.jdbcUrl(), schema, "worker-" + w));
      }
      startTogether(children);
    } finally {
      closeAll(children);
    }
    List<String> extracted = lines(children, "EXTRACT ");
    assertThat(extracted).as("windows handed to a reasoner").doesNotHaveDuplicates().hasSize(scopes.size() * turns / 4);
    for (String scope : scopes) {
      assertThat(extracted).as(scope).contains(scope + " 1 4", scope + " 5 8", scope + " 9 12");
    }
    int windows = 0;
    int lost = 0;
    for (String f : lines(children, "FLUSH ")) {
      String[] p = f.split(" ");
      windows += Integer.parseInt(p[1]);
      lost += Integer.parseInt(p[3]);
    }
    assertThat(windows).isEqualTo(scopes.size() * turns / 4);
    assertThat(lost).as("a claimed scope is flushed by one worker only").isZero();
    assertEveryTurnExtractedOnce(schema, scopes, turns);
  }

  @Test
  void twoProcessesFlushingOneScopeWithoutClaimsCommitEachWindowOnceAndLoseNone() throws Exception {
    String schema = pg.newSchema("mp_flush");
    String scope = "app/team/shared";
    int turns = 80;
    capture(schema, List.of(scope), turns);
    List<ChildProcess> children = new ArrayList<>();
    try {
      for (int w = 0; w < 2; w++) {
        children.add(ChildProcess.start("flusher-" + w, "flush", pg.jdbcUrl(), schema, "worker-" + w, scope));
      }
      startTogether(children);
    } finally {
      closeAll(children);
    }
    int windows = 0;
    int lost = 0;
    for (String f : lines(children, "FLUSH ")) {
      String[] p = f.split(" ");
      windows += Integer.parseInt(p[1]);
      lost += Integer.parseInt(p[3]);
    }
    assertThat(windows).as("windows committed, by both processes together").isEqualTo(turns / 4);
    assertThat(lines(children, "EXTRACT ")).as("windows extracted, the lost ones included").hasSize(turns / 4 + lost);
    assertEveryTurnExtractedOnce(schema, List.of(scope), turns);
  }

  @Test
  void fourProcessesMigratingOneDatabaseAtOnceApplyEachMigrationExactlyOnce() throws Exception {
    String schema = pg.newSchema("mp_migrate");
    List<ChildProcess> children = new ArrayList<>();
    try {
      for (int w = 0; w < 4; w++) {
        children.add(ChildProcess.start("migrator-" + w, "migrate", pg.jdbcUrl(), schema));
      }
      startTogether(children);
    } finally {
      closeAll(children);
    }
    for (ChildProcess c : children) {
      assertThat(c.linesStartingWith("MIGRATED")).as(c.name()).hasSize(1);
    }
    List<Integer> versions = new ArrayList<>();
    try (Connection c = pg.pool().getConnection();
        Statement st = c.createStatement();
        ResultSet rs = st.executeQuery("SELECT version FROM " + schema + ".engram_schema_history ORDER BY version")) {
      while (rs.next()) {
        versions.add(rs.getInt(1));
      }
    }
    assertThat(versions).containsExactlyElementsOf(Migrations.versions());
  }

  private static List<Long> range(long from, long toInclusive) {
    List<Long> out = new ArrayList<>();
    for (long i = from; i <= toInclusive; i++) {
      out.add(i);
    }
    return out;
  }
}
