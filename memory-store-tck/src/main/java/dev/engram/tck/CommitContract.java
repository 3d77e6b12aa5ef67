/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.engram.AncestorPromotion;
import dev.engram.ChangeOptions;
import dev.engram.Citation;
import dev.engram.CurateReport;
import dev.engram.Engram;
import dev.engram.EntryStateException;
import dev.engram.EntryStatus;
import dev.engram.ErrorCode;
import dev.engram.EventKind;
import dev.engram.Grants;
import dev.engram.ListOptions;
import dev.engram.MemoryEntry;
import dev.engram.MemoryEvent;
import dev.engram.PriorityCapExceededException;
import dev.engram.ReasonerException;
import dev.engram.SearchMode;
import dev.engram.SearchRequest;
import dev.engram.SearchResult;
import dev.engram.StoreException;
import dev.engram.WriteOptions;
import dev.engram.WritePolicy;
import dev.engram.WriteResult;
import dev.engram.reasoner.DeterministicReasoner;
import dev.engram.spi.CurateOp;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.StoreCapability;
import dev.engram.test.HashingEmbedder;
import dev.engram.test.ScriptedReasoner;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The engine's one commit path: per-call policies only narrow, priority caps are per scope and hold
 * under concurrency, no two active path-less entries of a scope share a content hash whatever
 * mutation tries it, embedding is decided in the commit's own view, history versions never change,
 * curation proposals are bounded, and a closed engine refuses every call the same way.
 */
public abstract class CommitContract extends ContractSupport {
  private static final String S1 = Fixtures.S1;
  private static final String S2 = Fixtures.S2;
  private static final Grants U1 = Grants.of(S1);
  private static final Grants U2 = Grants.of(S2);
  private static final long TIMEOUT_SECONDS = 120;

  private static WriteResult writeAt(Engram e, Grants g, String content, int priority) {
    return e.write(g, content, WriteOptions.builder().priority(priority).build());
  }

  private static int activeWithPriority(Engram e, Grants g, String scope, int priority) {
    int n = 0;
    for (MemoryEntry m : e.list(g)) {
      if (m.scope().equals(scope) && m.priority() == priority) {
        n++;
      }
    }
    return n;
  }

  /** Fails when two active entries without a path in one scope share a content hash. */
  private static void assertCanonicalDedupe(Engram e, Grants g) {
    Map<String, String> seen = new HashMap<>();
    for (MemoryEntry m : e.list(g)) {
      if (m.path() == null) {
        String key = m.scope() + "|" + m.contentHash();
        String other = seen.putIfAbsent(key, m.entryId());
        assertThat(other).as("active entries %s and %s share content '%s'", other, m.entryId(), m.content()).isNull();
      }
    }
  }

