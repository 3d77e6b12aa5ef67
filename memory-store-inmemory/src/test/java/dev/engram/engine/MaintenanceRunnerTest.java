/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.DirtyTopic;
import dev.engram.Engram;
import dev.engram.ErrorCode;
import dev.engram.FlushOptions;
import dev.engram.Grants;
import dev.engram.InvalidInputException;
import dev.engram.MaintenanceOptions;
import dev.engram.MaintenanceReport;
import dev.engram.MaintenanceRunner;
import dev.engram.SourceRecord;
import dev.engram.TopicSummary;
import dev.engram.WriteOptions;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.WorkClaim;
import dev.engram.store.inmemory.InMemoryMemoryStore;
import dev.engram.tck.FaultInjectingStore;
import dev.engram.test.ScriptedReasoner;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The maintenance runner on a scheduler the test fires by hand: what a run curates and flushes, what it
 * reports and logs, that a failure stays in its run and scope, and who stops what on close.
 */
class MaintenanceRunnerTest extends EngineRules {
  private static final String S1 = "app/u1";
  private static final String S2 = "app/u2";

  private final ManualScheduler scheduler = new ManualScheduler();
  private final List<MaintenanceReport> reports = new CopyOnWriteArrayList<>();
  private final ScriptedReasoner reasoner = new ScriptedReasoner();
  private final MemoryStore store = new InMemoryMemoryStore();

  private MaintenanceOptions.Builder options() {
    return MaintenanceOptions.builder().scheduler(scheduler).listener(reports::add)
        .interval(Duration.ofMinutes(10)).initialDelay(Duration.ofMinutes(1));
  }

  private Engram engram() {
    return newEngram(store, reasoner, b -> b);
  }

  private static void note(Engram engram, String scope, String topic) {
    engram.write(Grants.of(scope), "A note on " + topic + " in " + scope, WriteOptions.builder().topicsHint(topic).build());
  }

  private static void turn(Engram engram, String scope, String id) {
    engram.capture(Grants.of(scope), SourceRecord.of("s-" + id, "Ana", "We agreed on plan " + id + ".").id(id));
  }

  private static List<String> dirtyTopics(Engram engram, String scope) {
    return engram.scan(Grants.of(scope)).stream().filter(TopicSummary::hasUncuratedWrites).map(TopicSummary::topic)
        .toList();
  }

  @Test
  void eachScheduledRunCuratesAndFlushesTheGrantsAndReportsToTheListener() {
    Engram engram = engram();
    note(engram, S1, "travel");
    note(engram, S2, "food");
    turn(engram, S1, "r1");
    MaintenanceRunner runner = engram.operator().startMaintenance(List.of(Grants.of(S1), Grants.of(S2)),
        options().workerId("runner-a").build());

    ManualScheduler.Task task = scheduler.only();
    assertThat(task.initialDelayNanos).isEqualTo(Duration.ofMinutes(1).toNanos());
    assertThat(task.delayNanos).isEqualTo(Duration.ofMinutes(10).toNanos());
    assertThat(reports).as("nothing runs before the scheduler fires").isEmpty();

    scheduler.fire();
    assertThat(reports).hasSize(1);
    MaintenanceReport first = reports.get(0);
    assertThat(first.run()).isEqualTo(1);
    assertThat(first.workerId()).isEqualTo("runner-a").isEqualTo(runner.workerId());
    assertThat(first.claims()).isTrue();
    assertThat(first.failures()).isEmpty();
    assertThat(first.topicsCurated()).extracting(DirtyTopic::scope, DirtyTopic::topic)
        .containsExactlyInAnyOrder(org.assertj.core.groups.Tuple.tuple(S1, "travel"),
            org.assertj.core.groups.Tuple.tuple(S2, "food"));
    assertThat(first.scopesFlushed()).containsExactly(S1);
    assertThat(first.windowsFlushed()).isEqualTo(1);
    assertThat(first.idle()).isFalse();
    assertThat(engram.sources(Grants.of(S1), dev.engram.SourceQuery.defaults())).hasSize(1);
    assertThat(dirtyTopics(engram, S1)).as("the flush's entry is new work for the next run").contains("conversation");

    scheduler.fire();
    MaintenanceReport second = reports.get(1);
    assertThat(second.run()).isEqualTo(2);
    assertThat(second.topicsCurated()).extracting(DirtyTopic::topic).containsExactly("conversation");
    assertThat(second.windowsFlushed()).isZero();

    scheduler.fire();
    assertThat(reports.get(2).idle()).isTrue();
    assertThat(dirtyTopics(engram, S1)).isEmpty();
    assertThat(dirtyTopics(engram, S2)).isEmpty();
  }

