/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.Engram;
import dev.engram.EntryStatus;
import dev.engram.EntryType;
import dev.engram.Grants;
import dev.engram.MemoryEntry;
import dev.engram.Revision;
import dev.engram.RevisionConflictException;
import dev.engram.WriteOptions;
import dev.engram.WriteResult;
import dev.engram.reasoner.DeterministicReasoner;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;

/**
 * A write transaction on a scope this store wrote last expects the head it left and sends its lock,
 * the check of what it expected and its writes in one round trip; when another process moved the head
 * or holds the content, the transaction runs again the ordinary way and ends exactly as it would have.
 */
class PostgresExpectedHeadTest {
  private static final String SCOPE = "app/u1";
  private static final Grants U1 = Grants.of(SCOPE);

  private final TestPostgres pg = TestPostgres.get();

  private PostgresMemoryStore store(DataSource source, String schema) {
    return PostgresMemoryStore.builder().dataSource(source).schema(schema).build();
  }

  /** Statements executed on connections of {@code source}, each one round trip. */
  static DataSource counting(DataSource source, AtomicInteger executed, AtomicInteger rollbacks) {
    return (DataSource) Proxy.newProxyInstance(DataSource.class.getClassLoader(), new Class<?>[] {DataSource.class},
        (proxy, method, args) -> {
          Object out = invoke(source, method, args);
          if (method.getName().equals("getConnection")) {
            Connection real = (Connection) out;
            return Proxy.newProxyInstance(Connection.class.getClassLoader(), new Class<?>[] {Connection.class},
                (cp, cm, cargs) -> {
                  if (cm.getName().equals("rollback")) {
                    rollbacks.incrementAndGet();
                  }
                  Object made = invoke(real, cm, cargs);
                  if (made instanceof Statement st) {
                    Class<?> type = made instanceof PreparedStatement ? PreparedStatement.class : Statement.class;
                    return Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (sp, sm, sargs) -> {
                      if (sm.getName().startsWith("execute")) {
                        executed.incrementAndGet();
                      }
                      return invoke(st, sm, sargs);
                    });
                  }
                  return made;
                });
          }
          return out;
        });
  }

  private static Object invoke(Object target, java.lang.reflect.Method method, Object[] args) throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }

  @Test
  void aWriteToAScopeThisStoreWroteLastIsOneRoundTrip() {
    String schema = pg.newSchema("expect");
    AtomicInteger executed = new AtomicInteger();
    AtomicInteger rollbacks = new AtomicInteger();
    try (PostgresMemoryStore store = store(counting(pg.pool(), executed, rollbacks), schema);
        Engram engram = Engram.builder().borrowedStore(store).reasoner(new DeterministicReasoner()).build()) {
      WriteOptions general = WriteOptions.builder().topicsHint("general").build();
      executed.set(0);
      assertThat(engram.write(U1, "The first note of a new scope.", general).revision()).isEqualTo(1);
      // a new scope: the head lock with the hash lookup, the new head row, the lookup again under the
      // new row's lock, then the writes with the COMMIT
      assertThat(executed.get()).isEqualTo(4);
      for (int i = 2; i <= 5; i++) {
        executed.set(0);
        WriteResult r = engram.write(U1, "Note number " + i + " of the scope.", general);
        assertThat(r.outcome()).isEqualTo(WriteResult.Outcome.APPENDED);
        assertThat(r.revision()).isEqualTo(i);
        assertThat(executed.get()).isEqualTo(1);
      }
      assertThat(rollbacks.get()).isZero();
      executed.set(0);
      WriteResult again = engram.write(U1, "Note number 3 of the scope.", general);
      assertThat(again.outcome()).isEqualTo(WriteResult.Outcome.DEDUPED);
      assertThat(again.revision()).isEqualTo(5);
      assertThat(store.revisions(SCOPE, 0, 10)).extracting(Revision::revision).containsExactly(1L, 2L, 3L, 4L, 5L);
    }
  }

  @Test
  void writesOfAnotherProcessInBetweenKeepRevisionsGapFreeAndConflictsExact() {
    String schema = pg.newSchema("expect");
    try (PostgresMemoryStore a = store(pg.pool(), schema); PostgresMemoryStore b = store(pg.pool(), schema);
        Engram ea = Engram.builder().borrowedStore(a).reasoner(new DeterministicReasoner()).build();
        Engram eb = Engram.builder().borrowedStore(b).reasoner(new DeterministicReasoner()).build()) {
      assertThat(ea.write(U1, "One from the first process.").revision()).isEqualTo(1);
      assertThat(eb.write(U1, "Two from the second process.").revision()).isEqualTo(2);
      // the first process expects head 1: its lock finds 2, and the write runs again on 2
      WriteResult three = ea.write(U1, "Three from the first process.");
      assertThat(three.outcome()).isEqualTo(WriteResult.Outcome.APPENDED);
      assertThat(three.revision()).isEqualTo(3);
      assertThat(three.entry().createdInRevision()).isEqualTo(3);
      // content the other process wrote meanwhile is found by the dedupe
      WriteResult theirs = eb.write(U1, "Four, written by both.");
      WriteResult mine = ea.write(U1, "Four, written by both.");
      assertThat(mine.outcome()).isEqualTo(WriteResult.Outcome.DEDUPED);
      assertThat(mine.entry()).isEqualTo(theirs.entry());
      assertThat(mine.revision()).isEqualTo(4);
      // the expected revision is compared with the head under the lock, not with the head expected
      assertThat(eb.write(U1, "Five from the second process.").revision()).isEqualTo(5);
      WriteResult six = ea.write(U1, "Six, at revision 5.", WriteOptions.builder().expectedRevision(5).build());
      assertThat(six.revision()).isEqualTo(6);
      assertThat(eb.write(U1, "Seven from the second process.").revision()).isEqualTo(7);
      assertThatThrownBy(() -> ea.write(U1, "Eight, at a stale revision.",
          WriteOptions.builder().expectedRevision(6).build()))
          .isInstanceOfSatisfying(RevisionConflictException.class, e -> assertThat(e.getMessage())
              .contains("is at revision 7, not the expected 6"));

      assertThat(a.revisions(SCOPE, 0, 20)).extracting(Revision::revision)
          .containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L);
      assertThat(a.headRevision(SCOPE)).isEqualTo(7);
      assertThat(ea.list(U1)).extracting(MemoryEntry::content).containsExactlyInAnyOrder("One from the first process.",
          "Two from the second process.", "Three from the first process.", "Four, written by both.",
          "Five from the second process.", "Six, at revision 5.", "Seven from the second process.");
    }
  }

  @Test
  void aHolderCommittedWithoutMovingTheHeadIsFoundUnderTheLock() {
    String schema = pg.newSchema("expect");
    Instant now = Instant.parse("2026-12-01T10:00:00Z");
    try (PostgresMemoryStore a = store(pg.pool(), schema); PostgresMemoryStore b = store(pg.pool(), schema)) {
      a.inTransaction(SCOPE, List.of("h0"), tx -> {
        tx.appendRevision(new Revision(SCOPE, 1, List.of(), now));
        return null;
      });
      MemoryEntry held = new MemoryEntry("e1", "v1", 1, null, SCOPE, "Held content", List.of("general"), EntryType.FACT,
          2, null, List.of(), null, null, List.of(), "h1", EntryStatus.ACTIVE, null, null, now, now, 1);
      b.inTransaction(SCOPE, tx -> {
        tx.insertVersion(held);
        return null;
      });
      AtomicInteger runs = new AtomicInteger();
      Optional<MemoryEntry> found = a.inTransaction(SCOPE, List.of("h1"), tx -> {
        runs.incrementAndGet();
        return tx.findActiveByHash(SCOPE, "h1");
      });
      assertThat(found).contains(held);
      assertThat(runs.get()).isEqualTo(2);
      assertThat(a.headRevision(SCOPE)).isEqualTo(1);
    }
  }

  /**
   * Schema 11 adds the function that locks an expected head: a schema 10 database upgrades, and the
   * function returns the head when it and the hashes are as expected and raises EH001 otherwise.
   */
  @Test
  void theUpgradeToSchema11AddsTheExpectedHeadLock() throws SQLException {
    String schema = pg.newSchema("upgrade");
    pg.execute("CREATE SCHEMA " + schema);
    pg.execute("CREATE TABLE " + schema + ".engram_schema_history (version integer PRIMARY KEY,"
        + " script text NOT NULL, installed_at timestamptz NOT NULL DEFAULT now())");
    List<String> scripts = PostgresMemoryStore.migrationScripts(schema, "engram_");
    int before = 10;
    assertThat(scripts).hasSizeGreaterThan(before);
    for (int v = 1; v <= before; v++) {
      pg.execute(scripts.get(v - 1));
      pg.execute("INSERT INTO " + schema + ".engram_schema_history (version, script) VALUES (" + v + ", 'earlier')");
    }
    pg.execute("INSERT INTO " + schema + ".engram_scope_heads (scope, head) VALUES ('app/u1', 3)");
    pg.execute("INSERT INTO " + schema + ".engram_versions (version_id, entry_id, version, scope, content, topics,"
        + " type, priority, glossary, evidence, content_hash, status, created_at, updated_at, created_in_revision,"
        + " search) VALUES ('v1', 'e1', 1, 'app/u1', 'Old fact', '{general}', 'fact', 2, '{}', '{}', 'h1', 'ACTIVE',"
        + " '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', 3, ''::tsvector)");
    pg.execute("INSERT INTO " + schema + ".engram_versions (version_id, entry_id, version, scope, content, topics,"
        + " type, priority, glossary, evidence, content_hash, status, created_at, updated_at, created_in_revision,"
        + " search) VALUES ('v2', 'e2', 1, 'app/u1', 'Retired fact', '{general}', 'fact', 2, '{}', '{}', 'h2',"
        + " 'RETIRED', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', 3, ''::tsvector)");

    try (PostgresMemoryStore store = store(pg.pool(), schema);
        Engram engram = Engram.builder().borrowedStore(store).reasoner(new DeterministicReasoner()).build()) {
      assertThat(pg.queryInts("SELECT version FROM " + schema + ".engram_schema_history ORDER BY version"))
          .hasSize(Migrations.versions().size()).contains(11);
      String lock = "SELECT " + schema + ".engram_lock_expected_head";
      assertThat(pg.queryInts(lock + "('app/u1', 3, '{h2,h9}')::int")).containsExactly(3);
      assertThat(pg.queryInts(lock + "('app/u1', 3, '{h2}')::int")).containsExactly(3);
      assertThat(pg.queryInts(lock + "('app/u1', 3, '{}')::int")).containsExactly(3);
      for (String call : List.of("('app/u1', 2, '{h9}')", "('app/u1', 3, '{h1}')", "('app/u1', 3, '{h9,h1}')",
          "('app/u9', 0, '{}')")) {
        try (Connection c = pg.pool().getConnection(); Statement st = c.createStatement()) {
          assertThatThrownBy(() -> st.execute(lock + call)).isInstanceOfSatisfying(SQLException.class,
              e -> assertThat(e.getSQLState()).as(call).isEqualTo("EH001"));
        }
      }
      WriteResult first = engram.write(U1, "A fact after the upgrade.");
      assertThat(first.revision()).isEqualTo(4);
      assertThat(engram.write(U1, "Another fact after the upgrade.").revision()).isEqualTo(5);
      assertThat(engram.write(U1, "A fact after the upgrade.").outcome()).isEqualTo(WriteResult.Outcome.DEDUPED);
      assertThat(store.headRevision(SCOPE)).isEqualTo(5);
    }
  }
}
