/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.engram.DeleteScopeOptions;
import dev.engram.Engram;
import dev.engram.FlushOptions;
import dev.engram.Grants;
import dev.engram.ModelUsageQuery;
import dev.engram.ModelUsageRow;
import dev.engram.SourceRecord;
import dev.engram.WriteOptions;
import dev.engram.reasoner.DeterministicReasoner;
import dev.engram.spi.ExtractRequest;
import dev.engram.spi.ExtractedMemory;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.ModelCall;
import dev.engram.spi.ModelCallListener;
import dev.engram.spi.Reasoner;
import dev.engram.spi.StoreCapability;
import dev.engram.spi.TagProposal;
import dev.engram.spi.TagRequest;
import java.time.Clock;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Model usage per scope and day ({@link StoreCapability#MODEL_USAGE}). Driven through the store SPI
 * (counters added up per scope, day, provider, model and job; read by scope and range of days in order;
 * bound to the transaction's scope; rolled back with it) and through the facade: a reasoner that reports
 * its model calls has each write's and each flushed window's calls counted for the scope they were for,
 * on the day (UTC) they were made; one tenant's usage never shows in another's; {@code deleteScope}
 * erases the counters, beneath the SPI too, a scope whose only data is usage included.
 */
public abstract class ModelUsageContract extends ContractSupport {
  private static final String S1 = Fixtures.S1;
  private static final String S2 = Fixtures.S2;
  private static final Grants U1 = Grants.of(S1);
  private static final Grants U2 = Grants.of(S2);
  private static final LocalDate D1 = LocalDate.parse("2031-05-06");
  private static final LocalDate D2 = LocalDate.parse("2031-05-07");
  private static final String MODEL = "usage-contract-model";

  /**
   * What {@code store} holds beneath the SPI (see {@link StoredRows}).
   *
   * @param store a store made by {@link #createStore()}
   * @return its rows at rest
   */
  protected abstract StoredRows storedRows(MemoryStore store);

  private MemoryStore probe;

  @BeforeEach
  void requireModelUsage() {
    probe = createStore();
    boolean keeps = probe.capabilities().contains(StoreCapability.MODEL_USAGE);
    if (!keeps) {
      probe.close();
    }
    assumeTrue(keeps, "the store does not declare MODEL_USAGE");
  }

  private static ModelUsageRow row(String scope, LocalDate day, String job, long calls, long in, long out, long failed) {
    return new ModelUsageRow(scope, day, "openai", MODEL, job, calls, in, out, failed);
  }

  // ---- the store SPI

  @Test
  void countersAddUpPerScopeDayProviderModelAndJobAndComeBackInOrder() {
    probe.inTransaction(S1, tx -> {
      tx.addModelUsage(List.of(row(S1, D2, "tag", 1, 100, 10, 0), row(S1, D1, "tag", 2, 200, 20, 1)));
      return null;
    });
    probe.inTransaction(S1, tx -> {
      tx.addModelUsage(List.of(row(S1, D2, "tag", 3, 300, 30, 2), row(S1, D2, "extract", 1, 50, 5, 0),
          new ModelUsageRow(S1, D2, "anthropic", "other-model", "tag", 1, 7, 3, 0)));
      return null;
    });
    probe.inTransaction(S2, tx -> {
      tx.addModelUsage(List.of(row(S2, D1, "tag", 9, 900, 90, 0)));
      return null;
    });

    assertThat(probe.modelUsage(List.of(S1), null, null)).containsExactly(
        row(S1, D1, "tag", 2, 200, 20, 1),
        new ModelUsageRow(S1, D2, "anthropic", "other-model", "tag", 1, 7, 3, 0),
        row(S1, D2, "extract", 1, 50, 5, 0),
        row(S1, D2, "tag", 4, 400, 40, 2));
    assertThat(probe.modelUsage(List.of(S1), D2, D2)).hasSize(3).allMatch(r -> r.day().equals(D2));
    assertThat(probe.modelUsage(List.of(S1), null, D1)).containsExactly(row(S1, D1, "tag", 2, 200, 20, 1));
    assertThat(probe.modelUsage(List.of(S2, S1), D1, D1)).containsExactly(
        row(S1, D1, "tag", 2, 200, 20, 1), row(S2, D1, "tag", 9, 900, 90, 0));
    assertThat(probe.modelUsage(List.of("app/user/nobody"), null, null)).isEmpty();
    assertThat(probe.hasScope(S1)).as("a scope holding usage is a scope of the store").isTrue();
  }

  @Test
  void usageOfAnotherScopeIsRefusedAndAFailedTransactionAddsNothing() {
    assertThatThrownBy(() -> probe.inTransaction(S1, tx -> {
      tx.addModelUsage(List.of(row(S1, D1, "tag", 1, 1, 1, 0), row(S2, D1, "tag", 1, 1, 1, 0)));
      return null;
    })).isInstanceOf(IllegalStateException.class);
    assertThat(probe.modelUsage(List.of(S1, S2), null, null)).isEmpty();

    assertThatThrownBy(() -> probe.inTransaction(S1, tx -> {
      tx.addModelUsage(List.of(row(S1, D1, "tag", 1, 1, 1, 0)));
      throw new IllegalArgumentException("the work fails after adding");
    })).isInstanceOf(IllegalArgumentException.class);
    assertThat(probe.modelUsage(List.of(S1), null, null)).isEmpty();
  }

  @Test
  void eraseScopeContentErasesTheScopesUsageOnly() {
    probe.inTransaction(S1, tx -> {
      tx.addModelUsage(List.of(row(S1, D1, "tag", 1, 1, 1, 0)));
      return null;
    });
    probe.inTransaction(S2, tx -> {
      tx.addModelUsage(List.of(row(S2, D1, "tag", 1, 1, 1, 0)));
      return null;
    });
    probe.inTransaction(S1, tx -> tx.eraseScopeContent());
    assertThat(probe.modelUsage(List.of(S1, S2), null, null)).containsExactly(row(S2, D1, "tag", 1, 1, 1, 0));
  }

  // ---- through the facade

  @Test
  void eachWriteAndFlushedWindowIsCountedForItsScopeOnTheDayItWasMade() {
    DayClock clock = new DayClock(D1);
    CostingReasoner reasoner = new CostingReasoner();
    Engram engram = newEngram(probe, reasoner, b -> b.clock(clock));
    engram.write(U1, "Ana prefers window seats.", WriteOptions.defaults());
    engram.write(U1, "Ana drinks her coffee black.", WriteOptions.defaults());
    engram.write(U2, "Ben lives in Lisbon.", WriteOptions.defaults());
    clock.day(D2);
    engram.write(U1, "Ana flies to Oslo on Friday.", WriteOptions.defaults());
    engram.captureAll(U1, List.of(SourceRecord.of("chat", "ana", "I moved to Bergen last spring.").id("c-1")));
    engram.flush(U1, FlushOptions.defaults());

    assertThat(engram.operator().modelUsage(U1, ModelUsageQuery.defaults())).containsExactly(
        row(S1, D1, "tag", 2, 2 * CostingReasoner.IN, 2 * CostingReasoner.OUT, 0),
        row(S1, D2, "extract", 1, CostingReasoner.IN, CostingReasoner.OUT, 0),
        row(S1, D2, "tag", 1, CostingReasoner.IN, CostingReasoner.OUT, 0));
    assertThat(engram.operator().modelUsage(U2, ModelUsageQuery.defaults())).containsExactly(
        row(S2, D1, "tag", 1, CostingReasoner.IN, CostingReasoner.OUT, 0));
    assertThat(engram.operator().modelUsage(U1, ModelUsageQuery.days(D2, D2)))
        .extracting(ModelUsageRow::job).containsExactly("extract", "tag");
    assertThat(engram.operator().modelUsage(Grants.of("app/user"), ModelUsageQuery.defaults()))
        .as("an application grant sees the usage of every tenant below it")
        .extracting(ModelUsageRow::scope).containsExactly(S1, S1, S1, S2);
    assertThat(engram.operator().modelUsage(Grants.of("app/user"),
        ModelUsageQuery.builder().descendants(false).build())).isEmpty();
  }

  @Test
  void aFailedModelCallIsCountedAsAFailureOfTheScopeTheWriteWasFiledIn() {
    CostingReasoner reasoner = new CostingReasoner();
    reasoner.failNextTag.set("the model is down");
    Engram engram = newEngram(probe, reasoner, b -> b.clock(new DayClock(D1)));
    // the deterministic fallback files the write in the first granted namespace
    assertThat(engram.write(U1, "Ana prefers aisle seats.", WriteOptions.defaults()).warnings()).isNotEmpty();

    assertThat(engram.operator().modelUsage(U1, ModelUsageQuery.defaults())).containsExactly(
        row(S1, D1, "tag", 1, 0, 0, 1));
  }

  @Test
  void deleteScopeErasesTheUsageOfTheScopeAndLeavesNoTrace() {
    CostingReasoner reasoner = new CostingReasoner();
    Engram engram = newEngram(probe, reasoner, b -> b.clock(new DayClock(D1)));
    engram.write(U1, "Ana prefers window seats.", WriteOptions.defaults());
    engram.write(U2, "Ben lives in Lisbon.", WriteOptions.defaults());
    assertThat(storedRows(probe).mentioning(MODEL)).isNotEmpty();

    engram.deleteScope(U1, S1, DeleteScopeOptions.defaults());

    assertThat(engram.operator().modelUsage(U1, ModelUsageQuery.defaults())).isEmpty();
    assertThat(engram.operator().modelUsage(U2, ModelUsageQuery.defaults())).hasSize(1);
    engram.deleteScope(U2, S2, DeleteScopeOptions.defaults());
    assertThat(storedRows(probe).mentioning(MODEL)).as("usage rows left after deleteScope").isEmpty();
  }

  @Test
  void aScopeWhoseOnlyDataIsUsageIsErasedByDeleteScope() {
    probe.inTransaction(S1, tx -> {
      tx.addModelUsage(List.of(row(S1, D1, "tag", 1, 1, 1, 1)));
      return null;
    });
    Engram engram = newEngram(probe, new DeterministicReasoner(), b -> b);
    engram.deleteScope(U1, S1, DeleteScopeOptions.defaults());
    assertThat(probe.modelUsage(List.of(S1), null, null)).isEmpty();
    assertThat(storedRows(probe).mentioning(MODEL)).isEmpty();
  }

  /** A clock standing at noon (UTC) of a day the test chooses. */
  private static final class DayClock extends Clock {
    private volatile Instant now;

    DayClock(LocalDate day) {
      day(day);
    }

    void day(LocalDate day) {
      now = day.atTime(12, 0).toInstant(ZoneOffset.UTC);
    }

    @Override
    public Instant instant() {
      return now;
    }

    @Override
    public ZoneId getZone() {
      return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
      return this;
    }
  }

  /**
   * The deterministic reasoner, as if each tag and extraction were one model call of {@value #IN} input
   * and {@value #OUT} output tokens; a tag can be made to fail once.
   */
  private static final class CostingReasoner implements Reasoner {
    static final long IN = 120;
    static final long OUT = 12;
    private final DeterministicReasoner rules = new DeterministicReasoner();
    private final ModelCallListener listener;
    final AtomicReference<String> failNextTag;

    CostingReasoner() {
      this(call -> { }, new AtomicReference<>());
    }

    private CostingReasoner(ModelCallListener listener, AtomicReference<String> failNextTag) {
      this.listener = listener;
      this.failNextTag = failNextTag;
    }

    @Override
    public Reasoner reportingTo(ModelCallListener to) {
      ModelCallListener before = listener;
      return new CostingReasoner(call -> {
        before.onModelCall(call);
        to.onModelCall(call);
      }, failNextTag);
    }

    @Override
    public dev.engram.spi.TagFailure tagFailure() {
      return dev.engram.spi.TagFailure.FILE_DETERMINISTICALLY;
    }

    @Override
    public TagProposal tag(TagRequest request) {
      String failure = failNextTag.getAndSet(null);
      if (failure != null) {
        listener.onModelCall(new ModelCall("tag", "openai", MODEL, 0, 0, true));
        throw new IllegalStateException(failure);
      }
      listener.onModelCall(new ModelCall("tag", "openai", MODEL, IN, OUT, false));
      return rules.tag(request);
    }

    @Override
    public boolean usesContext() {
      return rules.usesContext();
    }

    @Override
    public boolean extracts() {
      return true;
    }

    @Override
    public List<ExtractedMemory> extract(ExtractRequest request) {
      listener.onModelCall(new ModelCall("extract", "openai", MODEL, IN, OUT, false));
      return rules.extract(request);
    }
  }
}