  private <T> List<Future<T>> together(ExecutorService executor, int tasks, java.util.function.IntFunction<Callable<T>> task)
      throws InterruptedException {
    CountDownLatch start = new CountDownLatch(1);
    List<Future<T>> futures = new ArrayList<>();
    for (int i = 0; i < tasks; i++) {
      Callable<T> work = task.apply(i);
      futures.add(executor.submit(() -> {
        start.await(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        return work.call();
      }));
    }
    start.countDown();
    executor.shutdown();
    assertThat(executor.awaitTermination(TIMEOUT_SECONDS, TimeUnit.SECONDS)).as("tasks finished").isTrue();
    return futures;
  }

  // ---- point 1: a per-call write policy only narrows

  @Test
  void aPerCallWritePolicyCanOnlyNarrowTheConfiguredOne() {
    TargetedReasoner reasoner = new TargetedReasoner();
    Engram engram = newEngram(reasoner, b -> b.writePolicy(WritePolicy.grantOnly()));
    Grants alice = Grants.of("app/user/alice");
    WriteOptions wide = WriteOptions.builder()
        .writePolicy(WritePolicy.builder().ancestorPromotion(AncestorPromotion.ANCESTORS).build()).build();

    for (String target : List.of("app/user", "app", "app/user/alice/notes")) {
      reasoner.fileInto(target);
      ReasonerException e = catchThrowableOfType(ReasonerException.class,
          () -> engram.write(alice, "Widened write into " + target, wide));
      assertThat(e).as("write into %s", target).isNotNull();
      assertThat(e.code()).isEqualTo(ErrorCode.INVALID_MODEL_OUTPUT);
    }
    assertThat(everything(engram, Grants.of("app/user/alice/notes"))).isEmpty();

    reasoner.fileInto("app/user/alice");
    MemoryEntry own = engram.write(alice, "Lands on the grant itself", wide).entry();
    MemoryEntry fixed = engram.correct(alice, own.entryId(), "Lands on the grant itself, corrected");
    assertThat(fixed.scope()).isEqualTo("app/user/alice");

    Engram open = newEngram(reasoner, b -> b);
    reasoner.fileInto("app/user/alice/notes");
    assertThat(catchThrowableOfType(ReasonerException.class, () -> open.write(alice, "Narrowed to the grant",
        WriteOptions.builder().writePolicy(WritePolicy.grantOnly()).build()))).isNotNull();
  }

  // ---- point 2: caps per scope, nothing revealed

  @Test
  void priorityCapsAreCountedPerScopeAndRevealNothingAboutOtherScopes() {
    Engram e = newEngram(new DeterministicReasoner(), b -> b.priorityCaps(2, 15));
    writeAt(e, U1, "U1 core one", 0);
    writeAt(e, U1, "U1 core two", 0);

    writeAt(e, U2, "U2 core one", 0);
    writeAt(e, U2, "U2 core two", 0);
    PriorityCapExceededException x = catchThrowableOfType(PriorityCapExceededException.class,
        () -> writeAt(e, U2, "U2 core three", 0));
    assertThat(x).isNotNull();
    assertThat(x.namespace()).isEqualTo(S2);
    assertThat(x.getMessage()).doesNotContain("u1").doesNotContain("'app'").doesNotContain("4");

    Grants parent = Grants.of("app/user");
    writeAt(e, parent, "Shared core one", 0);
    writeAt(e, parent, "Shared core two", 0);
    assertThat(activeWithPriority(e, parent, "app/user", 0)).isEqualTo(2);
    assertThat(activeWithPriority(e, U1, S1, 0)).isEqualTo(2);
    assertThat(activeWithPriority(e, U2, S2, 0)).isEqualTo(2);
  }

  // ---- point 3: the cap holds under concurrency

  @Test
  void priorityCapsHoldUnderConcurrentWritersInOneScopeAndInSiblingScopes() throws Exception {
    Engram e = newEngram(new DeterministicReasoner(), b -> b.priorityCaps(3, 15));
    List<Future<Boolean>> oneScope = together(Executors.newFixedThreadPool(12), 12, i -> () -> {
      try {
        writeAt(e, U1, "Concurrent core fact " + i, 0);
        return true;
      } catch (PriorityCapExceededException capped) {
        return false;
      }
    });
    int landed = 0;
    for (Future<Boolean> f : oneScope) {
      landed += f.get() ? 1 : 0;
    }
    assertThat(landed).isEqualTo(3);
    assertThat(activeWithPriority(e, U1, S1, 0)).isEqualTo(3);

    List<Future<Boolean>> siblings = together(Executors.newFixedThreadPool(12), 12, i -> () -> {
      Grants g = Grants.of("app/team/t" + i);
      for (int k = 0; k < 4; k++) {
        try {
          writeAt(e, g, "Team " + i + " core fact " + k, 0);
        } catch (PriorityCapExceededException capped) {
          // the fourth write of each scope
        }
      }
      return true;
    });
    for (Future<Boolean> f : siblings) {
      assertThat(f.get()).isTrue();
    }
    for (int i = 0; i < 12; i++) {
      Grants g = Grants.of("app/team/t" + i);
      assertThat(activeWithPriority(e, g, "app/team/t" + i, 0)).as("scope t%s", i).isEqualTo(3);
    }
  }

  // ---- point 4: canonical dedupe holds for every mutation

  @Test
  void correctOntoAnotherActiveEntrysContentIsRefusedNamingIt() {
    Engram e = newEngram(new DeterministicReasoner(), Fixtures.clocked());
    MemoryEntry a = write(e, U1, "Lives in Lisbon").entry();
    MemoryEntry b = write(e, U1, "Lives in Porto").entry();
    long head = e.revision(U1, S1);

    EntryStateException x = catchThrowableOfType(EntryStateException.class,
        () -> e.correct(U1, b.entryId(), "Lives  in Lisbon"));
    assertThat(x).isNotNull();
    assertThat(x.getMessage()).contains(a.entryId());
    assertThat(e.revision(U1, S1)).isEqualTo(head);
    assertThat(e.get(U1, b.entryId())).isEqualTo(b);
    assertCanonicalDedupe(e, U1);
  }

  @Test
  void reactivateOntoContentWrittenAgainMeanwhileIsRefusedNamingTheHolder() {
    Engram e = newEngram(new DeterministicReasoner(), Fixtures.clocked());
    MemoryEntry a = write(e, U1, "Drives an electric car").entry();
    MemoryEntry retired = e.retire(U1, a.citation(), "sold it");
    MemoryEntry again = write(e, U1, "Drives an electric car").entry();
    assertThat(again.entryId()).isNotEqualTo(a.entryId());
    long head = e.revision(U1, S1);

    EntryStateException x = catchThrowableOfType(EntryStateException.class,
        () -> e.reactivate(U1, retired.citation(), "bought another"));
    assertThat(x).isNotNull();
    assertThat(x.getMessage()).contains(again.entryId());
    assertThat(e.revision(U1, S1)).isEqualTo(head);
    assertThat(e.get(U1, a.entryId()).status()).isEqualTo(EntryStatus.RETIRED);
    assertCanonicalDedupe(e, U1);
  }

  @Test
  void rollbackOntoAnotherActiveEntrysContentIsRefusedNamingIt() {
    Engram e = newEngram(new DeterministicReasoner(), Fixtures.clocked());
    MemoryEntry a = write(e, U1, "Works from the Berlin office").entry();
    e.correct(U1, a.entryId(), "Works from the Munich office");
    MemoryEntry b = write(e, U1, "Works from the Berlin office").entry();
    assertThat(b.entryId()).isNotEqualTo(a.entryId());
    MemoryEvent created = e.history(U1, a.entryId()).get(0);
    long head = e.revision(U1, S1);

    EntryStateException x = catchThrowableOfType(EntryStateException.class,
        () -> e.rollback(U1, created.eventId(), ChangeOptions.defaults()));
    assertThat(x).isNotNull();
    assertThat(x.getMessage()).contains(b.entryId());
    assertThat(e.revision(U1, S1)).isEqualTo(head);
    assertCanonicalDedupe(e, U1);
  }

  @Test
  void aCurationRewriteOntoAnotherActiveEntrysContentIsRejectedAndChangesNothing() {
    ScriptedReasoner reasoner = new ScriptedReasoner();
    Engram e = newEngram(reasoner, Fixtures.clocked());
    MemoryEntry a = write(e, U1, "Speaks Portuguese", "languages").entry();
    MemoryEntry b = write(e, U1, "Speaks portuguese fluently", "languages").entry();
    reasoner.onCurate("languages", new CurateOp.Rewrite(b.entryId(), "Speaks Portuguese", "tidy"));
    long head = e.revision(U1, S1);

    CurateReport report = e.curate(U1);
    assertThat(report.applied()).isEmpty();
    assertThat(report.rejected()).singleElement().asString().contains(a.entryId());
    assertThat(e.revision(U1, S1)).isEqualTo(head);
    assertThat(e.get(U1, b.entryId())).isEqualTo(b);
    assertCanonicalDedupe(e, U1);
  }

  @Test
  void mixedConcurrentMutationsNeverLeaveTwoActiveEntriesWithOneContent() throws Exception {
    Engram e = newEngram(new DeterministicReasoner(), b -> b);
    List<String> pool = List.of("Pool fact alpha", "Pool fact beta", "Pool fact gamma", "Pool fact delta");
    List<Future<Integer>> runs = together(Executors.newFixedThreadPool(8), 8, t -> () -> {
      Random random = new Random(31L * t + 7);
      int done = 0;
      for (int i = 0; i < 60; i++) {
        String content = pool.get(random.nextInt(pool.size()));
        try {
          List<MemoryEntry> all = e.list(U1, ListOptions.builder().includeRetired(true).build());
          MemoryEntry some = all.isEmpty() ? null : all.get(random.nextInt(all.size()));
          switch (random.nextInt(4)) {
            case 0 -> write(e, U1, content);
            case 1 -> {
              if (some != null) {
                e.correct(U1, some.entryId(), content);
              }
            }
            case 2 -> {
              if (some != null) {
                e.retire(U1, some.citation(), "mixed");
              }
            }
            default -> {
              if (some != null) {
                e.reactivate(U1, some.citation(), "mixed");
              }
            }
          }
          done++;
        } catch (dev.engram.MemoryException expected) {
          // stale citations, wrong states and dedupe refusals are the expected losers of the race
        }
      }
      return done;
    });
    for (Future<Integer> f : runs) {
      assertThat(f.get()).isGreaterThanOrEqualTo(0);
    }
    assertCanonicalDedupe(e, U1);
  }

  @Test
  void preparedContextRendersContentHeldAtTwoPathsOnce() {
    Engram e = newEngram(new DeterministicReasoner(), b -> b);
    e.write(U1, "The staging cluster is in Frankfurt", WriteOptions.builder().path("infra/staging").build());
    e.write(U1, "The staging cluster is in Frankfurt", WriteOptions.builder().path("infra/eu").build());
    dev.engram.PreparedContext ctx = e.prepareContext(U1, dev.engram.ContextRequest.of("staging cluster Frankfurt", 4000));
    assertThat(ctx.citations()).hasSize(1);
    assertThat(ctx.content()).isNotNull();
    assertThat(ctx.content().split("The staging cluster is in Frankfurt", -1)).hasSize(2);
  }

  @Test
  void aStoreRefusesTwoActivePathlessVersionsWithOneContentHashInAScope() {
    MemoryStore store = createStore();
    Engram e = newEngram(store, new DeterministicReasoner(), b -> b);
    MemoryEntry a = write(e, U1, "Canonical content").entry();
    MemoryEntry copy = new MemoryEntry("e-copy-" + a.entryId(), "v-copy-" + a.versionId(), 1, null, S1,
        a.content(), a.topics(), a.type(), a.priority(), null, List.of(), null, null, List.of(), a.contentHash(),
        EntryStatus.ACTIVE, null, null, a.createdAt(), a.createdAt(), 2);
    assertThatThrownBy(() -> store.inTransaction(S1, tx -> {
      tx.insertVersion(copy);
      return null;
    })).isInstanceOf(IllegalStateException.class);
    assertThat(store.version(copy.versionId())).isEmpty();
    assertThat(e.list(U1)).containsExactly(a);
  }

  // ---- point 6: embedding is decided inside the commit

  @Test
  void aWriteRacingTheRetireOfItsDuplicateIsStoredWithVectors() {
    MemoryStore raw = createStore();
    AtomicReference<Runnable> beforeNextTransaction = new AtomicReference<>();
    InvocationHandler handler = (proxy, method, args) -> {
      if (method.getName().equals("inTransaction")) {
        Runnable hook = beforeNextTransaction.getAndSet(null);
        if (hook != null) {
          hook.run();
        }
      }
      try {
        return method.invoke(raw, args);
      } catch (InvocationTargetException ex) {
        throw ex.getCause();
      }
    };
    MemoryStore racing = (MemoryStore) Proxy.newProxyInstance(
        MemoryStore.class.getClassLoader(), new Class<?>[] {MemoryStore.class}, handler);
    HashingEmbedder embedder = new HashingEmbedder();
    Engram writer = newEngram(racing, new DeterministicReasoner(), b -> b.embedder(embedder));
    Engram other = newEngram(raw, new DeterministicReasoner(), b -> b.embedder(embedder));
    Assumptions.assumeTrue(raw.capabilities().contains(StoreCapability.VECTOR_STORAGE), "store keeps vectors");
    MemoryEntry dup = write(other, U1, "Keeps bees on the roof").entry();
    beforeNextTransaction.set(() -> other.retire(U1, dup.citation(), "moved away"));

    WriteResult r = write(writer, U1, "Keeps bees on the roof");
    assertThat(r.outcome()).isEqualTo(WriteResult.Outcome.APPENDED);
    assertThat(r.entry().entryId()).isNotEqualTo(dup.entryId());
    SearchResult hits = writer.search(U1, SearchRequest.builder("bees on the roof").mode(SearchMode.VECTOR).build());
    assertThat(hits.used()).isEqualTo(SearchMode.VECTOR);
    assertThat(hits.hits()).extracting(h -> h.entry().entryId()).containsExactly(r.entry().entryId());
  }

  /**
   * The engine runs a commit's work once, on the calling thread, whatever the commit activates: a
   * rollback to content the commit had no vectors made for gets them right after the commit, in a
   * transaction of its own, instead of abandoning the commit to embed and running it again.
   */
  @Test
  void theEngineRunsACommitsWorkOnceAndVersionsItActivatesGetVectorsAfterIt() {
    MemoryStore raw = createStore();
    Assumptions.assumeTrue(raw.capabilities().contains(StoreCapability.VECTOR_STORAGE), "store keeps vectors");
    java.util.concurrent.atomic.AtomicInteger transactions = new java.util.concurrent.atomic.AtomicInteger();
    java.util.concurrent.atomic.AtomicInteger runs = new java.util.concurrent.atomic.AtomicInteger();
    java.util.concurrent.atomic.AtomicInteger abandoned = new java.util.concurrent.atomic.AtomicInteger();
    List<String> foreignThreads = new java.util.concurrent.CopyOnWriteArrayList<>();
    InvocationHandler handler = (proxy, method, args) -> {
      try {
        if (method.getName().equals("inTransaction")) {
          transactions.incrementAndGet();
          Thread caller = Thread.currentThread();
          int last = args.length - 1;
          @SuppressWarnings("unchecked")
          MemoryStore.StoreWork<Object> work = (MemoryStore.StoreWork<Object>) args[last];
          args[last] = (MemoryStore.StoreWork<Object>) tx -> {
            runs.incrementAndGet();
            if (Thread.currentThread() != caller) {
              foreignThreads.add(Thread.currentThread().getName());
            }
            try {
              return work.run(tx);
            } catch (RuntimeException thrown) {
              abandoned.incrementAndGet();
              throw thrown;
            }
          };
        }
        return method.invoke(raw, args);
      } catch (InvocationTargetException ex) {
        throw ex.getCause();
      }
    };
    MemoryStore counted = (MemoryStore) Proxy.newProxyInstance(
        MemoryStore.class.getClassLoader(), new Class<?>[] {MemoryStore.class}, handler);
    Engram e = newEngram(counted, new DeterministicReasoner(), b -> b.embedder(new HashingEmbedder()));
    MemoryEntry first = write(e, U1, "Walks the dog at six every morning").entry();
    e.correct(U1, first.entryId(), "Cycles to the lake at seven every morning");
    MemoryEvent created = e.history(U1, first.entryId()).get(0);

    transactions.set(0);
    runs.set(0);
    MemoryEntry back = e.rollback(U1, created.eventId());
    assertThat(back.content()).isEqualTo("Walks the dog at six every morning");
    assertThat(runs.get()).as("each transaction ran its work once").isEqualTo(transactions.get());
    assertThat(abandoned.get()).as("no run of the work was abandoned to be run again").isZero();
    assertThat(raw.vectorsOf(S1, new HashingEmbedder().profile().id(), List.of(back.versionId())))
        .as("the rolled-back content has vectors before any search").isNotEmpty();
    assertThat(foreignThreads).as("work ran on the calling thread").isEmpty();
    SearchResult hits = e.search(U1, SearchRequest.builder("walks the dog at six").mode(SearchMode.VECTOR).build());
    assertThat(hits.used()).isEqualTo(SearchMode.VECTOR);
    assertThat(hits.warnings()).isEmpty();
    assertThat(hits.hits()).extracting(h -> h.entry().versionId()).containsExactly(back.versionId());
  }

  /**
   * A store may run a write's work again after rolling back an earlier run (the hinted
   * {@code inTransaction} of {@link MemoryStore}): what the caller gets and what the store holds are
   * those of the last run alone, for single writes, batches, dedupes and vectors.
   */
  @Test
  void aWriteWhoseWorkTheStoreRunsTwiceCommitsOnlyTheLastRun() {
    MemoryStore raw = createStore();
    java.util.concurrent.atomic.AtomicInteger reruns = new java.util.concurrent.atomic.AtomicInteger();
    InvocationHandler handler = (proxy, method, args) -> {
      try {
        if (method.getName().equals("inTransaction") && args.length == 3) {
          @SuppressWarnings("unchecked")
          MemoryStore.StoreWork<Object> work = (MemoryStore.StoreWork<Object>) args[2];
          RuntimeException abandon = new RuntimeException("first run abandoned");
          try {
            raw.inTransaction((String) args[0], (java.util.Collection<String>) args[1], tx -> {
              work.run(tx);
              throw abandon;
            });
          } catch (RuntimeException ex) {
            if (ex != abandon) {
              throw ex;
            }
          }
          reruns.incrementAndGet();
        }
        return method.invoke(raw, args);
      } catch (InvocationTargetException ex) {
        throw ex.getCause();
      }
    };
    MemoryStore twice = (MemoryStore) Proxy.newProxyInstance(
        MemoryStore.class.getClassLoader(), new Class<?>[] {MemoryStore.class}, handler);
    HashingEmbedder embedder = new HashingEmbedder();
    boolean vectors = raw.capabilities().contains(StoreCapability.VECTOR_STORAGE);
    Engram e = newEngram(twice, new DeterministicReasoner(), b -> vectors ? b.embedder(embedder) : b);

    WriteResult first = write(e, U1, "Grows tomatoes on the balcony", "garden");
    assertThat(first.outcome()).isEqualTo(WriteResult.Outcome.APPENDED);
    assertThat(first.revision()).isEqualTo(1);
    assertThat(first.warnings()).noneMatch(w -> w.contains("vectors"));
    WriteResult again = write(e, U1, "Grows tomatoes on the balcony", "garden");
    assertThat(again.outcome()).isEqualTo(WriteResult.Outcome.DEDUPED);
    assertThat(again.entry()).isEqualTo(first.entry());
    assertThat(again.revision()).isEqualTo(1);
    dev.engram.BatchWriteResult batch = e.writeAll(U1, List.of(dev.engram.WriteRequest.of("Waters them at dawn"),
        dev.engram.WriteRequest.of("Grows tomatoes on the balcony"), dev.engram.WriteRequest.of("Waters them at dawn")));
    assertThat(batch.results()).extracting(WriteResult::outcome).containsExactly(WriteResult.Outcome.APPENDED,
        WriteResult.Outcome.DEDUPED, WriteResult.Outcome.DEDUPED);
    assertThat(batch.results()).extracting(WriteResult::revision).containsExactly(2L, 2L, 2L);
    assertThat(reruns.get()).isGreaterThanOrEqualTo(3);

    assertThat(e.revision(U1, S1)).isEqualTo(2);
    assertThat(raw.revisions(S1, 0, 10)).extracting(dev.engram.Revision::revision).containsExactly(1L, 2L);
    assertThat(e.list(U1)).extracting(MemoryEntry::content)
        .containsExactlyInAnyOrder("Grows tomatoes on the balcony", "Waters them at dawn");
    assertThat(e.history(U1, first.entry().entryId())).hasSize(1);
    if (vectors) {
      SearchResult hits = e.search(U1, SearchRequest.builder("tomatoes on the balcony").mode(SearchMode.VECTOR).build());
      assertThat(hits.used()).isEqualTo(SearchMode.VECTOR);
      assertThat(hits.hits()).extracting(h -> h.entry().entryId()).contains(first.entry().entryId());
    }
  }

  // ---- point 7: history is immutable

  @Test
  void rollbackOfAMergedAwayEntryLeavesItsHistoricalVersionUntouched() {
    ScriptedReasoner reasoner = new ScriptedReasoner();
    Engram e = newEngram(reasoner, Fixtures.clocked());
    MemoryEntry keep = write(e, U1, "Flies to Oslo every spring", "travel").entry();
    MemoryEntry dup = write(e, U1, "Flies to Oslo each spring", "travel").entry();
    reasoner.onCurate("travel", new CurateOp.Merge(keep.entryId(), List.of(dup.entryId()), null));
    assertThat(e.curate(U1).applied()).hasSize(1);
    MemoryEntry mergedAway = e.get(U1, dup.citation());
    assertThat(mergedAway.status()).isEqualTo(EntryStatus.SUPERSEDED);
    assertThat(mergedAway.supersededBy()).isEqualTo(keep.versionId());
    MemoryEvent created = e.history(U1, dup.entryId()).get(0);
    assertThat(created.kind()).isEqualTo(EventKind.CREATE);

    MemoryEntry back = e.rollback(U1, created.eventId(), ChangeOptions.defaults());
    assertThat(back.isActive()).isTrue();
    assertThat(back.entryId()).isEqualTo(dup.entryId());
    assertThat(back.previousVersionId()).isEqualTo(dup.versionId());
    assertThat(e.get(U1, dup.citation())).isEqualTo(mergedAway);
    assertThat(e.get(U1, keep.entryId())).isEqualTo(keep);
  }

  @Test
  void rollbackOfARetiredEntryIsRefusedAndChangesNothing() {
    Engram e = newEngram(new DeterministicReasoner(), Fixtures.clocked());
    MemoryEntry a = write(e, U1, "Collects vinyl records").entry();
    MemoryEntry v2 = e.correct(U1, a.entryId(), "Collects vinyl records and tapes");
    MemoryEntry retired = e.retire(U1, v2.citation(), "stopped");
    MemoryEvent created = e.history(U1, a.entryId()).get(0);
    long head = e.revision(U1, S1);

    EntryStateException x = catchThrowableOfType(EntryStateException.class,
        () -> e.rollback(U1, created.eventId(), ChangeOptions.defaults()));
    assertThat(x).isNotNull();
    assertThat(x.getMessage()).contains("RETIRED").contains("reactivate");
    assertThat(e.revision(U1, S1)).isEqualTo(head);
    assertThat(e.get(U1, a.entryId())).isEqualTo(retired);
  }

  // ---- point 15: closed engine

  @Test
  void everyCallAfterCloseFailsWithATypedStoreException() {
    Engram e = newEngram(new DeterministicReasoner(), b -> b);
    MemoryEntry a = write(e, U1, "Written before close").entry();
    Citation c = a.citation();
    e.close();
    e.close();

    List<Runnable> calls = List.of(
        () -> write(e, U1, "Written after close"),
        () -> e.read(U1, "general"),
        () -> e.list(U1),
        () -> e.scan(U1),
        () -> e.get(U1, a.entryId()),
        () -> e.get(U1, c),
        () -> e.correct(U1, a.entryId(), "Corrected after close"),
        () -> e.retire(U1, c, "late"),
        () -> e.history(U1, a.entryId()),
        () -> e.revision(U1, S1),
        () -> e.changes(U1, S1, 0),
        () -> e.search(U1, SearchRequest.of("close")),
        () -> e.curate(U1),
        () -> e.operator().listDirtyTopics(10),
        () -> e.deleteEntry(U1, a.entryId()));
    for (Runnable call : calls) {
      StoreException x = catchThrowableOfType(StoreException.class, call::run);
      assertThat(x).isNotNull();
      assertThat(x.code()).isEqualTo(ErrorCode.STORE_CLOSED);
      assertThat(x.getMessage()).contains("closed");
    }
  }

  @Test
  void aClosedStoreRefusesEveryCallWithATypedStoreException() {
    MemoryStore store = createStore();
    store.close();
    store.close();
    List<Runnable> calls = List.of(
        () -> store.headRevision(S1),
        () -> store.versions("e1"),
        () -> store.topics(List.of(S1)),
        () -> store.inTransaction(S1, tx -> tx.headRevision(S1)));
    for (Runnable call : calls) {
      StoreException x = catchThrowableOfType(StoreException.class, call::run);
      assertThat(x).isNotNull();
      assertThat(x.code()).isEqualTo(ErrorCode.STORE_CLOSED);
    }
  }

  // ---- point 16: curation bounds

  @Test
  void aCurateProposalPastTheBoundIsRefusedAsAWholeAndChangesNothing() {
    ScriptedReasoner reasoner = new ScriptedReasoner();
    Engram e = newEngram(reasoner, Fixtures.clocked());
    MemoryEntry a = write(e, U1, "Grows tomatoes", "garden").entry();
    write(e, U1, "Grows basil", "garden");
    List<CurateOp> flood = new ArrayList<>();
    flood.add(new CurateOp.Retire(a.entryId(), "first"));
    for (int i = 0; i < 20_000; i++) {
      flood.add(new CurateOp.Blurb("Blurb " + i));
    }
    reasoner.onCurate(request -> flood);
    long head = e.revision(U1, S1);

    ReasonerException x = catchThrowableOfType(ReasonerException.class, () -> e.curate(U1));
    assertThat(x).isNotNull();
    assertThat(x.code()).isEqualTo(ErrorCode.INVALID_MODEL_OUTPUT);
    assertThat(x.getMessage()).contains("20001").contains("200");
    assertThat(e.revision(U1, S1)).isEqualTo(head);
    assertThat(e.get(U1, a.entryId()).isActive()).isTrue();
    assertThat(e.scan(U1)).allMatch(t -> t.hasUncuratedWrites());
  }

  @Test
  void curateReportsTheDirtyTopicsLeftBeyondItsPerCallCap() {
    ScriptedReasoner reasoner = new ScriptedReasoner();
    Engram e = newEngram(reasoner, Fixtures.clocked());
    for (int i = 0; i < 53; i++) {
      write(e, U1, "Fact for topic " + i, "topic-" + i);
    }
    CurateReport first = e.curate(U1);
    assertThat(first.topicsCurated()).hasSize(CurateReport.MAX_TOPICS_PER_CALL);
    assertThat(first.topicsRemaining()).isEqualTo(53 - CurateReport.MAX_TOPICS_PER_CALL);

    CurateReport second = e.curate(U1);
    assertThat(second.topicsCurated()).hasSize(53 - CurateReport.MAX_TOPICS_PER_CALL);
    assertThat(second.topicsRemaining()).isZero();
    assertThat(new CurateReport(true, List.of(), List.of(), List.of()).topicsRemaining()).isZero();
  }
}