  @Test
  void aFailureStaysInItsScopeAndItsRunAndLaterRunsHappen() {
    Engram engram = engram();
    note(engram, S1, "travel");
    note(engram, S2, "food");
    turn(engram, S2, "r1");
    reasoner.onCurate(request -> {
      if (request.scope().equals(S1)) {
        throw new IllegalStateException("model endpoint down");
      }
      return List.of();
    });
    reasoner.onExtract(request -> {
      throw new IllegalStateException("extraction endpoint down");
    });
    AtomicReference<RuntimeException> listenerFails = new AtomicReference<>(new IllegalStateException("listener bug"));
    engram.operator().startMaintenance(List.of(Grants.of(S1), Grants.of(S2)), options().listener(r -> {
      reports.add(r);
      RuntimeException e = listenerFails.getAndSet(null);
      if (e != null) {
        throw e;
      }
    }).build());

    scheduler.fire();
    MaintenanceReport failed = reports.get(0);
    assertThat(failed.failures()).extracting(MaintenanceReport.Failure::task, MaintenanceReport.Failure::scope,
        MaintenanceReport.Failure::code).containsExactly(
            org.assertj.core.groups.Tuple.tuple(MaintenanceReport.Task.CURATE, S1, ErrorCode.REASONER_FAILED),
            org.assertj.core.groups.Tuple.tuple(MaintenanceReport.Task.FLUSH, S2, ErrorCode.REASONER_FAILED));
    assertThat(failed.failures().get(1).message()).contains("extraction endpoint down");
    assertThat(failed.topicsCurated()).as("the other scope was curated in the same run")
        .extracting(DirtyTopic::scope).containsExactly(S2);
    assertThat(scheduler.only().isCancelled()).as("neither the failures nor the listener's exception stop the"
        + " schedule").isFalse();
    assertThat(scheduler.only().failure).isNull();
    assertThat(dirtyTopics(engram, S1)).containsExactly("travel");
    List<WorkClaim> probe = store.claimDirtyTopics("probe", List.of(S1), 10, Duration.ofMinutes(1));
    assertThat(probe).as("the failed scope's claims were released").hasSize(1);
    probe.forEach(store::releaseClaim);

    // the model comes back: the next run does what the failed one could not
    reasoner.onCurate(request -> List.of());
    reasoner.onExtract(new dev.engram.reasoner.DeterministicReasoner()::extract);
    scheduler.fire();
    MaintenanceReport recovered = reports.get(1);
    assertThat(recovered.failures()).isEmpty();
    assertThat(recovered.topicsCurated()).extracting(DirtyTopic::scope, DirtyTopic::topic)
        .contains(org.assertj.core.groups.Tuple.tuple(S1, "travel"));
    assertThat(recovered.scopesFlushed()).containsExactly(S2);
  }

  @Test
  void workAnotherWorkerHoldsIsSkippedAndReported() {
    Engram engram = engram();
    note(engram, S1, "travel");
    note(engram, S1, "food");
    turn(engram, S1, "r1");
    turn(engram, S2, "r2");
    List<WorkClaim> heldTopics = store.claimDirtyTopics("other-process", List.of(S1), 1, Duration.ofMinutes(5));
    List<WorkClaim> heldScopes = store.claimPendingSources("other-process", List.of(S1), 1, Duration.ofMinutes(5));
    MaintenanceRunner runner = engram.operator().startMaintenance(List.of(Grants.of("app/u1"), Grants.of(S2)),
        options().build());

    MaintenanceReport report = runner.runNow();
    assertThat(reports).containsExactly(report);
    assertThat(report.topicsClaimedElsewhere()).extracting(DirtyTopic::topic).containsExactly("food");
    assertThat(report.topicsCurated()).extracting(DirtyTopic::topic).containsExactly("travel");
    assertThat(report.scopesClaimedElsewhere()).containsExactly(S1);
    assertThat(report.scopesFlushed()).containsExactly(S2);
    assertThat(reasoner.curateRequests()).extracting(r -> r.topic()).containsExactly("travel");
    assertThat(heldTopics).allSatisfy(c -> assertThat(store.releaseClaim(c)).as("still the other worker's").isTrue());
    assertThat(heldScopes).allSatisfy(c -> assertThat(store.releaseClaim(c)).isTrue());
  }

  @Test
  void withoutWorkClaimsTheRunnerWorksDirectlyAndSaysSo() {
    MemoryStore bare = new FaultInjectingStore(new InMemoryMemoryStore());
    assertThat(bare.capabilities()).doesNotContain(dev.engram.spi.StoreCapability.WORK_CLAIMS);
    Engram engram = newEngram(bare, reasoner, b -> b);
    note(engram, S1, "travel");
    turn(engram, S1, "r1");
    MaintenanceRunner runner = engram.operator().startMaintenance(List.of(Grants.of(S1)), options().build());
    MaintenanceReport report = runner.runNow();
    assertThat(report.claims()).isFalse();
    assertThat(report.failures()).isEmpty();
    assertThat(report.topicsCurated()).extracting(DirtyTopic::topic).containsExactly("travel");
    assertThat(report.windowsFlushed()).isEqualTo(1);
  }

