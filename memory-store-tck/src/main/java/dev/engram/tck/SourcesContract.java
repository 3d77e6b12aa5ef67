/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.engram.CapturedSource;
import dev.engram.Engram;
import dev.engram.ErrorCode;
import dev.engram.FlushOptions;
import dev.engram.FlushReport;
import dev.engram.Grants;
import dev.engram.InvalidInputException;
import dev.engram.ListOptions;
import dev.engram.MemoryEntry;
import dev.engram.NotFoundException;
import dev.engram.ScopeViolationException;
import dev.engram.SearchMode;
import dev.engram.SearchRequest;
import dev.engram.SourceConflictException;
import dev.engram.SourceQuery;
import dev.engram.SourceRecord;
import dev.engram.WriteOptions;
import dev.engram.reasoner.DeterministicReasoner;
import dev.engram.spi.ExtractRequest;
import dev.engram.spi.ExtractedMemory;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.Reasoner;
import dev.engram.spi.SourceState;
import dev.engram.spi.StoreCapability;
import dev.engram.spi.TagProposal;
import dev.engram.spi.TagRequest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Sources: capture (append-only, idempotent by id, no revision), reads under grants, extraction
 * through {@code flush} (evidence validated, cursor committed with the entries, atomic under faults at
 * every step, never a window twice with concurrent flushers), lineage and erasure. Runs on stores
 * declaring {@link StoreCapability#SOURCES}.
 */
public abstract class SourcesContract extends ContractSupport {
  private static final String S1 = "app/u1";
  private static final String S2 = "app/u2";
  private static final Grants U1 = Grants.of(S1);
  private static final Grants U2 = Grants.of(S2);
  private static final Instant T0 = Instant.parse("2026-03-01T10:00:00Z");

  private MemoryStore sourceStore() {
    MemoryStore store = createStore();
    assumeTrue(store.capabilities().contains(StoreCapability.SOURCES), "store does not declare SOURCES");
    return store;
  }

  private Engram engram() {
    return newEngram(sourceStore(), new DeterministicReasoner(), b -> b);
  }

  private static List<SourceRecord> turns(String session, int n, Instant start) {
    List<SourceRecord> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(SourceRecord.of(session, i % 2 == 0 ? "Ana" : "Ben", "Turn number " + i + " of " + session + " about topic" + i)
          .at(start.plusSeconds(60L * i)).id(session + "-t" + i));
    }
    return out;
  }

  /** A reasoner that extracts with {@code script}. */
  private static Reasoner extracting(Function<ExtractRequest, List<ExtractedMemory>> script) {
    DeterministicReasoner filer = new DeterministicReasoner();
    return new Reasoner() {
      @Override
      public TagProposal tag(TagRequest request) {
        return filer.tag(request);
      }

      @Override
      public boolean extracts() {
        return true;
      }

      @Override
      public List<ExtractedMemory> extract(ExtractRequest request) {
        return script.apply(request);
      }
    };
  }

  // ---- capture

  @Test
  void captureIsIdempotentByIdAndMakesNoRevision() {
    Engram engram = engram();
    SourceRecord m1 = SourceRecord.of("s1", "user", "I moved to Lisbon.").at(T0).id("m1");
    CapturedSource first = engram.capture(U1, m1);
    CapturedSource again = engram.capture(U1, m1);
    assertThat(again).isEqualTo(first);
    assertThat(engram.capture(U1, SourceRecord.of("s1", "user", "I moved to  Lisbon. ").id("m1")))
        .as("the same record in another spelling of the same normalized text, without an event time").isEqualTo(first);
    assertThat(first.position()).isEqualTo(1);
    assertThat(first.occurredAt()).isEqualTo(T0);
    assertThat(first.scope()).isEqualTo(S1);
    assertThat(engram.sources(U1, SourceQuery.defaults())).containsExactly(first);
    assertThat(engram.revision(U1, S1)).isZero();
    assertThat(engram.list(U1)).isEmpty();

    List<CapturedSource> batch = engram.captureAll(U1, List.of(
        SourceRecord.of("s1", "assistant", "Noted.").id("m2"),
        SourceRecord.of("s1", "assistant", "Noted.").id("m2"),
        m1));
    assertThat(batch.get(1)).isEqualTo(batch.get(0));
    assertThat(batch.get(2)).isEqualTo(first);
    assertThat(batch.get(0).position()).isEqualTo(2);
    assertThat(engram.sources(U1, SourceQuery.defaults())).extracting(CapturedSource::id).containsExactly("m1", "m2");
    assertThat(engram.revision(U1, S1)).isZero();
  }

  @Test
  void aTakenSourceIdWithOtherContentIsAConflictAndStoresNothing() {
    MemoryStore store = sourceStore();
    Engram engram = newEngram(store, new DeterministicReasoner(), b -> b);
    CapturedSource first = engram.capture(U1, SourceRecord.of("s1", "user", "I moved to Lisbon.").at(T0)
        .metadata(java.util.Map.of("channel", "chat")).id("m1"));
    List<SourceRecord> others = List.of(
        SourceRecord.of("s1", "user", "Something else").id("m1"),
        SourceRecord.of("s2", "user", "I moved to Lisbon.").at(T0).metadata(java.util.Map.of("channel", "chat")).id("m1"),
        SourceRecord.of("s1", "assistant", "I moved to Lisbon.").metadata(java.util.Map.of("channel", "chat")).id("m1"),
        SourceRecord.of("s1", "user", "I moved to Lisbon.").at(T0.plusSeconds(1))
            .metadata(java.util.Map.of("channel", "chat")).id("m1"),
        SourceRecord.of("s1", "user", "I moved to Lisbon.").at(T0).id("m1"));
    List<String> fields = List.of("text", "sessionId", "speaker", "occurredAt", "metadata");
    for (int i = 0; i < others.size(); i++) {
      SourceRecord other = others.get(i);
      SourceConflictException e = catchThrowableOfType(SourceConflictException.class, () -> engram.capture(U1, other));
      assertThat(e).as("record %d", i).isNotNull();
      assertThat(e.code()).isEqualTo(ErrorCode.SOURCE_CONFLICT);
      assertThat(e.scope()).isEqualTo(S1);
      assertThat(e.sourceId()).isEqualTo("m1");
      assertThat(e.fields()).as("record %d", i).contains(fields.get(i));
      assertThat(e).hasMessageContaining("m1").hasMessageContaining(S1).hasMessageNotContaining("Something else");
    }

    // a batch is refused whole: the records before the conflict, in this scope and in another, stay uncaptured
    SourceConflictException inBatch = catchThrowableOfType(SourceConflictException.class, () -> engram.captureAll(
        Grants.of(S1, S2), List.of(
            SourceRecord.of("s1", "user", "A new turn.").id("m2"),
            SourceRecord.of("s9", "user", "Another user's turn.").in(S2).id("o1"),
            SourceRecord.of("s1", "user", "Not what m1 says.").id("m1"))));
    assertThat(inBatch.sourceId()).isEqualTo("m1");
    SourceConflictException twice = catchThrowableOfType(SourceConflictException.class, () -> engram.captureAll(U1,
        List.of(SourceRecord.of("s1", "user", "One text.").id("m3"), SourceRecord.of("s1", "user", "Another.").id("m3"))));
    assertThat(twice.sourceId()).isEqualTo("m3");
    assertThat(twice.fields()).containsExactly("text");
    SourceConflictException twiceAcross = catchThrowableOfType(SourceConflictException.class, () -> engram.captureAll(
        Grants.of(S1, S2), List.of(
            SourceRecord.of("s9", "user", "Another user's turn.").in(S2).id("o1"),
            SourceRecord.of("s1", "user", "One text.").id("m3"),
            SourceRecord.of("s1", "user", "Another.").id("m3"))));
    assertThat(twiceAcross.sourceId()).isEqualTo("m3");

    assertThat(engram.sources(U1, SourceQuery.defaults())).containsExactly(first);
    assertThat(engram.sources(U2, SourceQuery.defaults())).isEmpty();
    assertThat(store.sourceState(S1).lastPosition()).isEqualTo(1);
    assertThat(store.sourceState(S2).lastPosition()).isZero();
    assertThat(engram.capture(U1, SourceRecord.of("s1", "user", "I moved to Lisbon.")
        .metadata(java.util.Map.of("channel", "chat")).id("m1"))).as("the same record is still a no-op").isEqualTo(first);
  }

  @Test
  void captureValidatesEveryRecordBeforeStoringAny() {
    Engram engram = engram();
    Throwable t = catchThrowable(() -> engram.captureAll(U1, List.of(
        SourceRecord.of("s1", "user", "fine").id("ok1"),
        SourceRecord.of("s1", "user", "bad id").id("has space"))));
    assertThat(t).isInstanceOf(InvalidInputException.class);
    assertThat(((InvalidInputException) t).field()).isEqualTo("records[1].id");
    assertThatThrownBy(() -> engram.capture(U1, SourceRecord.of("s1", "user", "x".repeat(CapturedSource.MAX_TEXT_BYTES + 1))))
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("text");
    assertThatThrownBy(() -> engram.capture(U1, SourceRecord.of("s1", "user", "  ")))
        .isInstanceOf(InvalidInputException.class);
    assertThatThrownBy(() -> engram.capture(U1, SourceRecord.of("s1", "user", "x").metadata(Map.of("bad key", "v"))))
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("metadata");
    assertThatThrownBy(() -> engram.capture(U1, SourceRecord.of("s1", "user", "x").in(S2)))
        .isInstanceOf(ScopeViolationException.class);
    assertThat(engram.sources(U1, SourceQuery.defaults())).isEmpty();
    assertThat(engram.sources(U2, SourceQuery.defaults())).isEmpty();
  }

  @Test
  void sourcesAreVisibleOnlyUnderTheGrantsAndFilterBySessionAndTime() {
    Engram engram = engram();
    engram.captureAll(U1, turns("a", 3, T0));
    engram.captureAll(U1, turns("b", 2, T0.plusSeconds(3600)));
    engram.capture(U2, SourceRecord.of("a", "user", "secret of u2").metadata(Map.of("channel", "web")));
    assertThat(engram.sources(U1, SourceQuery.defaults())).hasSize(5).allMatch(s -> s.scope().equals(S1));
    assertThat(engram.sources(U2, SourceQuery.defaults())).singleElement()
        .satisfies(s -> assertThat(s.metadata()).containsEntry("channel", "web"));
    assertThat(engram.sources(Grants.of("app"), SourceQuery.defaults())).isEmpty();
    assertThatThrownBy(() -> engram.sources(U1, SourceQuery.builder().scope(S2).build())).isInstanceOf(NotFoundException.class);
    assertThat(engram.sources(U1, SourceQuery.session("b"))).extracting(CapturedSource::id).containsExactly("b-t0", "b-t1");
    assertThat(engram.sources(U1, SourceQuery.between(T0.plusSeconds(60), T0.plusSeconds(3601))))
        .extracting(CapturedSource::id).containsExactly("a-t1", "a-t2", "b-t0");
    assertThat(engram.sources(U1, SourceQuery.builder().limit(2).build())).hasSize(2);
  }

  // ---- flush

  @Test
  void flushMakesOneCitedEntryPerTurnAndAdvancesTheCursorOnce() {
    MemoryStore store = sourceStore();
    Engram engram = newEngram(store, new DeterministicReasoner(), b -> b);
    List<CapturedSource> captured = engram.captureAll(U1, turns("a", 5, T0));
    FlushReport report = engram.flush(U1, FlushOptions.builder().windowRecords(2).build());
    assertThat(report.windows()).isEqualTo(3);
    assertThat(report.appended()).isEqualTo(5);
    assertThat(report.lost()).isZero();
    assertThat(report.scopes()).containsExactly(S1);
    assertThat(store.sourceState(S1)).isEqualTo(new SourceState(5, 5));
    assertThat(engram.revision(U1, S1)).isEqualTo(3);

    List<MemoryEntry> entries = engram.list(U1);
    assertThat(entries).hasSize(5);
    for (CapturedSource s : captured) {
      MemoryEntry e = entries.stream().filter(x -> x.evidence().equals(List.of(s.id()))).findFirst().orElseThrow();
      assertThat(e.content()).isEqualTo(s.speaker() + ": " + s.text());
      assertThat(e.occurredAt()).isEqualTo(s.occurredAt());
      assertThat(e.disclosure()).contains("2026-03-01").contains("March");
      assertThat(engram.evidence(U1, e.entryId())).containsExactly(s);
    }
    assertThatThrownBy(() -> engram.evidence(U2, entries.get(0).entryId())).isInstanceOf(NotFoundException.class);

    FlushReport again = engram.flush(U1);
    assertThat(again.windows()).isZero();
    assertThat(engram.list(U1)).hasSize(5);

    engram.capture(U1, SourceRecord.of("a", "Ana", "Turn number 0 of a about topic0").id("dup"));
    FlushReport dup = engram.flush(U1);
    assertThat(dup.deduped()).isEqualTo(1);
    assertThat(dup.appended()).isZero();
    assertThat(engram.list(U1)).hasSize(5);
  }

  @Test
  void aTurnIsFoundByAQuestionAboutIt() {
    Engram engram = engram();
    engram.captureAll(U1, List.of(
        SourceRecord.of("d1", "Ana", "I adopted a greyhound called Biscuit last week.").at(T0).id("d1-1"),
        SourceRecord.of("d1", "Ben", "Lovely! How is the flat in Porto working out?").at(T0.plusSeconds(30)).id("d1-2"),
        SourceRecord.of("d1", "Ana", "The kitchen is tiny but the balcony faces the river.").at(T0.plusSeconds(60)).id("d1-3")));
    engram.flush(U1);
    assertThat(engram.search(U1, SearchRequest.builder("what dog did Ana adopt greyhound").mode(SearchMode.AUTO).build())
        .hits()).first().satisfies(h -> assertThat(h.entry().evidence()).containsExactly("d1-1"));
    assertThat(engram.search(U1, "balcony river").hits()).first()
        .satisfies(h -> assertThat(h.entry().evidence()).containsExactly("d1-3"));
    assertThat(engram.search(U1, "1 March 2026 Porto flat").hits()).first()
        .satisfies(h -> assertThat(h.entry().evidence()).containsExactly("d1-2"));
  }

  @Test
  void evidenceOutsideTheWindowIsATypedErrorAndNothingIsCommitted() {
    MemoryStore store = sourceStore();
    Engram plain = newEngram(store, new DeterministicReasoner(), b -> b);
    CapturedSource other = plain.capture(U2, SourceRecord.of("x", "user", "elsewhere").id("foreign"));
    plain.captureAll(U1, turns("a", 3, T0));
    CapturedSource later = plain.capture(U1, SourceRecord.of("a", "user", "outside the first window").id("later"));
    for (String bad : List.of(other.id(), later.id(), "never-captured")) {
      Engram hostile = newEngram(store, extracting(r -> List.of(
          ExtractedMemory.of("fine candidate", List.of(r.window().get(0).id())),
          ExtractedMemory.of("cites " + bad, List.of(bad)))), b -> b);
      FlushReport report = hostile.flush(U1, FlushOptions.builder().windowRecords(3).build());
      assertThat(report.windows()).isZero();
      assertThat(report.scopes()).isEmpty();
      assertThat(report.failures()).singleElement().satisfies(f -> {
        assertThat(f.scope()).isEqualTo(S1);
        assertThat(f.fromPosition()).isEqualTo(1);
        assertThat(f.toPosition()).isEqualTo(3);
        assertThat(f.code()).isEqualTo(ErrorCode.INVALID_MODEL_OUTPUT);
        assertThat(f.message()).contains(bad);
      });
      assertThat(plain.list(U1)).isEmpty();
      assertThat(plain.revision(U1, S1)).isZero();
      assertThat(store.sourceState(S1).cursor()).isZero();
    }
    List<Function<ExtractRequest, List<ExtractedMemory>>> malformed = List.of(
        r -> null,
        r -> List.of(ExtractedMemory.of("no evidence", List.of())),
        r -> List.of(new ExtractedMemory(null, List.of(), dev.engram.EntryType.FACT, List.of(r.window().get(0).id()),
            null, null, null, List.of(), null)),
        r -> List.of(ExtractedMemory.of("x".repeat(100_000), List.of(r.window().get(0).id()))),
        r -> { throw new IllegalStateException("model down"); });
    for (int i = 0; i < malformed.size(); i++) {
      Engram hostile = newEngram(store, extracting(malformed.get(i)), b -> b);
      FlushReport report = hostile.flush(U1);
      assertThat(report.failed()).as("script %d", i).isTrue();
      assertThat(report.failures().get(0).code()).as("script %d", i)
          .isEqualTo(i == malformed.size() - 1 ? ErrorCode.REASONER_FAILED : ErrorCode.INVALID_MODEL_OUTPUT);
      assertThat(plain.list(U1)).isEmpty();
      assertThat(store.sourceState(S1).cursor()).isZero();
    }
    FlushReport ok = plain.flush(U1);
    assertThat(ok.appended()).isEqualTo(4);
    assertThat(plain.list(U2)).isEmpty();
  }

  @Test
  void aScopeWhoseExtractionFailsStopsThereWhileTheOtherScopesAreFlushed() {
    MemoryStore store = sourceStore();
    Engram plain = newEngram(store, new DeterministicReasoner(), b -> b);
    plain.captureAll(U1, turns("a", 4, T0));
    plain.captureAll(U2, turns("b", 4, T0));
    DeterministicReasoner turns = new DeterministicReasoner();
    Engram flaky = newEngram(store, extracting(r -> {
      if (r.scope().equals(S1) && r.window().get(0).position() > 2) {
        throw new IllegalStateException("model down");
      }
      return turns.extract(r);
    }), b -> b);
    FlushReport report = flaky.flush(Grants.of(S1, S2), FlushOptions.builder().windowRecords(2).build());
    assertThat(report.scopes()).containsExactly(S1, S2);
    assertThat(report.windows()).isEqualTo(3);
    assertThat(report.appended()).isEqualTo(6);
    assertThat(report.failures()).singleElement().satisfies(f -> {
      assertThat(f.scope()).isEqualTo(S1);
      assertThat(f.fromPosition()).isEqualTo(3);
      assertThat(f.toPosition()).isEqualTo(4);
      assertThat(f.code()).isEqualTo(ErrorCode.REASONER_FAILED);
    });
    assertThat(store.sourceState(S1)).isEqualTo(new SourceState(4, 2));
    assertThat(store.sourceState(S2)).isEqualTo(new SourceState(4, 4));
    assertThat(plain.list(U1)).hasSize(2);
    FlushReport retry = plain.flush(U1, FlushOptions.builder().windowRecords(2).build());
    assertThat(retry.failed()).isFalse();
    assertThat(retry.appended()).isEqualTo(2);
    assertThat(store.sourceState(S1)).isEqualTo(new SourceState(4, 4));
  }

  @Test
  void aFaultAtAnyStepOfAFlushLeavesNothingOfTheWindowAndARetryExtractsItOnce() {
    List<FaultInjectingStore.Step> steps = List.of(FaultInjectingStore.Step.INSERT_VERSION,
        FaultInjectingStore.Step.APPEND_REVISION, FaultInjectingStore.Step.APPEND_EVENT,
        FaultInjectingStore.Step.MARK_TOPICS_WRITTEN, FaultInjectingStore.Step.ADVANCE_SOURCE_CURSOR);
    for (FaultInjectingStore.Step step : steps) {
      FaultInjectingStore store = new FaultInjectingStore(sourceStore());
      Engram engram = newEngram(store, new DeterministicReasoner(), b -> b);
      engram.captureAll(U1, turns("a", 3, T0));
      store.failAfter(step);
      assertThatThrownBy(() -> engram.flush(U1)).as("fault after %s", step).hasMessageContaining("injected fault");
      assertThat(store.faultsInjected()).isEqualTo(1);
      assertThat(engram.list(U1)).as("after %s", step).isEmpty();
      assertThat(engram.revision(U1, S1)).isZero();
      assertThat(store.sourceState(S1)).isEqualTo(new SourceState(3, 0));
      FlushReport retry = engram.flush(U1);
      assertThat(retry.appended()).isEqualTo(3);
      assertThat(engram.list(U1)).extracting(e -> e.evidence().get(0))
          .containsExactlyInAnyOrder("a-t0", "a-t1", "a-t2");
      assertThat(engram.flush(U1).windows()).isZero();
    }
    FaultInjectingStore store = new FaultInjectingStore(sourceStore());
    Engram engram = newEngram(store, new DeterministicReasoner(), b -> b);
    store.failAfter(FaultInjectingStore.Step.INSERT_SOURCE);
    assertThatThrownBy(() -> engram.captureAll(U1, turns("a", 3, T0))).hasMessageContaining("injected fault");
    assertThat(engram.sources(U1, SourceQuery.defaults())).isEmpty();
    assertThat(store.sourceState(S1)).isEqualTo(SourceState.EMPTY);
  }

  @Test
  void twoConcurrentFlushersNeverExtractAWindowTwiceOrLoseOne() throws Exception {
    MemoryStore store = sourceStore();
    Engram a = newEngram(store, new DeterministicReasoner(), b -> b);
    Engram b = newEngram(store, new DeterministicReasoner(), x -> x);
    int n = 120;
    a.captureAll(U1, turns("long", n, T0));
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      CountDownLatch start = new CountDownLatch(1);
      List<Future<FlushReport>> runs = new ArrayList<>();
      for (Engram e : List.of(a, b)) {
        runs.add(pool.submit(() -> {
          start.await();
          return e.flush(U1, FlushOptions.builder().windowRecords(4).build());
        }));
      }
      start.countDown();
      int windows = 0;
      int appended = 0;
      for (Future<FlushReport> f : runs) {
        FlushReport r = f.get(120, TimeUnit.SECONDS);
        windows += r.windows();
        appended += r.appended();
      }
      assertThat(windows).isEqualTo(n / 4);
      assertThat(appended).isEqualTo(n);
    } finally {
      pool.shutdownNow();
    }
    Map<String, Integer> cited = new HashMap<>();
    for (MemoryEntry e : a.list(U1)) {
      for (String id : e.evidence()) {
        cited.merge(id, 1, Integer::sum);
      }
    }
    assertThat(cited).hasSize(n).allSatisfy((id, count) -> assertThat(count).as(id).isEqualTo(1));
    assertThat(store.sourceState(S1)).isEqualTo(new SourceState(n, n));
  }

  @Test
  void aFlushWithoutAnExtractingReasonerRefusesToRun() {
    MemoryStore store = sourceStore();
    Engram engram = newEngram(store, new Reasoner() {
      @Override
      public TagProposal tag(TagRequest request) {
        return new DeterministicReasoner().tag(request);
      }
    }, b -> b);
    engram.capture(U1, SourceRecord.of("s", "user", "hello"));
    assertThatThrownBy(() -> engram.flush(U1)).isInstanceOf(dev.engram.CapabilityNotSupportedException.class);
    assertThat(store.sourceState(S1)).isEqualTo(new SourceState(1, 0));
  }

  // ---- erasure

  @Test
  void deleteSourceAndDeleteScopeLeaveNoTrace() {
    MemoryStore store = sourceStore();
    Engram engram = newEngram(store, new DeterministicReasoner(), b -> b);
    engram.captureAll(U1, turns("a", 3, T0));
    engram.deleteSource(U1, S1, "a-t1");
    assertThatThrownBy(() -> engram.deleteSource(U1, S1, "a-t1")).isInstanceOf(NotFoundException.class);
    assertThatThrownBy(() -> engram.deleteSource(U2, S1, "a-t0")).isInstanceOf(NotFoundException.class);
    assertThat(engram.sources(U1, SourceQuery.defaults())).extracting(CapturedSource::id).containsExactly("a-t0", "a-t2");
    engram.flush(U1);
    assertThat(engram.list(U1)).extracting(e -> e.evidence().get(0)).containsExactlyInAnyOrder("a-t0", "a-t2");
    MemoryEntry e0 = engram.list(U1).stream().filter(e -> e.evidence().contains("a-t0")).findFirst().orElseThrow();
    engram.deleteSource(U1, S1, "a-t0");
    assertThat(engram.evidence(U1, e0.entryId())).isEmpty();

    engram.capture(U1, SourceRecord.of("a", "Ana", "never extracted").id("pending"));
    engram.deleteScope(U1, S1);
    assertThat(engram.sources(U1, SourceQuery.defaults())).isEmpty();
    assertThat(store.source(S1, "pending")).isEmpty();
    assertThat(store.sourceState(S1)).isEqualTo(SourceState.EMPTY);
    assertThat(engram.list(U1, ListOptions.builder().includeSuperseded(true).build())).isEmpty();
    assertThat(engram.search(U1, "never extracted").hits()).isEmpty();
    CapturedSource fresh = engram.capture(U1, SourceRecord.of("a", "Ana", "after erasure").id("pending"));
    assertThat(fresh.position()).isEqualTo(1);
    assertThat(fresh.text()).isEqualTo("after erasure");
  }

  @Test
  void aScopeHoldingOnlySourcesIsErasedByDeleteScope() {
    MemoryStore store = sourceStore();
    Engram engram = newEngram(store, new DeterministicReasoner(), b -> b);
    engram.capture(U1, SourceRecord.of("a", "Ana", "only a source").id("s"));
    engram.deleteScope(Grants.of("app"), "app", dev.engram.DeleteScopeOptions.withDescendants());
    assertThat(store.source(S1, "s")).isEmpty();
    assertThat(store.sourceState(S1)).isEqualTo(SourceState.EMPTY);
  }

  // ---- event time on explicit writes

  @Test
  void explicitWritesCarryOccurredAtAndSearchFiltersByIt() {
    Engram engram = engram();
    engram.write(U1, "The offsite was in Porto", WriteOptions.builder().occurredAt(T0).build());
    engram.write(U1, "The second offsite was in Porto too", WriteOptions.builder().occurredAt(T0.plusSeconds(86_400 * 40)).build());
    engram.write(U1, "Porto has a river");
    MemoryEntry first = engram.list(U1).stream().filter(e -> e.content().startsWith("The offsite")).findFirst().orElseThrow();
    assertThat(first.occurredAt()).isEqualTo(T0);
    assertThat(first.createdAt()).isNotEqualTo(T0);
    List<String> march = engram.search(U1, SearchRequest.builder("Porto").mode(SearchMode.FTS)
        .occurredBetween(T0.minusSeconds(1), T0.plusSeconds(86_400 * 30)).build())
        .hits().stream().map(h -> h.entry().content()).toList();
    assertThat(march).containsExactly("The offsite was in Porto");
    assertThat(engram.search(U1, SearchRequest.builder("Porto").occurredBetween(T0.plusSeconds(1), null).build())
        .hits()).extracting(h -> h.entry().content()).containsExactly("The second offsite was in Porto too");
    assertThat(engram.search(U1, "Porto").hits()).hasSize(3);
    assertThatThrownBy(() -> SearchRequest.builder("Porto").occurredBetween(T0, T0).build())
        .isInstanceOf(InvalidInputException.class);
  }
}
