/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.engine;

import static dev.engram.tck.Fixtures.S1;
import static dev.engram.tck.Fixtures.S2;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.CapabilityNotSupportedException;
import dev.engram.CurateReport;
import dev.engram.Engram;
import dev.engram.ErrorCode;
import dev.engram.Grants;
import dev.engram.InvalidInputException;
import dev.engram.ModelUsageQuery;
import dev.engram.ModelUsageRow;
import dev.engram.StoreException;
import dev.engram.WriteOptions;
import dev.engram.WriteResult;
import dev.engram.reasoner.DeterministicReasoner;
import dev.engram.spi.CurateOp;
import dev.engram.spi.CurateRequest;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.ModelCall;
import dev.engram.spi.ModelCallListener;
import dev.engram.spi.Reasoner;
import dev.engram.spi.StoreTransaction;
import dev.engram.spi.TagProposal;
import dev.engram.spi.TagRequest;
import dev.engram.store.inmemory.InMemoryMemoryStore;
import dev.engram.tck.FaultInjectingStore;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.LocalDate;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * The engine's model usage rules: every model call of the reasoner is counted for the scope of the
 * operation that made it (a write's for the scope it was filed in, a curated slice's for its scope, an
 * approval's views call for the item's scope), a
 * failure to store the counters never fails the operation and is reported on its result, a store
 * without {@code MODEL_USAGE} answers the query with a capability error, and the query's days are checked.
 */
class ModelUsageRulesTest extends EngineRules {
  private static final Grants U1 = Grants.of(S1);
  private static final Grants BOTH = Grants.of(S1, S2);

  @Test
  void aWriteIsCountedForTheScopeTheModelFiledItIn() {
    Engram e = newEngram(new Costing(S2), b -> b);
    WriteResult w = e.write(BOTH, "Ben lives in Lisbon.", WriteOptions.defaults());
    assertThat(w.entry().scope()).isEqualTo(S2);
    assertThat(e.operator().modelUsage(BOTH, ModelUsageQuery.defaults()))
        .singleElement().satisfies(r -> {
          assertThat(r.scope()).as("the scope the model chose, not the first grant").isEqualTo(S2);
          assertThat(r.calls()).isEqualTo(1);
          assertThat(r.inputTokens()).isEqualTo(Costing.IN);
          assertThat(r.outputTokens()).isEqualTo(Costing.OUT);
          assertThat(r.failures()).isZero();
        });
  }

