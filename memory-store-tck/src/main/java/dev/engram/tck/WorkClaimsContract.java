/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.engram.DirtyTopic;
import dev.engram.Engram;
import dev.engram.FlushReport;
import dev.engram.Grants;
import dev.engram.InvalidInputException;
import dev.engram.MaintenanceOptions;
import dev.engram.MaintenanceReport;
import dev.engram.MaintenanceRunner;
import dev.engram.SourceRecord;
import dev.engram.WriteOptions;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.StoreCapability;
import dev.engram.spi.WorkClaim;
import dev.engram.test.ScriptedReasoner;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Work claims ({@link StoreCapability#WORK_CLAIMS}), driven through the SPI: two claimers never get the same
 * item while its lease holds (also when they claim at the same instant), a lease expires and a release ends a
 * claim (only with its token), claims stay in the scopes named, and a maintenance runner skips what another
 * worker holds. Runs on stores declaring the capability.
 */
public abstract class WorkClaimsContract extends ContractSupport {
  private static final String S1 = "app/u1";
  private static final String S2 = "app/u2";
  private static final Duration LONG = Duration.ofMinutes(5);

  private MemoryStore store;
  private Engram engram;
  private final ScriptedReasoner reasoner = new ScriptedReasoner();

  private void open() {
    store = createStore();
    assumeTrue(store.capabilities().contains(StoreCapability.WORK_CLAIMS), "store does not declare WORK_CLAIMS");
    engram = newEngram(store, reasoner, b -> b);
  }

  private void dirty(String scope, String... topics) {
    for (String topic : topics) {
      engram.write(Grants.of(scope), "A note about " + topic + " in " + scope,
          WriteOptions.builder().topicsHint(topic).build());
    }
  }

  private static List<String> items(List<WorkClaim> claims) {
    List<String> out = new ArrayList<>();
    for (WorkClaim c : claims) {
      out.add(c.scope() + (c.topic() == null ? "" : "/" + c.topic()));
    }
    return out;
  }

  @Test
  void twoClaimersNeverGetTheSameTopicWhileTheLeaseHolds() {
    open();
    dirty(S1, "alpha", "beta", "gamma");
    List<WorkClaim> first = store.claimDirtyTopics("w1", List.of(S1), 2, LONG);
    assertThat(items(first)).containsExactly(S1 + "/alpha", S1 + "/beta");
    assertThat(first).allSatisfy(c -> {
      assertThat(c.kind()).isEqualTo(WorkClaim.Kind.DIRTY_TOPIC);
      assertThat(c.workerId()).isEqualTo("w1");
      assertThat(c.claimedUntil()).isAfter(Instant.now().plus(Duration.ofMinutes(4)));
    });
    assertThat(items(store.claimDirtyTopics("w2", List.of(S1), 10, LONG))).containsExactly(S1 + "/gamma");
    assertThat(store.claimDirtyTopics("w3", List.of(S1), 10, LONG)).as("everything is held").isEmpty();
    assertThat(store.claimDirtyTopics("w1", List.of(S1), 10, LONG)).as("also for the holder itself").isEmpty();
  }

  @Test
  void concurrentClaimersGetDisjointClaimsThatCoverEveryItem() throws Exception {
    open();
    List<String> topics = new ArrayList<>();
    for (int i = 0; i < 24; i++) {
      topics.add("t" + (char) ('a' + i));
    }
    dirty(S1, topics.toArray(String[]::new));
    int workers = 6;
    ExecutorService pool = Executors.newFixedThreadPool(workers);
    CountDownLatch start = new CountDownLatch(1);
    try {
      List<Future<List<String>>> results = new ArrayList<>();
      for (int w = 0; w < workers; w++) {
        String worker = "w" + w;
        Callable<List<String>> job = () -> {
          start.await();
          List<String> mine = new ArrayList<>();
          for (List<WorkClaim> got; !(got = store.claimDirtyTopics(worker, List.of(S1), 2, LONG)).isEmpty(); ) {
            mine.addAll(items(got));
          }
          return mine;
        };
        results.add(pool.submit(job));
      }
      start.countDown();
      List<String> all = new ArrayList<>();
      for (Future<List<String>> f : results) {
        all.addAll(f.get(60, TimeUnit.SECONDS));
      }
      assertThat(all).as("no item twice").doesNotHaveDuplicates();
      assertThat(new HashSet<>(all)).hasSize(topics.size());
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void aReleaseEndsTheClaimOnlyWithItsToken() {
    open();
    dirty(S1, "alpha");
    WorkClaim claim = store.claimDirtyTopics("w1", List.of(S1), 1, LONG).get(0);
    WorkClaim forged = new WorkClaim(claim.kind(), claim.scope(), claim.topic(), claim.workerId(), "not-the-token",
        claim.claimedUntil());
    assertThat(store.releaseClaim(forged)).isFalse();
    assertThat(store.claimDirtyTopics("w2", List.of(S1), 1, LONG)).as("still held").isEmpty();
    assertThat(store.releaseClaim(claim)).isTrue();
    assertThat(store.releaseClaim(claim)).as("released already").isFalse();
    assertThat(items(store.claimDirtyTopics("w2", List.of(S1), 1, LONG))).containsExactly(S1 + "/alpha");
  }

  @Test
  void aLeaseExpiresAndTheItemGoesToTheNextClaimer() throws Exception {
    open();
    dirty(S1, "alpha");
    WorkClaim brief = store.claimDirtyTopics("w1", List.of(S1), 1, Duration.ofMillis(200)).get(0);
    List<WorkClaim> taken = List.of();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
    while (taken.isEmpty() && System.nanoTime() < deadline) {
      taken = store.claimDirtyTopics("w2", List.of(S1), 1, LONG);
      if (taken.isEmpty()) {
        Thread.sleep(25);
      }
    }
    assertThat(items(taken)).as("claimable once the lease passed").containsExactly(S1 + "/alpha");
    assertThat(taken.get(0).workerId()).isEqualTo("w2");
    assertThat(store.releaseClaim(brief)).as("the expired claim was taken over: its token no longer releases").isFalse();
    assertThat(store.claimDirtyTopics("w3", List.of(S1), 1, LONG)).as("the new claim holds").isEmpty();
  }

  @Test
  void claimsStayInTheScopesNamed() {
    open();
    dirty(S1, "alpha");
    dirty(S2, "alpha");
    dirty("app", "alpha");
    dirty(S1 + "/child", "alpha");
    assertThat(items(store.claimDirtyTopics("w1", List.of(S1), 100, LONG)))
        .as("neither a sibling, an ancestor nor a descendant").containsExactly(S1 + "/alpha");
    assertThat(items(store.claimDirtyTopics("w2", List.of(S2, "app"), 100, LONG)))
        .as("the same topic in another scope is another item").containsExactly("app/alpha", S2 + "/alpha");
    assertThat(store.claimDirtyTopics("w3", List.of("app/none"), 100, LONG)).isEmpty();
    assertThat(store.claimDirtyTopics("w3", List.of(), 100, LONG)).isEmpty();
  }

  @Test
  void cleanTopicsAreNotClaimed() {
    open();
    dirty(S1, "alpha", "beta");
    store.inTransaction(S1, tx -> {
      tx.markTopicCurated(S1, "alpha", tx.headRevision(S1), null);
      return null;
    });
    assertThat(items(store.claimDirtyTopics("w1", List.of(S1), 100, LONG))).containsExactly(S1 + "/beta");
  }

  @Test
  void scopesWithPendingSourcesAreClaimedOnceAndOnlyWhilePending() {
    open();
    assumeTrue(store.capabilities().contains(StoreCapability.SOURCES), "store does not declare SOURCES");
    engram.capture(Grants.of(S1), SourceRecord.of("s1", "Ana", "We moved the launch to May.").id("r1"));
    engram.capture(Grants.of(S2), SourceRecord.of("s2", "Ben", "The budget is fixed.").id("r2"));
    engram.capture(Grants.of(S1 + "/child"), SourceRecord.of("s3", "Cy", "Nothing new.").id("r3"));
    List<WorkClaim> first = store.claimPendingSources("w1", List.of(S1), 10, LONG);
    assertThat(items(first)).containsExactly(S1);
    assertThat(first.get(0).kind()).isEqualTo(WorkClaim.Kind.PENDING_SOURCES);
    assertThat(first.get(0).topic()).isNull();
    assertThat(store.claimPendingSources("w2", List.of(S1, S2), 10, LONG)).extracting(WorkClaim::scope)
        .containsExactly(S2);
    FlushReport flushed = engram.flush(Grants.of(S1));
    assertThat(flushed.scopes()).contains(S1);
    assertThat(store.releaseClaim(first.get(0))).isTrue();
    assertThat(store.claimPendingSources("w3", List.of(S1), 10, LONG)).as("nothing pending any more").isEmpty();
  }

  @Test
  void badClaimArgumentsAreRefusedByName() {
    open();
    assertThatThrownBy(() -> store.claimDirtyTopics(" ", List.of(S1), 1, LONG))
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("workerId");
    assertThatThrownBy(() -> store.claimDirtyTopics("w", List.of(S1), 0, LONG))
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("limit");
    assertThatThrownBy(() -> store.claimPendingSources("w", List.of(S1), 1, Duration.ZERO))
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("lease");
    assertThatThrownBy(() -> store.claimDirtyTopics("w", List.of("app/../x"), 1, LONG))
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("scopes");
  }

  @Test
  void aMaintenanceRunnerCuratesWhatItClaimsAndSkipsWhatAnotherWorkerHolds() {
    open();
    dirty(S1, "alpha", "beta");
    WorkClaim held = store.claimDirtyTopics("elsewhere", List.of(S1), 1, LONG).get(0);
    assertThat(held.topic()).isEqualTo("alpha");
    try (MaintenanceRunner runner = engram.operator().startMaintenance(List.of(Grants.of(S1)),
        MaintenanceOptions.builder().initialDelay(Duration.ofDays(7)).flush(false).build())) {
      MaintenanceReport report = runner.runNow();
      assertThat(report.claims()).isTrue();
      assertThat(report.failures()).isEmpty();
      assertThat(report.topicsCurated()).extracting(DirtyTopic::topic).containsExactly("beta");
      assertThat(report.topicsClaimedElsewhere()).extracting(DirtyTopic::topic).containsExactly("alpha");
      assertThat(reasoner.curateRequests()).extracting(r -> r.topic()).containsExactly("beta");
      assertThat(store.claimDirtyTopics("w9", List.of(S1), 10, LONG)).as("the runner released nothing it did not"
          + " hold, and beta is clean").isEmpty();
      assertThat(store.releaseClaim(held)).isTrue();
      MaintenanceReport next = runner.runNow();
      assertThat(next.topicsCurated()).extracting(DirtyTopic::topic).containsExactly("alpha");
      assertThat(next.topicsClaimedElsewhere()).isEmpty();
      Set<String> clean = new HashSet<>();
      engram.scan(Grants.of(S1)).forEach(t -> {
        if (!t.hasUncuratedWrites()) {
          clean.add(t.topic());
        }
      });
      assertThat(clean).contains("alpha", "beta");
    }
  }
}