  @Test
  void tasksCanBeTurnedOffAndFlushOptionsApply() {
    Engram engram = engram();
    note(engram, S1, "travel");
    for (int i = 0; i < 5; i++) {
      turn(engram, S1, "r" + i);
    }
    MaintenanceRunner runner = engram.operator().startMaintenance(List.of(Grants.of(S1)), options().curate(false)
        .flushOptions(FlushOptions.builder().windowRecords(2).maxWindows(1).build()).build());
    MaintenanceReport report = runner.runNow();
    assertThat(report.curations()).isEmpty();
    assertThat(report.windowsFlushed()).as("one window of two records per call").isEqualTo(1);
    assertThat(dirtyTopics(engram, S1)).contains("travel");
    assertThat(runner.runNow().windowsFlushed()).isEqualTo(1);
  }

  @Test
  void closeCancelsTheTaskButLeavesTheCallersScheduler() {
    Engram engram = engram();
    MaintenanceRunner runner = engram.operator().startMaintenance(List.of(Grants.of(S1)), options().build());
    runner.close();
    runner.close();
    assertThat(runner.isClosed()).isTrue();
    assertThat(scheduler.only().isCancelled()).isTrue();
    assertThat(scheduler.isShutdown()).as("the scheduler is the caller's").isFalse();
    assertThat(scheduler.fire()).isZero();
    assertThat(reports).isEmpty();
    assertThatThrownBy(runner::runNow).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
  }

  @Test
  void closingTheEngineClosesItsRunners() {
    Engram engram = engram();
    MaintenanceRunner runner = engram.operator().startMaintenance(List.of(Grants.of(S1)), options().build());
    engram.close();
    assertThat(runner.isClosed()).isTrue();
    assertThat(scheduler.only().isCancelled()).isTrue();
    assertThatThrownBy(() -> engram.operator().startMaintenance(Grants.of(S1)))
        .isInstanceOf(dev.engram.StoreException.class);
  }

  @Test
  void withoutASchedulerTheRunnerRunsOnADaemonThreadOfItsOwnAndStopsIt() throws Exception {
    Engram engram = engram();
    note(engram, S1, "travel");
    CountDownLatch ran = new CountDownLatch(1);
    AtomicReference<Thread> thread = new AtomicReference<>();
    MaintenanceRunner runner = engram.operator().startMaintenance(List.of(Grants.of(S1)),
        MaintenanceOptions.builder().initialDelay(Duration.ZERO).interval(Duration.ofDays(7)).listener(r -> {
          reports.add(r);
          thread.set(Thread.currentThread());
          ran.countDown();
        }).build());
    assertThat(ran.await(30, TimeUnit.SECONDS)).as("the first run happened").isTrue();
    assertThat(thread.get().getName()).startsWith("engram-maintenance-");
    assertThat(thread.get().isDaemon()).isTrue();
    assertThat(reports.get(0).topicsCurated()).extracting(DirtyTopic::topic).containsExactly("travel");
    runner.close();
    thread.get().join(TimeUnit.SECONDS.toMillis(30));
    assertThat(thread.get().isAlive()).as("its own thread ends on close").isFalse();
  }

  @Test
  void badOptionsAndGrantsAreRefusedByName() {
    assertThatThrownBy(() -> MaintenanceOptions.builder().interval(Duration.ZERO).build())
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("interval");
    assertThatThrownBy(() -> MaintenanceOptions.builder().initialDelay(Duration.ofSeconds(-1)).build())
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("initialDelay");
    assertThatThrownBy(() -> MaintenanceOptions.builder().curate(false).flush(false).build())
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("curate");
    assertThatThrownBy(() -> MaintenanceOptions.builder().claimLimit(0).build())
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("claimLimit");
    assertThatThrownBy(() -> MaintenanceOptions.builder().lease(Duration.ZERO).build())
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("lease");
    assertThatThrownBy(() -> MaintenanceOptions.builder().workerId(" ").build())
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("workerId");
    MaintenanceOptions defaults = MaintenanceOptions.defaults();
    assertThat(defaults.interval()).isEqualTo(Duration.ofMinutes(5));
    assertThat(defaults.initialDelay()).isEqualTo(defaults.interval());
    assertThat(defaults.lease()).isEqualTo(Duration.ofMinutes(10));
    assertThat(defaults.scheduler()).isNull();
    assertThat(defaults.toBuilder().build()).isEqualTo(defaults);
    Engram engram = engram();
    assertThatThrownBy(() -> engram.operator().startMaintenance(List.of(), options().build()))
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("grants");
    assertThatThrownBy(() -> engram.operator().startMaintenance(List.of(Grants.of("app/*")), options().build()))
        .isInstanceOf(dev.engram.MemoryException.class);
    assertThat(scheduler.tasks).as("nothing was scheduled for refused starts").isEmpty();
  }
}