  @Test
  void aCuratedSliceIsCountedForItsScope() {
    Engram e = newEngram(new Costing(S2), b -> b);
    e.write(BOTH, "Ben lives in Lisbon.", WriteOptions.defaults());
    CurateReport report = e.curate(BOTH);
    assertThat(report.topicsCurated()).isNotEmpty();
    assertThat(e.operator().modelUsage(BOTH, ModelUsageQuery.defaults()))
        .extracting(ModelUsageRow::scope, ModelUsageRow::job)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(S2, "curate"), org.assertj.core.groups.Tuple.tuple(S2, "tag"));
  }

  @Test
  void theViewsCallOfAnApprovalIsCountedForTheItemsScope() {
    Engram e = newEngram(new Costing(S1), b -> b.embedder(new dev.engram.test.HashingEmbedder())
        .review(dev.engram.ReviewKind.EXTRACTION));
    e.captureAll(U1, List.of(dev.engram.SourceRecord.of("chat", "ana", "I moved to Bergen last spring.").id("c-1")));
    dev.engram.ReviewItem item = e.flush(U1, dev.engram.FlushOptions.defaults()).pending().get(0);
    assertThat(e.operator().modelUsage(U1, ModelUsageQuery.defaults())).extracting(ModelUsageRow::job)
        .as("queued, the candidate has no vectors yet").containsExactly("extract");

    e.review().approve(U1, item.id(), dev.engram.ApproveRequest.builder(item.version(), "ana").build());

    assertThat(e.operator().modelUsage(U1, ModelUsageQuery.defaults()))
        .extracting(ModelUsageRow::scope, ModelUsageRow::job, ModelUsageRow::calls)
        .containsExactly(org.assertj.core.groups.Tuple.tuple(S1, "extract", 1L),
            org.assertj.core.groups.Tuple.tuple(S1, "views", 1L));
  }

  @Test
  void aFailingUsageWriteNeverFailsTheWriteAndIsReportedOnItsResult() {
    AtomicBoolean attempted = new AtomicBoolean();
    MemoryStore store = failingUsage(new InMemoryMemoryStore(), attempted);
    Engram e = newEngram(store, new Costing(S1), b -> b);

    WriteResult w = e.write(U1, "Ana prefers window seats.", WriteOptions.defaults());

    assertThat(attempted).as("the usage write was attempted").isTrue();
    assertThat(w.outcome()).isEqualTo(WriteResult.Outcome.APPENDED);
    assertThat(e.list(U1)).extracting(x -> x.content()).containsExactly("Ana prefers window seats.");
    assertThat(w.warnings()).anyMatch(x -> x.contains("model usage of this operation could not be recorded"));
    assertThat(e.operator().modelUsage(U1, ModelUsageQuery.defaults())).isEmpty();
  }

  @Test
  void aStoreWithoutModelUsageAnswersTheQueryWithACapabilityError() {
    Engram e = newEngram(new FaultInjectingStore(new InMemoryMemoryStore()), new Costing(S1), b -> b);
    WriteResult w = e.write(U1, "Ana prefers window seats.", WriteOptions.defaults());
    assertThat(w.warnings()).noneMatch(x -> x.contains("model usage"));
    assertThatThrownBy(() -> e.operator().modelUsage(U1, ModelUsageQuery.defaults()))
        .isInstanceOf(CapabilityNotSupportedException.class).hasMessageContaining("MODEL_USAGE");
  }

  @Test
  void aReasonerWithoutModelCallsLeavesNoUsage() {
    Engram e = newEngram(new DeterministicReasoner(), b -> b);
    e.write(U1, "Ana prefers window seats.", WriteOptions.defaults());
    assertThat(e.operator().modelUsage(U1, ModelUsageQuery.defaults())).isEmpty();
  }

  @Test
  void theQueryRefusesALastDayBeforeTheFirst() {
    assertThatThrownBy(() -> ModelUsageQuery.days(LocalDate.parse("2031-05-07"), LocalDate.parse("2031-05-06")))
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("to");
    assertThatThrownBy(() -> new ModelCall("tag", "openai", "m", -1, 0, false))
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("inputTokens");
    assertThatThrownBy(() -> new ModelUsageRow(S1, LocalDate.parse("2031-05-06"), "openai", "m", "tag", 1, 0, 0, 2))
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("failures");
  }

  /** {@code store} whose transactions refuse to add model usage (as a broken table would). */
  private static MemoryStore failingUsage(MemoryStore store, AtomicBoolean attempted) {
    return (MemoryStore) Proxy.newProxyInstance(MemoryStore.class.getClassLoader(), new Class<?>[] {MemoryStore.class},
        (proxy, method, args) -> {
          if (method.getName().equals("inTransaction")) {
            MemoryStore.StoreWork<?> work = (MemoryStore.StoreWork<?>) args[args.length - 1];
            args[args.length - 1] = (MemoryStore.StoreWork<Object>) tx -> work.run(failing(tx, attempted));
          }
          try {
            return method.invoke(store, args);
          } catch (InvocationTargetException x) {
            throw x.getCause();
          }
        });
  }

  private static StoreTransaction failing(StoreTransaction tx, AtomicBoolean attempted) {
    return (StoreTransaction) Proxy.newProxyInstance(StoreTransaction.class.getClassLoader(),
        new Class<?>[] {StoreTransaction.class}, (proxy, method, args) -> {
          if (method.getName().equals("addModelUsage")) {
            attempted.set(true);
            throw new StoreException(ErrorCode.STORE_UNAVAILABLE, "the usage table is broken", null);
          }
          try {
            return method.invoke(tx, args);
          } catch (InvocationTargetException x) {
            throw x.getCause();
          }
        });
  }

  /**
   * Files every write in {@code namespace} as one model call of {@value #IN} input and {@value #OUT}
   * output tokens, and curates each slice in one call that changes nothing.
   */
  private static final class Costing implements Reasoner {
    static final long IN = 300;
    static final long OUT = 30;
    private final String namespace;
    private final ModelCallListener listener;

    Costing(String namespace) {
      this(namespace, call -> { });
    }

    private Costing(String namespace, ModelCallListener listener) {
      this.namespace = namespace;
      this.listener = listener;
    }

    @Override
    public Reasoner reportingTo(ModelCallListener to) {
      ModelCallListener before = listener;
      return new Costing(namespace, call -> {
        before.onModelCall(call);
        to.onModelCall(call);
      });
    }

    @Override
    public boolean usesContext() {
      return false;
    }

    @Override
    public TagProposal tag(TagRequest request) {
      listener.onModelCall(new ModelCall("tag", "openai", "rules-test", IN, OUT, false));
      return new TagProposal(namespace, List.of("general"), dev.engram.EntryType.FACT, request.content(), null);
    }

    @Override
    public boolean curates() {
      return true;
    }

    @Override
    public boolean extracts() {
      return true;
    }

    @Override
    public List<dev.engram.spi.ExtractedMemory> extract(dev.engram.spi.ExtractRequest request) {
      listener.onModelCall(new ModelCall("extract", "openai", "rules-test", IN, OUT, false));
      return new DeterministicReasoner().extract(request);
    }

    @Override
    public dev.engram.spi.@org.jspecify.annotations.Nullable EntryViews views(String content,
        @org.jspecify.annotations.Nullable String disclosure, List<String> glossary,
        @org.jspecify.annotations.Nullable String path) {
      listener.onModelCall(new ModelCall("views", "openai", "rules-test", IN, OUT, false));
      return null;
    }

    @Override
    public List<CurateOp> curate(CurateRequest request) {
      listener.onModelCall(new ModelCall("curate", "openai", "rules-test", IN, OUT, false));
      return List.of();
    }
  }
}
