/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.BatchWriteResult;
import dev.engram.Change;
import dev.engram.ChangeKind;
import dev.engram.Engram;
import dev.engram.EventKind;
import dev.engram.Grants;
import dev.engram.InvalidInputException;
import dev.engram.MemoryEntry;
import dev.engram.MemoryEvent;
import dev.engram.PriorityCapExceededException;
import dev.engram.ReasonerException;
import dev.engram.Revision;
import dev.engram.RevisionConflictException;
import dev.engram.StoreException;
import dev.engram.WriteOptions;
import dev.engram.WriteRequest;
import dev.engram.WriteResult;
import dev.engram.WriteResult.Outcome;
import dev.engram.reasoner.DeterministicReasoner;
import dev.engram.spi.Reasoner;
import dev.engram.spi.TagProposal;
import dev.engram.spi.TagRequest;
import dev.engram.tck.FaultInjectingStore.Step;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * {@link Engram#writeAll}: one transaction and one revision per target scope holding every item of
 * that scope, atomic per scope (a store failure rolls back that scope only), each item checked exactly
 * like a single write and rejected alone, in-batch duplicates deduplicated in request order, and
 * revisions gap-free under faults and concurrency.
 */
public abstract class BatchWriteContract extends ContractSupport {
  private static final String S1 = Fixtures.S1;
  private static final String S2 = Fixtures.S2;
  private static final Grants BOTH = Grants.of(S1, S2);
  private static final Grants U1 = Grants.of(S1);

  /** Files each write into the namespace named by its first topic hint ("to:<ns>"), else the first grant. */
  private static final class ByHintReasoner implements Reasoner {
    @Override
    public TagProposal tag(TagRequest r) {
      String ns = r.grants().get(0);
      List<String> topics = new ArrayList<>();
      for (String hint : r.topicsHint()) {
        if (hint.startsWith("to-")) {
          ns = hint.equals("to-u2") ? S2 : hint.equals("to-u1") ? S1 : "app/user/" + hint.substring(3);
        } else {
          topics.add(hint);
        }
      }
      return new TagProposal(ns, topics.isEmpty() ? List.of("general") : topics,
          r.typeHint() != null ? r.typeHint() : dev.engram.EntryType.FACT, r.content(), null);
    }
  }

  private static WriteRequest to(String target, String content) {
    return WriteRequest.of(content, WriteOptions.builder().topicsHint("to-" + target).build());
  }

  private Engram engram() {
    return newEngram(new ByHintReasoner(), b -> b);
  }

  private static List<Outcome> outcomes(BatchWriteResult r) {
    List<Outcome> out = new ArrayList<>();
    for (BatchWriteResult.Item item : r.items()) {
      out.add(item.ok() ? item.result().outcome() : null);
    }
    return out;
  }

  private static void assertGapFree(Engram e, Grants g, String scope) {
    List<Revision> revisions = e.changes(g, scope, 0);
    assertThat(revisions).extracting(Revision::revision)
        .containsExactlyElementsOf(LongStream.rangeClosed(1, revisions.size()).boxed().toList());
  }

  @Test
  void oneRevisionPerScopeHoldsEveryAppendedEntry() {
    Engram e = engram();
    BatchWriteResult r = e.writeAll(BOTH, List.of(
        to("u1", "Alpha lives in Lisbon"), to("u2", "Beta plays the cello"), to("u1", "Gamma drinks tea"),
        to("u1", "Delta runs marathons"), to("u2", "Epsilon paints")));

    assertThat(r.allWritten()).isTrue();
    assertThat(outcomes(r)).containsOnly(Outcome.APPENDED);
    assertThat(r.items()).extracting(BatchWriteResult.Item::index).containsExactly(0, 1, 2, 3, 4);
    List<Revision> s1 = e.changes(BOTH, S1, 0);
    List<Revision> s2 = e.changes(BOTH, S2, 0);
    assertThat(s1).hasSize(1);
    assertThat(s2).hasSize(1);
    assertThat(s1.get(0).changes()).extracting(Change::kind).containsOnly(ChangeKind.APPEND).hasSize(3);
    assertThat(s1.get(0).changes()).extracting(Change::entryId).containsExactly(
        r.items().get(0).result().entry().entryId(), r.items().get(2).result().entry().entryId(),
        r.items().get(3).result().entry().entryId());
    assertThat(s2.get(0).changes()).hasSize(2);
    for (BatchWriteResult.Item item : r.items()) {
      MemoryEntry entry = item.result().entry();
      assertThat(item.result().revision()).isEqualTo(1);
      assertThat(entry.createdInRevision()).isEqualTo(1);
      assertThat(e.history(BOTH, entry.entryId())).extracting(MemoryEvent::kind).containsExactly(EventKind.CREATE);
    }
    assertThat(e.list(U1)).extracting(MemoryEntry::content)
        .containsExactlyInAnyOrder("Alpha lives in Lisbon", "Gamma drinks tea", "Delta runs marathons");
  }

  @Test
  void duplicatesInsideTheBatchDedupeAgainstEachOtherAndAgainstTheStore() {
    Engram e = engram();
    WriteResult stored = e.write(U1, "Already known", WriteOptions.defaults());
    BatchWriteResult r = e.writeAll(U1, List.of(
        WriteRequest.of("Coffee at nine"), WriteRequest.of("Coffee   at  nine"), WriteRequest.of("Already known"),
        WriteRequest.of("Tea at five"), WriteRequest.of("Coffee at nine")));

    assertThat(outcomes(r)).containsExactly(
        Outcome.APPENDED, Outcome.DEDUPED, Outcome.DEDUPED, Outcome.APPENDED, Outcome.DEDUPED);
    String coffee = r.items().get(0).result().entry().entryId();
    assertThat(r.items().get(1).result().entry().entryId()).isEqualTo(coffee);
    assertThat(r.items().get(4).result().entry().entryId()).isEqualTo(coffee);
    assertThat(r.items().get(2).result().entry().entryId()).isEqualTo(stored.entry().entryId());
    assertThat(r.results()).extracting(WriteResult::revision).containsOnly(2L);
    assertThat(e.list(U1)).hasSize(3);
    assertThat(e.changes(U1, S1, 1)).singleElement()
        .satisfies(rev -> assertThat(rev.changes()).hasSize(2));
  }

  @Test
  void aBatchOfOnlyDuplicatesMakesNoRevision() {
    Engram e = engram();
    e.write(U1, "Known fact", WriteOptions.defaults());
    BatchWriteResult r = e.writeAll(U1, List.of(WriteRequest.of("Known fact"), WriteRequest.of("Known   fact")));
    assertThat(outcomes(r)).containsExactly(Outcome.DEDUPED, Outcome.DEDUPED);
    assertThat(e.changes(U1, S1, 0)).hasSize(1);
    assertThat(r.results()).extracting(WriteResult::revision).containsOnly(1L);
  }

  @Test
  void pathWritesInOneBatchUpdateInRequestOrder() {
    Engram e = engram();
    WriteOptions atPath = WriteOptions.builder().path("profile://home").build();
    BatchWriteResult r = e.writeAll(U1, List.of(
        WriteRequest.of("Lives in Porto", atPath), WriteRequest.of("Lives in Braga", atPath),
        WriteRequest.of("Lives in Braga", atPath)));

    assertThat(outcomes(r)).containsExactly(Outcome.APPENDED, Outcome.UPDATED, Outcome.DEDUPED);
    String id = r.items().get(0).result().entry().entryId();
    assertThat(r.items().get(1).result().entry().entryId()).isEqualTo(id);
    assertThat(e.list(U1)).singleElement().satisfies(m -> {
      assertThat(m.content()).isEqualTo("Lives in Braga");
      assertThat(m.version()).isEqualTo(2);
    });
    assertThat(e.changes(U1, S1, 0)).singleElement().satisfies(rev -> assertThat(rev.changes())
        .extracting(Change::kind).containsExactly(ChangeKind.APPEND, ChangeKind.UPDATE, ChangeKind.SUPERSEDE));
  }

  @Test
  void eachRejectedItemCarriesTheErrorASingleWriteWouldThrowAndTheOthersAreWritten() {
    Engram e = newEngram(new ByHintReasoner(), b -> b.priorityCaps(1, 5));
    e.write(U1, "Before the batch", WriteOptions.defaults());
    WriteOptions core = WriteOptions.builder().priority(0).build();
    List<WriteRequest> batch = List.of(
        WriteRequest.of("First core fact", core),
        WriteRequest.of("   "),
        WriteRequest.of("Second core fact", core),
        to("u9", "Into a scope the grants do not hold"),
        WriteRequest.of("Expects revision 7", WriteOptions.builder().expectedRevision(7L).build()),
        WriteRequest.of("Expects the head before the batch", WriteOptions.builder().expectedRevision(1L).build()),
        WriteRequest.of("A plain fact"));
    BatchWriteResult r = e.writeAll(U1, batch);

    assertThat(outcomes(r)).containsExactly(Outcome.APPENDED, null, null, null, null, Outcome.APPENDED, Outcome.APPENDED);
    assertThat(r.items().get(1).error()).isInstanceOf(InvalidInputException.class).hasMessageContaining("content");
    assertThat(r.items().get(2).error()).isInstanceOf(PriorityCapExceededException.class);
    assertThat(r.items().get(3).error()).isInstanceOf(ReasonerException.class).hasMessageContaining("not writable");
    assertThat(r.items().get(4).error()).isInstanceOf(RevisionConflictException.class);
    assertThat(r.rejected()).extracting(BatchWriteResult.Item::index).containsExactly(1, 2, 3, 4);

    // the same items one by one fail the same way
    assertThatThrownBy(() -> e.write(U1, "Second core fact", core)).isInstanceOf(PriorityCapExceededException.class);
    assertThatThrownBy(() -> e.write(U1, "   ", WriteOptions.defaults())).isInstanceOf(InvalidInputException.class);

    assertThat(e.changes(U1, S1, 1)).singleElement().satisfies(rev -> assertThat(rev.changes()).hasSize(3));
    assertThat(e.list(U1)).extracting(MemoryEntry::content).containsExactlyInAnyOrder(
        "Before the batch", "First core fact", "Expects the head before the batch", "A plain fact");
    assertGapFree(e, U1, S1);
  }

  @Test
  void aCapFreedEarlierInTheBatchCountsForTheItemsAfterIt() {
    Engram e = newEngram(new ByHintReasoner(), b -> b.priorityCaps(1, 5));
    WriteOptions coreAt = WriteOptions.builder().priority(0).path("core://agent").build();
    e.write(U1, "Agent v1", coreAt);
    // an update of the one core entry keeps the count at the cap, it does not pass it
    BatchWriteResult r = e.writeAll(U1, List.of(WriteRequest.of("Agent v2", coreAt), WriteRequest.of("Agent v3", coreAt)));
    assertThat(outcomes(r)).containsExactly(Outcome.UPDATED, Outcome.UPDATED);
    assertThat(e.list(U1)).singleElement().satisfies(m -> assertThat(m.version()).isEqualTo(3));
  }

  @Test
  void aStoreFailureRollsBackItsScopeOnlyAndRevisionsStayGapFree() {
    for (Step step : List.of(Step.INSERT_VERSION, Step.APPEND_REVISION, Step.APPEND_EVENT, Step.MARK_TOPICS_WRITTEN)) {
      FaultInjectingStore store = new FaultInjectingStore(createStore());
      Engram e = newEngram(store, new ByHintReasoner(), b -> b);
      e.writeAll(BOTH, List.of(to("u1", "Seed one"), to("u2", "Seed two")));
      StoreSnapshot before = StoreSnapshot.of(store, List.of(S1));

      // the second version of S1's transaction fails mid-batch (for the other steps: S1's one revision)
      store.failAfter(step, step == Step.INSERT_VERSION ? 2 : 1);
      List<WriteRequest> batch = List.of(
          to("u1", "One " + step), to("u2", "Two " + step), to("u1", "Three " + step), to("u1", "Four " + step));
      BatchWriteResult r = e.writeAll(BOTH, batch);

      assertThat(store.faultsInjected()).as("fault after %s", step).isEqualTo(1);
      for (int i : new int[] {0, 2, 3}) {
        assertThat(r.items().get(i).error()).as("item %d after %s", i, step)
            .isInstanceOf(StoreException.class).hasMessageContaining("injected fault");
      }
      assertThat(r.items().get(1).result().outcome()).isEqualTo(Outcome.APPENDED);
      StoreSnapshot now = StoreSnapshot.of(store, List.of(S1));
      assertThat(now.versions()).as("S1 versions after %s", step).isEqualTo(before.versions());
      assertThat(now.events()).as("S1 events after %s", step).isEqualTo(before.events());
      assertThat(now.revisions()).as("S1 revisions after %s", step).isEqualTo(before.revisions());
      assertThat(now.heads()).as("S1 head after %s", step).isEqualTo(before.heads());
      assertThat(now.topics()).as("S1 topics after %s", step).isEqualTo(before.topics());
      assertThat(e.changes(BOTH, S2, 0)).hasSize(2);

      BatchWriteResult again = e.writeAll(BOTH, batch);
      assertThat(outcomes(again)).containsExactly(Outcome.APPENDED, Outcome.DEDUPED, Outcome.APPENDED, Outcome.APPENDED);
      assertThat(e.changes(BOTH, S1, 1)).singleElement().satisfies(rev -> assertThat(rev.changes()).hasSize(3));
      assertGapFree(e, BOTH, S1);
      assertGapFree(e, BOTH, S2);
    }
  }

  @Test
  void theBulkHashLookupAnswersAsTheSingleOne() {
    dev.engram.spi.MemoryStore store = createStore();
    Engram e = newEngram(store, new ByHintReasoner(), b -> b);
    BatchWriteResult r = e.writeAll(BOTH, List.of(to("u1", "Hash one"), to("u1", "Hash two"), to("u2", "Hash three"),
        WriteRequest.of("Hash at a path", WriteOptions.builder().path("notes://p").build())));
    List<String> hashes = new ArrayList<>();
    for (WriteResult w : r.results()) {
      hashes.add(w.entry().contentHash());
    }
    hashes.add("0".repeat(64));
    java.util.Map<String, MemoryEntry> found = store.findActiveByHashes(S1, hashes);
    for (String h : hashes) {
      assertThat(java.util.Optional.ofNullable(found.get(h))).as("hash %s", h).isEqualTo(store.findActiveByHash(S1, h));
    }
    assertThat(found).hasSize(3);
    java.util.Map<String, MemoryEntry> inTx = store.inTransaction(S1, tx -> tx.findActiveByHashes(S1, hashes));
    assertThat(inTx).isEqualTo(found);
    assertThat(store.findActiveByHashes(S1, List.of())).isEmpty();
  }

  @Test
  void aSingleWriteIsTheBatchOfOne() {
    Engram e = engram();
    WriteResult one = e.write(U1, "Only fact", WriteOptions.defaults());
    BatchWriteResult batch = e.writeAll(U1, List.of(WriteRequest.of("Other fact")));
    assertThat(batch.items()).singleElement().satisfies(item -> {
      assertThat(item.result().outcome()).isEqualTo(one.outcome());
      assertThat(item.result().revision()).isEqualTo(one.revision() + 1);
      assertThat(item.result().warnings()).isEqualTo(one.warnings());
    });
    assertThat(e.writeAll(U1, List.of()).items()).isEmpty();
    assertThat(e.changes(U1, S1, 0)).hasSize(2);
  }

  @Test
  void badArgumentsFailTheCallBeforeAnythingIsWritten() {
    Engram e = engram();
    List<WriteRequest> tooMany = new ArrayList<>();
    for (int i = 0; i <= Engram.MAX_BATCH_WRITES; i++) {
      tooMany.add(WriteRequest.of("fact " + i));
    }
    assertThatThrownBy(() -> e.writeAll(U1, tooMany)).isInstanceOf(InvalidInputException.class)
        .hasMessageContaining(String.valueOf(Engram.MAX_BATCH_WRITES));
    List<WriteRequest> withNull = new ArrayList<>();
    withNull.add(WriteRequest.of("fine"));
    withNull.add(null);
    assertThatThrownBy(() -> e.writeAll(U1, withNull)).isInstanceOf(NullPointerException.class)
        .hasMessageContaining("requests[1]");
    assertThatThrownBy(() -> WriteRequest.of("x", null)).isInstanceOf(NullPointerException.class);
    assertThat(e.list(U1)).isEmpty();
    assertThat(e.changes(U1, S1, 0)).isEmpty();
  }

  @Test
  void concurrentBatchesIntoOneScopeLoseNothingAndKeepRevisionsGapFree() throws Exception {
    Engram e = newEngram(new DeterministicReasoner(), b -> b);
    int threads = 4;
    int batches = 5;
    int perBatch = 20;
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    List<Future<List<BatchWriteResult>>> futures = new ArrayList<>();
    for (int t = 0; t < threads; t++) {
      int thread = t;
      futures.add(pool.submit(() -> {
        List<BatchWriteResult> out = new ArrayList<>();
        for (int b = 0; b < batches; b++) {
          List<WriteRequest> batch = new ArrayList<>();
          for (int i = 0; i < perBatch; i++) {
            // every thread also writes the shared facts: exactly one of them appends each
            batch.add(WriteRequest.of(i % 4 == 0 ? "Shared fact " + b + "/" + i : "Fact " + thread + "/" + b + "/" + i));
          }
          out.add(e.writeAll(U1, batch));
        }
        return out;
      }));
    }
    pool.shutdown();
    assertThat(pool.awaitTermination(120, TimeUnit.SECONDS)).isTrue();
    Set<String> ids = new HashSet<>();
    int appended = 0;
    for (Future<List<BatchWriteResult>> f : futures) {
      for (BatchWriteResult r : f.get()) {
        assertThat(r.allWritten()).isTrue();
        appended += r.count(Outcome.APPENDED);
        r.results().forEach(w -> ids.add(w.entry().entryId()));
      }
    }
    int shared = batches * perBatch / 4;
    int own = threads * batches * perBatch * 3 / 4;
    assertThat(appended).isEqualTo(shared + own);
    assertThat(ids).hasSize(shared + own);
    assertThat(e.list(U1)).hasSize(shared + own);
    List<Revision> revisions = e.changes(U1, S1, 0);
    assertGapFree(e, U1, S1);
    assertThat(revisions.stream().mapToInt(rev -> rev.changes().size()).sum()).isEqualTo(shared + own);
  }
}
