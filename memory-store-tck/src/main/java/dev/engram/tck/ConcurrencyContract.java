/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.tck;

import static org.assertj.core.api.Assertions.assertThat;

import dev.engram.Change;
import dev.engram.ChangeKind;
import dev.engram.ChangeOptions;
import dev.engram.Engram;
import dev.engram.EntryStatus;
import dev.engram.Grants;
import dev.engram.ListOptions;
import dev.engram.MemoryEntry;
import dev.engram.Revision;
import dev.engram.RevisionConflictException;
import dev.engram.WriteOptions;
import dev.engram.WriteResult;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.IntFunction;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Concurrency: many threads on one engine. Writes to one scope are serialized into gap-free
 * revisions without losing any; optimistic concurrency has exactly one winner per revision; identical
 * concurrent writes append once; scopes do not interfere; readers never see a half-applied change.
 */
public abstract class ConcurrencyContract extends ContractSupport {
  private static final int THREADS = 8;
  private static final int WRITES_PER_THREAD = 250;
  private static final long TIMEOUT_SECONDS = 120;

  private ExecutorService executor;

  @BeforeEach
  void startExecutor() {
    executor = Executors.newFixedThreadPool(THREADS * 2);
  }

  @AfterEach
  void stopExecutor() throws InterruptedException {
    executor.shutdownNow();
    assertThat(executor.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS)).as("worker threads stopped").isTrue();
  }

  /** What one task did: its value, or what it threw. */
  record Outcome<T>(@Nullable T value, @Nullable Throwable error) {
    boolean ok() {
      return error == null;
    }
  }

  /** Runs {@code tasks} tasks released together by one latch, and waits (bounded) for all of them. */
  private <T> List<Outcome<T>> together(int tasks, IntFunction<Callable<T>> task) {
    CountDownLatch ready = new CountDownLatch(tasks);
    CountDownLatch start = new CountDownLatch(1);
    List<Future<T>> futures = new ArrayList<>();
    for (int i = 0; i < tasks; i++) {
      Callable<T> work = task.apply(i);
      futures.add(executor.submit(() -> {
        ready.countDown();
        if (!start.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
          throw new TimeoutException("start latch was not released");
        }
        return work.call();
      }));
    }
    try {
      assertThat(ready.await(TIMEOUT_SECONDS, TimeUnit.SECONDS)).as("all tasks ready").isTrue();
      start.countDown();
      List<Outcome<T>> out = new ArrayList<>();
      for (Future<T> f : futures) {
        try {
          out.add(new Outcome<>(f.get(TIMEOUT_SECONDS, TimeUnit.SECONDS), null));
        } catch (ExecutionException e) {
          out.add(new Outcome<>(null, e.getCause()));
        }
      }
      return out;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("interrupted", e);
    } catch (TimeoutException e) {
      throw new AssertionError("a task did not finish within " + TIMEOUT_SECONDS + " s", e);
    }
  }

  private static <T> List<T> values(List<Outcome<T>> outcomes) {
    for (Outcome<T> o : outcomes) {
      if (!o.ok()) {
        throw new AssertionError("a task failed", o.error());
      }
    }
    return outcomes.stream().map(Outcome::value).toList();
  }

  private static Long[] oneTo(long n) {
    return LongStream.rangeClosed(1, n).boxed().toArray(Long[]::new);
  }

  @Test
  void concurrentWritesToOneScopeAreAllKeptWithGapFreeRevisions() {
    Engram engram = newEngram();
    Grants g = Grants.of("conc/one");
    List<List<WriteResult>> perThread = values(together(THREADS, t -> () -> {
      List<WriteResult> mine = new ArrayList<>();
      for (int i = 0; i < WRITES_PER_THREAD; i++) {
        mine.add(engram.write(g, "thread " + t + " writes fact " + i));
      }
      return mine;
    }));
    int total = THREADS * WRITES_PER_THREAD;
    List<WriteResult> all = perThread.stream().flatMap(List::stream).toList();
    assertThat(all).hasSize(total).allMatch(r -> r.outcome() == WriteResult.Outcome.APPENDED);
    assertThat(all).extracting(WriteResult::revision).doesNotHaveDuplicates()
        .containsExactlyInAnyOrder(oneTo(total));
    for (List<WriteResult> mine : perThread) {
      assertThat(mine).extracting(WriteResult::revision).isSorted();
    }
    assertThat(all).extracting(r -> r.entry().versionId()).doesNotHaveDuplicates();
    assertThat(all).extracting(r -> r.entry().entryId()).doesNotHaveDuplicates();
    assertThat(all).allMatch(r -> r.entry().createdInRevision() == r.revision());

    assertThat(engram.revision(g, "conc/one")).isEqualTo(total);
    List<Revision> log = engram.changes(g, "conc/one", 0);
    assertThat(log).extracting(Revision::revision).containsExactly(oneTo(total));
    assertThat(log).allSatisfy(r -> assertThat(r.changes()).singleElement()
        .extracting(Change::kind).isEqualTo(ChangeKind.APPEND));
    assertThat(log).flatExtracting(Revision::changes).extracting(Change::versionId)
        .doesNotHaveDuplicates()
        .containsExactlyInAnyOrderElementsOf(all.stream().map(r -> r.entry().versionId()).toList());

    List<MemoryEntry> listed = engram.list(g, ListOptions.builder().includeSuperseded(true).build());
    assertThat(listed).hasSize(total).extracting(MemoryEntry::versionId).doesNotHaveDuplicates();
    Set<String> expected = new HashSet<>();
    for (int t = 0; t < THREADS; t++) {
      for (int i = 0; i < WRITES_PER_THREAD; i++) {
        expected.add("thread " + t + " writes fact " + i);
      }
    }
    assertThat(listed).extracting(MemoryEntry::content).containsExactlyInAnyOrderElementsOf(expected);
  }

  @Test
  void concurrentCorrectionsWithExpectedRevisionHaveExactlyOneWinnerPerRevision() {
    Engram engram = newEngram();
    Grants g = Grants.of("conc/occ");
    WriteResult base = engram.write(g, "the contested fact, version 1");
    String id = base.entry().entryId();
    int rounds = 15;
    List<MemoryEntry> winners = new ArrayList<>();
    for (int round = 0; round < rounds; round++) {
      long head = engram.revision(g, "conc/occ");
      int r = round;
      List<Outcome<MemoryEntry>> outcomes = together(THREADS, t -> () ->
          engram.correct(g, id, "round " + r + " by thread " + t, ChangeOptions.expectedRevision(head)));
      List<MemoryEntry> won = outcomes.stream().filter(Outcome::ok).map(Outcome::value).toList();
      assertThat(won).as("round %d winners", round).hasSize(1);
      assertThat(outcomes.stream().filter(o -> !o.ok()).map(Outcome::error).toList())
          .as("round %d losers", round).hasSize(THREADS - 1)
          .allSatisfy(e -> assertThat(e).isInstanceOfSatisfying(RevisionConflictException.class, c -> {
            assertThat(c.scope()).isEqualTo("conc/occ");
            assertThat(c.expectedRevision()).isEqualTo(head);
            assertThat(c.actualRevision()).isGreaterThan(head);
          }));
      MemoryEntry winner = won.get(0);
      assertThat(winner.createdInRevision()).isEqualTo(head + 1);
      assertThat(winner.version()).isEqualTo(round + 2);
      assertThat(engram.get(g, id)).isEqualTo(winner);
      winners.add(winner);
    }
    assertThat(engram.history(g, id)).hasSize(rounds + 1);
    assertThat(engram.changes(g, "conc/occ", 0)).extracting(Revision::revision).containsExactly(oneTo(rounds + 1));
    List<MemoryEntry> chain = engram.list(g, ListOptions.builder().includeSuperseded(true).build());
    assertThat(chain).extracting(MemoryEntry::version).containsExactly(
        java.util.stream.IntStream.rangeClosed(1, rounds + 1).boxed().toArray(Integer[]::new));
    assertThat(chain).filteredOn(MemoryEntry::isActive).singleElement().isEqualTo(winners.get(rounds - 1));
  }

  @Test
  void concurrentWritesWithExpectedRevisionHaveExactlyOneWinnerPerRevision() {
    Engram engram = newEngram();
    Grants g = Grants.of("conc/expect");
    for (int round = 0; round < 10; round++) {
      long head = engram.revision(g, "conc/expect");
      int r = round;
      List<Outcome<WriteResult>> outcomes = together(THREADS, t -> () -> engram.write(g,
          "round " + r + " proposal of thread " + t, WriteOptions.builder().expectedRevision(head).build()));
      assertThat(outcomes).filteredOn(Outcome::ok).as("round %d", round).singleElement()
          .satisfies(o -> assertThat(o.value().revision()).isEqualTo(head + 1));
      assertThat(outcomes).filteredOn(o -> !o.ok()).as("round %d", round).hasSize(THREADS - 1)
          .allSatisfy(o -> assertThat(o.error()).isInstanceOf(RevisionConflictException.class));
    }
    assertThat(engram.list(g)).hasSize(10);
    assertThat(engram.revision(g, "conc/expect")).isEqualTo(10);
  }

  @Test
  void concurrentIdenticalWritesAppendOnceAndDedupeTheRest() {
    Engram engram = newEngram();
    Grants g = Grants.of("conc/same");
    int rounds = 10;
    for (int round = 0; round < rounds; round++) {
      int r = round;
      List<WriteResult> results = values(together(THREADS * 2, t -> () -> engram.write(g,
          switch (t % 3) {
            case 0 -> "the same fact, round " + r;
            case 1 -> "  the same   fact, round " + r + "  ";
            default -> "the same fact,\tround " + r + "\n";
          })));
      assertThat(results).filteredOn(x -> x.outcome() == WriteResult.Outcome.APPENDED).as("round %d", round).hasSize(1);
      assertThat(results).filteredOn(x -> x.outcome() == WriteResult.Outcome.DEDUPED).as("round %d", round)
          .hasSize(THREADS * 2 - 1);
      assertThat(results).extracting(x -> x.entry().entryId()).as("round %d", round).containsOnly(
          results.get(0).entry().entryId());
      assertThat(results).extracting(WriteResult::revision).as("round %d", round).containsOnly((long) round + 1);
    }
    assertThat(engram.list(g, ListOptions.builder().includeSuperseded(true).build())).hasSize(rounds);
    assertThat(engram.changes(g, "conc/same", 0)).extracting(Revision::revision).containsExactly(oneTo(rounds));
  }

  @Test
  void concurrentWritesInDifferentScopesDoNotInterfere() {
    Engram engram = newEngram();
    int perScope = 100;
    List<List<WriteResult>> perThread = values(together(THREADS, t -> () -> {
      Grants mine = Grants.of("conc/scopes/s" + t);
      List<WriteResult> out = new ArrayList<>();
      for (int i = 0; i < perScope; i++) {
        out.add(engram.write(mine, "scope " + t + " fact " + i));
      }
      return out;
    }));
    for (int t = 0; t < THREADS; t++) {
      String scope = "conc/scopes/s" + t;
      Grants mine = Grants.of(scope);
      assertThat(perThread.get(t)).extracting(WriteResult::revision).containsExactly(oneTo(perScope));
      assertThat(perThread.get(t)).extracting(r -> r.entry().scope()).containsOnly(scope);
      assertThat(engram.revision(mine, scope)).isEqualTo(perScope);
      assertThat(engram.changes(mine, scope, 0)).extracting(Revision::revision).containsExactly(oneTo(perScope));
      int tt = t;
      assertThat(engram.list(mine)).hasSize(perScope)
          .allSatisfy(e -> assertThat(e.content()).startsWith("scope " + tt + " fact "));
    }
    Map<String, Long> heads = new TreeMap<>();
    Grants all = Grants.of(java.util.stream.IntStream.range(0, THREADS).mapToObj(t -> "conc/scopes/s" + t).toList());
    for (String scope : all.namespaces()) {
      heads.put(scope, engram.revision(all, scope));
    }
    assertThat(heads.values()).containsOnly((long) perScope);
    assertThat(engram.revision(all, "conc/scopes")).isZero();
  }

  @Test
  void readersNeverSeeAHalfAppliedChange() {
    Engram engram = newEngram();
    Grants g = Grants.of("conc/atomic");
    WriteResult base = engram.write(g, "the fact being rewritten, version 1", WriteOptions.builder().topicsHint("t").build());
    String id = base.entry().entryId();
    int corrections = 200;
    AtomicBoolean writing = new AtomicBoolean(true);
    List<Outcome<Integer>> outcomes = together(5, t -> () -> {
      if (t == 0) {
        try {
          for (int i = 2; i <= corrections + 1; i++) {
            engram.correct(g, id, "the fact being rewritten, version " + i);
          }
        } finally {
          writing.set(false);
        }
        return corrections;
      }
      int observations = 0;
      while (writing.get() || observations == 0) {
        List<MemoryEntry> versions = engram.list(g, ListOptions.builder().includeSuperseded(true).build());
        Map<Integer, MemoryEntry> byVersion = versions.stream()
            .collect(Collectors.toMap(MemoryEntry::version, v -> v, (a, b) -> a, TreeMap::new));
        assertThat(byVersion).as("versions seen by reader %d", t).hasSize(versions.size());
        assertThat(byVersion.keySet()).containsExactly(
            java.util.stream.IntStream.rangeClosed(1, versions.size()).boxed().toArray(Integer[]::new));
        assertThat(versions).filteredOn(v -> v.status() == EntryStatus.ACTIVE).hasSize(1);
        MemoryEntry newest = byVersion.get(versions.size());
        assertThat(newest.status()).isEqualTo(EntryStatus.ACTIVE);
        for (int v = 2; v <= versions.size(); v++) {
          MemoryEntry older = byVersion.get(v - 1);
          assertThat(byVersion.get(v).previousVersionId()).isEqualTo(older.versionId());
          assertThat(older.status()).isEqualTo(EntryStatus.SUPERSEDED);
          assertThat(older.supersededBy()).isEqualTo(byVersion.get(v).versionId());
        }
        List<MemoryEntry> active = engram.read(g, "t");
        assertThat(active).hasSize(1);
        observations++;
      }
      return observations;
    });
    List<Integer> counts = values(outcomes);
    assertThat(counts.get(0)).isEqualTo(corrections);
    assertThat(counts.subList(1, counts.size())).allMatch(n -> n > 0);
    assertThat(engram.get(g, id).version()).isEqualTo(corrections + 1);
  }

  @Test
  void erasureRacingCorrectionsLeavesNoTrace() {
    Engram engram = newEngram();
    Grants g = Grants.of("conc/erase");
    WriteResult bystander = engram.write(g, "a bystander that stays", WriteOptions.builder().topicsHint("stays").build());
    for (int round = 0; round < 5; round++) {
      WriteResult victim = engram.write(g, "the victim of round " + round, WriteOptions.builder().topicsHint("victim").build());
      String id = victim.entry().entryId();
      int r = round;
      List<Integer> counts = values(together(THREADS, t -> () -> {
        if (t == 0) {
          Thread.sleep(2);
          return engram.deleteEntry(g, id);
        }
        int corrected = 0;
        for (int i = 0; i < 20; i++) {
          try {
            engram.correct(g, id, "round " + r + " thread " + t + " correction " + i);
            corrected++;
          } catch (dev.engram.NotFoundException gone) {
            break;
          }
        }
        return corrected;
      }));
      int corrections = counts.subList(1, counts.size()).stream().mapToInt(Integer::intValue).sum();
      assertThat(counts.get(0)).as("versions erased in round %d", round).isEqualTo(1 + corrections);
      assertThat(catchNotFound(() -> engram.get(g, id))).isTrue();
      assertThat(catchNotFound(() -> engram.history(g, id))).isTrue();
      assertThat(engram.list(g, ListOptions.builder().includeSuperseded(true).build()))
          .extracting(MemoryEntry::entryId).containsExactly(bystander.entry().entryId());
      assertThat(engram.read(g, "victim")).isEmpty();
      assertThat(engram.scan(g)).extracting(dev.engram.TopicSummary::topic).containsExactly("stays");
    }
    long head = engram.revision(g, "conc/erase");
    assertThat(engram.changes(g, "conc/erase", 0)).extracting(Revision::revision).containsExactly(oneTo(head));
    assertThat(engram.get(g, bystander.citation())).isEqualTo(bystander.entry());
  }

  private static boolean catchNotFound(org.assertj.core.api.ThrowableAssert.ThrowingCallable call) {
    return org.assertj.core.api.Assertions.catchThrowable(call) instanceof dev.engram.NotFoundException;
  }
}
