/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.observation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.ContextRequest;
import dev.engram.Engram;
import dev.engram.EntryPatch;
import dev.engram.Grants;
import dev.engram.ImportOptions;
import dev.engram.ListOptions;
import dev.engram.MemoryEntry;
import dev.engram.NotFoundException;
import dev.engram.SearchRequest;
import dev.engram.SourceQuery;
import dev.engram.SourceRecord;
import dev.engram.WriteOptions;
import dev.engram.WriteRequest;
import dev.engram.reasoner.DeterministicReasoner;
import dev.engram.spi.Embedder;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.Reasoner;
import dev.engram.store.inmemory.InMemoryMemoryStore;
import dev.engram.test.HashingEmbedder;
import io.micrometer.common.KeyValue;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import java.io.StringReader;
import java.io.StringWriter;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class EngramObservationTest {
  private static final String SCOPE = "app/user/u7";
  private static final Grants GRANTS = Grants.of(SCOPE);
  private static final String SECRET = "Quokkas nap in the shade at Rottnest";

  /** Every observation that stopped, with its name and key values. */
  private static final class Recorder implements ObservationHandler<Observation.Context> {
    final List<Observation.Context> stopped = new CopyOnWriteArrayList<>();

    @Override
    public void onStop(Observation.Context context) {
      stopped.add(context);
    }

    @Override
    public boolean supportsContext(Observation.Context context) {
      return true;
    }

    List<Observation.Context> named(String name) {
      return stopped.stream().filter(c -> c.getName().equals(name)).toList();
    }

    Map<String, String> low(Observation.Context c) {
      Map<String, String> out = new TreeMap<>();
      for (KeyValue kv : c.getLowCardinalityKeyValues()) {
        out.put(kv.getKey(), kv.getValue());
      }
      return out;
    }

    List<String> operations() {
      return named(EngramObservation.OPERATION).stream().map(c -> low(c).get(EngramObservation.OPERATION_KEY)).toList();
    }
  }

  private static Engram observed(ObservationRegistry registry) {
    MemoryStore store = EngramObservation.observe(new InMemoryMemoryStore(), registry);
    Reasoner reasoner = EngramObservation.observe(new DeterministicReasoner(), registry);
    Embedder embedder = EngramObservation.observe(new HashingEmbedder(), registry);
    return EngramObservation.observe(
        Engram.builder().store(store).reasoner(reasoner).embedder(embedder).build(), store, registry);
  }

  @Test
  void everyOperationIsOneObservationWithLowCardinalityTagsOnly() {
    ObservationRegistry registry = ObservationRegistry.create();
    Recorder recorder = new Recorder();
    registry.observationConfig().observationHandler(recorder);
    Engram engram = observed(registry);

    MemoryEntry e = engram.write(GRANTS, SECRET, WriteOptions.builder().topicsHint("nature").build()).entry();
    engram.writeAll(GRANTS, List.of(WriteRequest.of("Wombats dig square burrows near the creek")));
    engram.read(GRANTS, "nature");
    engram.scan(GRANTS);
    engram.list(GRANTS, ListOptions.defaults());
    engram.get(GRANTS, e.entryId());
    engram.history(GRANTS, e.entryId());
    engram.search(GRANTS, SearchRequest.of("quokkas shade"));
    engram.prepareContext(GRANTS, ContextRequest.of("where do quokkas nap"));
    MemoryEntry corrected = engram.correct(GRANTS, e.entryId(), SECRET + " every afternoon");
    engram.update(GRANTS, corrected.entryId(), EntryPatch.priority(1));
    engram.revision(GRANTS, SCOPE);
    engram.changes(GRANTS, SCOPE, 0);
    engram.capture(GRANTS, SourceRecord.of("s1", "user", "I saw a quokka today"));
    engram.sources(GRANTS, SourceQuery.defaults());
    engram.curate(GRANTS);
    engram.flush(GRANTS);
    StringWriter out = new StringWriter();
    engram.operator().export(GRANTS, out);
    engram.operator().reindex(GRANTS);
    engram.operator().vectorCacheStats();
    engram.operator().listDirtyTopics(10);
    engram.review().list(GRANTS);
    engram.experience().list(GRANTS, dev.engram.ExperienceListOptions.defaults());
    Engram copy = observed(registry);
    copy.operator().importFrom(GRANTS, new StringReader(out.toString()), ImportOptions.validateOnly());
    assertThatThrownBy(() -> engram.get(GRANTS, "no-such-entry")).isInstanceOf(NotFoundException.class);
    engram.deleteScope(GRANTS, SCOPE);

    assertThat(recorder.operations()).containsSubsequence(
        "write", "writeAll", "read", "scan", "list", "get", "history", "search", "prepareContext", "correct",
        "update", "revision", "changes", "captureAll", "sources", "curate", "flush", "operator.export",
        "operator.reindex", "operator.vectorCacheStats", "operator.listDirtyTopics", "review.list",
        "experience.list", "operator.importFrom", "get",
        "deleteScope");
    // a convenience overload is observed once, as the call it makes
    assertThat(recorder.operations().stream().filter("write"::equals)).hasSize(1);

    for (Observation.Context c : recorder.named(EngramObservation.OPERATION)) {
      Map<String, String> tags = recorder.low(c);
      assertThat(tags).containsEntry(EngramObservation.STORE, "inmemory").containsKey(EngramObservation.OUTCOME);
    }
    Observation.Context search = recorder.named(EngramObservation.OPERATION).stream()
        .filter(c -> "search".equals(recorder.low(c).get(EngramObservation.OPERATION_KEY))).findFirst().orElseThrow();
    assertThat(recorder.low(search)).containsEntry(EngramObservation.SEARCH_MODE, "hybrid")
        .containsEntry(EngramObservation.OUTCOME, "success");
    Observation.Context failed = recorder.named(EngramObservation.OPERATION).stream()
        .filter(c -> "not_found".equals(recorder.low(c).get(EngramObservation.OUTCOME))).findFirst().orElseThrow();
    assertThat(failed.getError()).isInstanceOf(NotFoundException.class);
    assertThat(recorder.named(EngramObservation.EMBEDDING)).isNotEmpty()
        .allSatisfy(c -> assertThat(recorder.low(c)).containsEntry(EngramObservation.PROFILE, new HashingEmbedder().profile().id()));
    assertThat(recorder.named(EngramObservation.REASONER)).isNotEmpty()
        .allSatisfy(c -> assertThat(recorder.low(c)).containsEntry(EngramObservation.REASONER_KIND, "deterministic")
            .containsEntry(EngramObservation.MODEL, "none"));
    // every write and the curation ran in store transactions, each timed on its own
    assertThat(recorder.named(EngramObservation.TRANSACTION)).hasSizeGreaterThanOrEqualTo(4)
        .allSatisfy(c -> assertThat(recorder.low(c)).containsEntry(EngramObservation.STORE, "inmemory")
            .containsEntry(EngramObservation.STORE_CALL, "inTransaction").containsKey(EngramObservation.NESTED)
            .containsKey(EngramObservation.OUTCOME));

    // no tag carries content, a namespace or an id
    List<String> forbidden = new ArrayList<>(List.of(SCOPE, "app/user", e.entryId(), e.versionId(), corrected.versionId(),
        "Quokkas", "quokka", "Wombats", "no-such-entry"));
    for (Observation.Context c : recorder.stopped) {
      for (KeyValue kv : c.getLowCardinalityKeyValues()) {
        for (String f : forbidden) {
          assertThat(kv.getValue()).as(c.getName() + " " + kv.getKey()).doesNotContainIgnoringCase(f);
        }
      }
      assertThat(c.getContextualName()).doesNotContain(SCOPE).doesNotContainIgnoringCase("quokka");
    }
  }

  @Test
  void aCorrelationIdIsAHighCardinalityKeyValueOnly() {
    ObservationRegistry registry = ObservationRegistry.create();
    Recorder recorder = new Recorder();
    registry.observationConfig().observationHandler(recorder);
    Engram engram = observed(registry);
    EngramObservation.withCorrelation("req-4711", () -> engram.write(GRANTS, "Echidnas have no teeth"));
    assertThatThrownBy(() -> EngramObservation.withCorrelation("bad\nid", () -> null))
        .isInstanceOf(dev.engram.InvalidInputException.class).hasMessageContaining("correlationId");
    engram.scan(GRANTS);
    Observation.Context write = recorder.named(EngramObservation.OPERATION).get(0);
    assertThat(write.getHighCardinalityKeyValue(EngramObservation.CORRELATION).getValue()).isEqualTo("req-4711");
    assertThat(recorder.low(write)).doesNotContainValue("req-4711");
    Observation.Context scan = recorder.named(EngramObservation.OPERATION).stream()
        .filter(c -> "scan".equals(recorder.low(c).get(EngramObservation.OPERATION_KEY))).findFirst().orElseThrow();
    assertThat(scan.getHighCardinalityKeyValue(EngramObservation.CORRELATION)).isNull();
  }

  @Test
  void withTheNoopRegistryCallsGoStraightThrough() {
    Engram engram = observed(ObservationRegistry.NOOP);
    assertThat(engram.write(GRANTS, "Platypuses glow under ultraviolet light").entry().content())
        .isEqualTo("Platypuses glow under ultraviolet light");
    assertThat(engram.search(GRANTS, "platypuses").hits()).isNotEmpty();
  }

  @Test
  void theObservedStoreTimesEachTransactionAndForwardsEverythingElse() throws Exception {
    ObservationRegistry registry = ObservationRegistry.create();
    Recorder recorder = new Recorder();
    registry.observationConfig().observationHandler(recorder);
    InMemoryMemoryStore plain = new InMemoryMemoryStore();
    MemoryStore store = EngramObservation.observe(plain, registry);
    assertThat(store.capabilities()).isEqualTo(plain.capabilities());
    assertThat(store.toString()).isEqualTo(plain.toString());
    assertThat(store).isEqualTo(store).isNotEqualTo(plain);

    Integer nested = store.inTransaction(SCOPE, tx -> store.inTransaction("app/user/u8", inner -> 7));
    assertThat(nested).isEqualTo(7);
    IllegalStateException boom = new IllegalStateException("work failed");
    assertThatThrownBy(() -> store.inTransaction(SCOPE, tx -> {
      throw boom;
    })).isSameAs(boom);

    List<Observation.Context> tx = recorder.named(EngramObservation.TRANSACTION);
    assertThat(tx).extracting(c -> recorder.low(c).get(EngramObservation.NESTED)).containsExactly("true", "false", "false");
    assertThat(tx).extracting(c -> recorder.low(c).get(EngramObservation.OUTCOME))
        .containsExactly("success", "success", "error");
    assertThat(tx.get(2).getError()).isSameAs(boom);
    // the engine's observation names the kind of the store under the wrapper
    Engram engram = EngramObservation.observe(Engram.builder().store(store).reasoner(new DeterministicReasoner()).build(),
        store, registry);
    engram.write(GRANTS, "Echidnas lay eggs");
    assertThat(recorder.low(recorder.named(EngramObservation.OPERATION).get(0)))
        .containsEntry(EngramObservation.STORE, "inmemory");
    engram.close();
  }

  /** A reasoner that calls a "model" for every tag job and reports it, as {@code LlmReasoner} does. */
  private static final class ReportingReasoner implements Reasoner {
    private final DeterministicReasoner rules = new DeterministicReasoner();
    private final dev.engram.spi.ModelCallListener listener;

    ReportingReasoner(dev.engram.spi.ModelCallListener listener) {
      this.listener = listener;
    }

    @Override
    public dev.engram.spi.TagProposal tag(dev.engram.spi.TagRequest request) {
      listener.onModelCall(new dev.engram.spi.ModelCall("tag", "loopback", "tiny-model-1", 12, 3, false));
      return rules.tag(request);
    }

    @Override
    public Reasoner reportingTo(dev.engram.spi.ModelCallListener next) {
      return new ReportingReasoner(next);
    }
  }

  @Test
  void aReasonerJobIsTaggedWithTheModelItCalled() {
    ObservationRegistry registry = ObservationRegistry.create();
    Recorder recorder = new Recorder();
    registry.observationConfig().observationHandler(recorder);
    Engram engram = Engram.builder().store(new InMemoryMemoryStore())
        .reasoner(EngramObservation.observe(new ReportingReasoner(call -> { }), registry)).build();
    engram.write(GRANTS, "Cassowaries are the most dangerous birds");
    List<dev.engram.ModelUsageRow> usage = engram.operator().modelUsage(GRANTS, dev.engram.ModelUsageQuery.defaults());
    engram.close();
    assertThat(recorder.named(EngramObservation.REASONER)).isNotEmpty()
        .allSatisfy(c -> assertThat(recorder.low(c)).containsEntry(EngramObservation.MODEL_PROVIDER, "loopback")
            .containsEntry(EngramObservation.MODEL, "tiny-model-1").containsEntry(EngramObservation.JOB, "tag"));
    // the engine still receives the calls it counts per scope
    assertThat(usage).singleElement().satisfies(r -> {
      assertThat(r.model()).isEqualTo("tiny-model-1");
      assertThat(r.inputTokens()).isEqualTo(12);
    });
  }

  @Test
  void theObservedReasonerForwardsEveryMethodOfTheSpi() throws Exception {
    for (Method m : Reasoner.class.getMethods()) {
      if (Modifier.isStatic(m.getModifiers())) {
        continue;
      }
      Method own = ObservedReasoner.class.getMethod(m.getName(), m.getParameterTypes());
      assertThat(own.getDeclaringClass()).as(m.getName() + Arrays.toString(m.getParameterTypes()))
          .isEqualTo(ObservedReasoner.class);
    }
    for (Method m : Embedder.class.getMethods()) {
      assertThat(ObservedEmbedder.class.getMethod(m.getName(), m.getParameterTypes()).getDeclaringClass())
          .isEqualTo(ObservedEmbedder.class);
    }
    for (Method m : Engram.class.getMethods()) {
      if (Modifier.isStatic(m.getModifiers()) || m.isDefault()) {
        continue;
      }
      assertThat(ObservedEngram.class.getMethod(m.getName(), m.getParameterTypes()).getDeclaringClass())
          .as(m.toString()).isEqualTo(ObservedEngram.class);
    }
  }
}
