/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.sqlite;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.Change;
import dev.engram.ChangeKind;
import dev.engram.Engram;
import dev.engram.EntryStatus;
import dev.engram.EntryType;
import dev.engram.Grants;
import dev.engram.MemoryEntry;
import dev.engram.Revision;
import dev.engram.WriteOptions;
import dev.engram.WriteResult;
import dev.engram.reasoner.DeterministicReasoner;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Group commit: concurrent transactions of one process share one SQLite commit, each isolated in its
 * own savepoint, each caller answered after that commit.
 */
class GroupCommitTest {
  private static final long TIMEOUT_SECONDS = 60;

  @TempDir Path dir;

  private static MemoryEntry version(String scope, String content, long revision) {
    Instant now = Instant.parse("2026-12-01T10:00:00Z");
    String id = java.util.UUID.randomUUID().toString();
    return new MemoryEntry(id, id + "-v1", 1, null, scope, content, List.of("general"), EntryType.FACT, 2, null,
        List.of(), null, null, List.of(), "hash of " + content, EntryStatus.ACTIVE, null,
        null, now, now, revision);
  }

  /** The store transaction of one append: version, revision, topic mark. */
  private static String append(SqliteMemoryStore store, String scope, String content, boolean failAtEnd) {
    return store.inTransaction(scope, tx -> {
      long next = tx.headRevision(scope) + 1;
      MemoryEntry v = version(scope, content, next);
      tx.insertVersion(v);
      tx.appendRevision(new Revision(scope, next, List.of(new Change(ChangeKind.APPEND, v.entryId(), v.versionId())),
          v.createdAt()));
      tx.markTopicsWritten(scope, v.topics(), next, v.createdAt());
      if (failAtEnd) {
        throw new IllegalArgumentException("work of " + content + " refused");
      }
      return v.entryId();
    });
  }

  private static void awaitQueued(SqliteMemoryStore store, int n) throws InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
    while (store.queuedTransactions() < n) {
      assertThat(System.nanoTime()).as("%d transactions queued", n).isLessThan(deadline);
      Thread.sleep(2);
    }
  }

  @Test
  void transactionsThatArriveDuringACommitShareTheNextOneAndAFailingOneIsRolledBackAlone() throws Exception {
    Path db = dir.resolve("group.db");
    ExecutorService pool = Executors.newFixedThreadPool(5);
    try (SqliteMemoryStore store = new SqliteMemoryStore(db)) {
      CountDownLatch leaderInside = new CountDownLatch(1);
      CountDownLatch release = new CountDownLatch(1);
      long commitsBefore = store.commitCount();
      Future<String> leader = pool.submit(() -> store.inTransaction("app/user/a", tx -> {
        leaderInside.countDown();
        try {
          release.await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          throw new IllegalStateException(e);
        }
        long next = tx.headRevision("app/user/a") + 1;
        MemoryEntry v = version("app/user/a", "leader", next);
        tx.insertVersion(v);
        tx.appendRevision(new Revision("app/user/a", next,
            List.of(new Change(ChangeKind.APPEND, v.entryId(), v.versionId())), v.createdAt()));
        return v.entryId();
      }));
      assertThat(leaderInside.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).isTrue();
      // while the leader holds the writer connection, four transactions queue up; one of them fails
      List<Future<String>> followers = new ArrayList<>();
      followers.add(pool.submit(() -> append(store, "app/user/b", "first follower", false)));
      awaitQueued(store, 1);
      followers.add(pool.submit(() -> append(store, "app/user/b", "refused follower", true)));
      awaitQueued(store, 2);
      followers.add(pool.submit(() -> append(store, "app/user/b", "third follower", false)));
      awaitQueued(store, 3);
      followers.add(pool.submit(() -> append(store, "app/user/c", "fourth follower", false)));
      awaitQueued(store, 4);
      release.countDown();

      String leaderId = leader.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
      String first = followers.get(0).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
      Throwable refused = null;
      try {
        followers.get(1).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
      } catch (java.util.concurrent.ExecutionException e) {
        refused = e.getCause();
      }
      String third = followers.get(2).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
      String fourth = followers.get(3).get(TIMEOUT_SECONDS, TimeUnit.SECONDS);

      assertThat(refused).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("refused follower");
      // the leader's commit, then one commit for the four that queued behind it
      assertThat(store.commitCount() - commitsBefore).isEqualTo(2);
      assertThat(store.versionsIn(List.of("app/user/b"), java.util.EnumSet.allOf(EntryStatus.class)))
          .extracting(MemoryEntry::content).containsExactlyInAnyOrder("first follower", "third follower");
      // the refused one's revision was rolled back with it, so the third follower took revision 2
      assertThat(store.revisions("app/user/b", 0, 10)).extracting(Revision::revision).containsExactly(1L, 2L);
      assertThat(store.headRevision("app/user/c")).isEqualTo(1);
      assertThat(store.topics(List.of("app/user/b"))).singleElement()
          .satisfies(t -> assertThat(t.lastWriteRevision()).isEqualTo(2));
      assertThat(List.of(leaderId, first, third, fourth)).doesNotHaveDuplicates();
    } finally {
      pool.shutdownNow();
    }
    try (SqliteMemoryStore reopened = new SqliteMemoryStore(db)) {
      assertThat(reopened.headRevision("app/user/a")).isEqualTo(1);
      assertThat(reopened.headRevision("app/user/b")).isEqualTo(2);
      assertThat(reopened.headRevision("app/user/c")).isEqualTo(1);
    }
  }

  @Test
  void concurrentWritersKeepRevisionsGapFreeAndEveryAcknowledgedWriteSurvivesReopening() throws Exception {
    Path db = dir.resolve("writers.db");
    int threads = 8;
    int writes = 40;
    Map<String, String> acknowledged = new ConcurrentHashMap<>();
    try (SqliteMemoryStore store = new SqliteMemoryStore(db);
        Engram engram = Engram.builder().store(store).reasoner(new DeterministicReasoner()).build()) {
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      CountDownLatch start = new CountDownLatch(1);
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        done.add(pool.submit(() -> {
          start.await();
          for (int i = 0; i < writes; i++) {
            // half the threads share one scope, the others have their own
            Grants g = Grants.of(thread % 2 == 0 ? "app/user/shared" : "app/user/t" + thread);
            String content = "Thread " + thread + " fact " + i;
            WriteResult r = engram.write(g, content, WriteOptions.builder().topicsHint("facts").build());
            assertThat(r.outcome()).isEqualTo(WriteResult.Outcome.APPENDED);
            acknowledged.put(r.entry().entryId(), content);
          }
          return null;
        }));
      }
      start.countDown();
      for (Future<?> f : done) {
        f.get(120, TimeUnit.SECONDS);
      }
      pool.shutdown();
    }
    assertThat(acknowledged).hasSize(threads * writes);
    try (SqliteMemoryStore reopened = new SqliteMemoryStore(db)) {
      for (Map.Entry<String, String> e : acknowledged.entrySet()) {
        assertThat(reopened.versions(e.getKey())).singleElement()
            .satisfies(v -> assertThat(v.content()).isEqualTo(e.getValue()));
      }
      List<Revision> shared = reopened.revisions("app/user/shared", 0, 1000);
      assertThat(shared).extracting(Revision::revision)
          .containsExactlyElementsOf(LongStream.rangeClosed(1, threads / 2 * writes).boxed().toList());
      for (int t = 1; t < threads; t += 2) {
        assertThat(reopened.revisions("app/user/t" + t, 0, 1000)).extracting(Revision::revision)
            .containsExactlyElementsOf(LongStream.rangeClosed(1, writes).boxed().toList());
      }
    }
  }
}
