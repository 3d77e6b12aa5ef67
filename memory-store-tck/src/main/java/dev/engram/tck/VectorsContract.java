/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.engram.CapabilityNotSupportedException;
import dev.engram.Engram;
import dev.engram.Grants;
import dev.engram.MemoryEntry;
import dev.engram.SearchChannel;
import dev.engram.SearchHit;
import dev.engram.SearchMode;
import dev.engram.SearchResult;
import dev.engram.SearchSettings;
import dev.engram.VectorCacheStats;
import dev.engram.WriteResult;
import dev.engram.reasoner.DeterministicReasoner;
import dev.engram.spi.Embedder;
import dev.engram.spi.EmbeddingProfile;
import dev.engram.spi.MemoryStore;
import dev.engram.test.HashingEmbedder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;

/**
 * The vector channel's robustness: write-time embedding gaps are reported and judged per scope,
 * a stalled embedder holds neither writes nor threads, vectors stored by another engine (reindex) are
 * seen, and the block cache stays within its bound and gives the answers a cold load gives.
 */
public abstract class VectorsContract extends ContractSupport {
  private static final Grants U1 = Grants.of("app/user/u1");
  private static final Grants APP = Grants.of("app");

  private static void seed(Engram engram) {
    write(engram, U1, "Refund webhooks are idempotent by event id.", "payments");
    write(engram, U1, "The team meets every Tuesday morning for planning.", "schedule");
    write(engram, U1, "Prefers metric units for every workout log.", "preferences");
  }

  // ---- gaps

  @Test
  void aFailedWriteTimeEmbeddingIsReportedOnTheWriteResult() {
    HashingEmbedder embedder = new HashingEmbedder();
    Engram engram = newEngram(new DeterministicReasoner(), b -> b.embedder(embedder));
    WriteResult fine = write(engram, U1, "Refund webhooks are idempotent by event id.", "payments");
    assertThat(fine.vectorsMissing()).isFalse();
    assertThat(fine.warnings()).noneMatch(w -> w.contains("vectors"));

    embedder.failing(true);
    WriteResult gap = write(engram, U1, "Quarterly taxes are filed by the accountant.", "finance");
    embedder.failing(false);
    assertThat(gap.outcome()).isEqualTo(WriteResult.Outcome.APPENDED);
    assertThat(gap.vectorsMissing()).isTrue();
    assertThat(gap.warnings()).anySatisfy(w -> assertThat(w).contains("stored without vectors")
        .contains("embedding service unavailable").contains("reindex"));
    assertThat(engram.get(U1, gap.entry().entryId()).content()).isEqualTo("Quarterly taxes are filed by the accountant.");

    assertThat(engram.operator().reindex(U1)).isEqualTo(1);
    assertThat(search(engram, U1, "taxes accountant", SearchMode.VECTOR).hits().get(0).entry().entryId())
        .isEqualTo(gap.entry().entryId());
  }

  /** Returns vectors of subnormal values (1e-39) for texts that mention "subnormal", hashed ones otherwise. */
  private static final class SubnormalEmbedder implements Embedder {
    private final HashingEmbedder inner = new HashingEmbedder("tck-subnormal", 8);

    @Override
    public EmbeddingProfile profile() {
      return inner.profile();
    }

    @Override
    public List<float[]> embed(List<String> texts) {
      List<float[]> out = new ArrayList<>(inner.embed(texts));
      for (int i = 0; i < texts.size(); i++) {
        if (texts.get(i).toLowerCase(java.util.Locale.ROOT).contains("subnormal")) {
          float[] tiny = new float[inner.profile().dimension()];
          java.util.Arrays.fill(tiny, 1e-39f);
          out.set(i, tiny);
        }
      }
      return out;
    }
  }

  @Test
  void aVectorTooSmallToNormalizeIsRefusedLikeAZeroVector() {
    Engram engram = newEngram(new DeterministicReasoner(), b -> b.embedder(new SubnormalEmbedder()));
    WriteResult fine = write(engram, U1, "Green tea is brewed at eighty degrees.", "tea");
    assertThat(fine.vectorsMissing()).isFalse();

    WriteResult tiny = write(engram, U1, "Subnormal tea facts are stored as text.", "tea");

    assertThat(tiny.outcome()).isEqualTo(WriteResult.Outcome.APPENDED);
    assertThat(tiny.vectorsMissing()).isTrue();
    assertThat(tiny.warnings()).anySatisfy(w -> assertThat(w).contains("stored without vectors")
        .contains("too small to normalize"));
    assertThat(engram.get(U1, tiny.entry().entryId()).content()).isEqualTo("Subnormal tea facts are stored as text.");
    // the scope's vectors are incomplete: an explicit hybrid search says so instead of ranking an Infinity
    assertThatThrownBy(() -> search(engram, U1, "tea", SearchMode.HYBRID))
        .isInstanceOf(CapabilityNotSupportedException.class);
    SearchResult auto = search(engram, U1, "tea", SearchMode.AUTO);
    assertThat(auto.hits()).extracting(h -> h.entry().entryId())
        .contains(fine.entry().entryId(), tiny.entry().entryId());
    assertThat(auto.hits()).allSatisfy(h -> assertThat(h.cosine() == null || Double.isFinite(h.cosine())).isTrue());
    // a query vector too small to normalize is refused too: the search falls back to full text, and says so
    Grants u2 = Grants.of("app/user/u2");
    write(engram, u2, "Oolong tea leaves are rolled.", "tea");
    SearchResult query = search(engram, u2, "subnormal tea", SearchMode.AUTO);
    assertThat(query.used()).isEqualTo(SearchMode.FTS);
    assertThat(query.fallbackReason()).contains("too small to normalize");
  }

  /** One gap in the shared scope {@code app} leaves the users below it on hybrid search, with a warning. */
  @Test
  void aGapInASharedScopeIsJudgedForThatScopeOnly() {
    HashingEmbedder embedder = new HashingEmbedder();
    // the gap stays until reindex (manyVersionsWithoutVectorsAreCompletedInTheBackground has the default)
    Engram engram = newEngram(new DeterministicReasoner(), b -> b.embedder(embedder).backgroundVectorCompletion(false));
    seed(engram);
    embedder.failing(true);
    MemoryEntry shared = write(engram, APP, "Tuesday planning notes are shared with every team.", "schedule").entry();
    // more versions than a search completes by itself
    for (int i = 0; i < 16; i++) {
      write(engram, APP, "Shared note " + i + " about invoices.", "notes");
    }
    embedder.failing(false);

    SearchResult below = search(engram, U1, "team planning Tuesday", SearchMode.AUTO);
    assertThat(below.used()).isEqualTo(SearchMode.HYBRID);
    assertThat(below.fallbackReason()).isNull();
    assertThat(below.warnings()).singleElement().satisfies(w -> assertThat(w).contains("incomplete")
        .contains("17 active entries in app ").contains("full text only"));
    assertThat(below.hits().get(0).entry().content()).isEqualTo("The team meets every Tuesday morning for planning.");
    assertThat(below.hits().get(0).matchedBy()).contains(SearchChannel.VECTOR);
    // the entry without vectors is still found, by full text only
    assertThat(below.hits()).filteredOn(h -> h.entry().entryId().equals(shared.entryId())).singleElement()
        .satisfies(h -> assertThat(h.matchedBy()).containsExactly(SearchChannel.FTS));
    // the incomplete scope alone falls back, and explicit modes stay strict
    SearchResult atApp = search(engram, APP, "planning notes", SearchMode.AUTO);
    assertThat(atApp.used()).isEqualTo(SearchMode.FTS);
    assertThat(atApp.fallbackReason()).contains("incomplete").contains("app");
    assertThatThrownBy(() -> search(engram, U1, "planning", SearchMode.VECTOR))
        .isInstanceOf(CapabilityNotSupportedException.class).hasMessageContaining("in app ");

    engram.operator().reindex(APP);
    SearchResult after = search(engram, U1, "team planning Tuesday", SearchMode.AUTO);
    assertThat(after.used()).isEqualTo(SearchMode.HYBRID);
    assertThat(after.warnings()).isEmpty();
  }

  /** A write whose embedding failed is completed by the next search once the embedder is back. */
  @Test
  void aFewVersionsWithoutVectorsAreCompletedByTheNextSearch() {
    HashingEmbedder embedder = new HashingEmbedder();
    MemoryStore store = createStore();
    Engram engram = newEngram(store, new DeterministicReasoner(), b -> b.embedder(embedder));
    seed(engram);
    embedder.failing(true);
    MemoryEntry gap = write(engram, U1, "Quarterly taxes are filed by the accountant.", "finance").entry();
    embedder.failing(false);
    assertThat(store.countActiveWithoutVectors("app/user/u1", embedder.profile().id())).isEqualTo(1);

    SearchResult r = search(engram, U1, "taxes accountant", SearchMode.AUTO);
    assertThat(r.used()).isEqualTo(SearchMode.HYBRID);
    assertThat(r.warnings()).isEmpty();
    assertThat(r.fallbackReason()).isNull();
    assertThat(r.hits()).filteredOn(h -> h.entry().entryId().equals(gap.entryId())).singleElement()
        .satisfies(h -> assertThat(h.matchedBy()).contains(SearchChannel.VECTOR));
    assertThat(store.countActiveWithoutVectors("app/user/u1", embedder.profile().id())).isZero();
  }

  /**
   * A writer without the embedder left more versions without vectors than a search completes itself: the
   * search says the scope is being completed in the background, and once that is done the scope is searched
   * by vectors again, with nobody calling reindex.
   */
  @Test
  void manyVersionsWithoutVectorsAreCompletedInTheBackground() throws InterruptedException {
    MemoryStore store = createStore();
    Engram without = newEngram(store, new DeterministicReasoner(), b -> b);
    for (int i = 0; i < 40; i++) {
      write(without, U1, "Ledger note " + i + ": quarterly taxes of client " + (char) ('a' + i % 26) + ".", "finance");
    }
    HashingEmbedder embedder = new HashingEmbedder();
    Engram engram = newEngram(store, new DeterministicReasoner(), b -> b.embedder(embedder));
    assertThat(store.countActiveWithoutVectors("app/user/u1", embedder.profile().id())).isEqualTo(40);

    SearchResult first = search(engram, U1, "quarterly taxes", SearchMode.AUTO);
    assertThat(first.used()).isEqualTo(SearchMode.FTS);
    assertThat(first.hits()).isNotEmpty();
    assertThat(first.warnings()).anySatisfy(w -> assertThat(w).contains("40 active entries in app/user/u1")
        .contains("being completed in the background"));

    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (store.countActiveWithoutVectors("app/user/u1", embedder.profile().id()) > 0 && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    assertThat(store.countActiveWithoutVectors("app/user/u1", embedder.profile().id())).isZero();
    SearchResult later = search(engram, U1, "quarterly taxes", SearchMode.AUTO);
    assertThat(later.used()).isEqualTo(SearchMode.HYBRID);
    assertThat(later.warnings()).isEmpty();
  }

  // ---- stalled embedders

  @Test
  void aStalledEmbedderDoesNotHoldAWrite() {
    HashingEmbedder embedder = new HashingEmbedder();
    MemoryStore store = createStore();
    // seeded with the default timeout, so a slow machine cannot leave the seed without vectors
    seed(newEngram(store, new DeterministicReasoner(), b -> b.embedder(new HashingEmbedder())));
    Engram engram = newEngram(store, new DeterministicReasoner(), b -> b.embedder(embedder)
        .searchSettings(SearchSettings.builder().embedTimeout(Duration.ofMillis(100)).build()));
    embedder.stalling(60_000);
    WriteResult w = write(engram, U1, "Quarterly taxes are filed by the accountant.", "finance");
    embedder.stalling(0);
    // had the write waited for the embedder, it would carry vectors
    assertThat(w.vectorsMissing()).isTrue();
    assertThat(w.warnings()).anySatisfy(x -> assertThat(x).contains("did not finish within 100 ms"));
    assertThat(engram.operator().reindex(U1)).isEqualTo(1);
    assertThat(search(engram, U1, "taxes accountant", SearchMode.AUTO).used()).isEqualTo(SearchMode.HYBRID);
  }

  /** An embedder that never returns, whatever interrupts it gets, until released. */
  private static final class HungEmbedder implements Embedder {
    final CountDownLatch release = new CountDownLatch(1);
    final HashingEmbedder inner = new HashingEmbedder();
    volatile boolean hung;
    final List<String> threads = java.util.Collections.synchronizedList(new ArrayList<>());

    @Override
    public EmbeddingProfile profile() {
      return inner.profile();
    }

    @Override
    public List<float[]> embed(List<String> texts) {
      threads.add(Thread.currentThread().getName());
      while (hung && release.getCount() > 0) {
        try {
          release.await();
        } catch (InterruptedException e) {
          // ignores interrupts: the worst kind of embedder
        }
      }
      return inner.embed(texts);
    }
  }

  private static long threadsNamed(String prefix) {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.isAlive() && t.getName().startsWith(prefix)).count();
  }

  @Test
  void aHungEmbedderNeverGrowsThreadsWithoutBound() {
    HungEmbedder embedder = new HungEmbedder();
    MemoryStore store = createStore();
    seed(newEngram(store, new DeterministicReasoner(), b -> b.embedder(new HashingEmbedder())));
    Engram engram = newEngram(store, new DeterministicReasoner(), b -> b.embedder(embedder)
        .searchSettings(SearchSettings.builder().embedTimeout(Duration.ofMillis(20)).build()));
    long before = threadsNamed("engram-embedding-");
    embedder.hung = true;
    try {
      for (int i = 0; i < 150; i++) {
        SearchResult r = search(engram, U1, "planning meeting " + i, SearchMode.AUTO);
        assertThat(r.used()).isEqualTo(SearchMode.FTS);
        assertThat(r.fallbackReason()).containsAnyOf("did not finish within 20 ms", "saturated");
      }
      for (int i = 0; i < 10; i++) {
        assertThat(write(engram, U1, "Hung embedder note number " + i + ".", "notes").vectorsMissing()).isTrue();
      }
      long grown = threadsNamed("engram-embedding-") - before;
      assertThat(grown).isLessThanOrEqualTo(Math.max(2, Runtime.getRuntime().availableProcessors()));
    } finally {
      embedder.release.countDown();
    }
  }

  @Test
  void embeddingsRunOnTheExecutorGiven() {
    ExecutorService mine = Executors.newFixedThreadPool(2, r -> {
      Thread t = new Thread(r, "tenant-pool");
      t.setDaemon(true);
      return t;
    });
    try {
      HungEmbedder embedder = new HungEmbedder();
      Engram engram = newEngram(new DeterministicReasoner(), b -> b.embedder(embedder).embeddingExecutor(mine)
          .scanExecutor(mine));
      seed(engram);
      assertThat(search(engram, U1, "fresh query about planning", SearchMode.AUTO).used()).isEqualTo(SearchMode.HYBRID);
      assertThat(embedder.threads).isNotEmpty().allSatisfy(n -> assertThat(n).isEqualTo("tenant-pool"));
      engram.close();
      assertThat(mine.isShutdown()).as("an executor handed in is not shut down by the engine").isFalse();
    } finally {
      mine.shutdownNow();
    }
  }

  // ---- the epoch

  /** A reindex by one engine moves no revision; another engine over the same store sees it through the epoch. */
  @Test
  void vectorsAnotherEngineStoresAreSeenWithoutAWrite() {
    MemoryStore store = createStore();
    HashingEmbedder failingForWriter = new HashingEmbedder();
    Engram writer = newEngram(store, new DeterministicReasoner(), b -> b.embedder(failingForWriter));
    Engram reader = newEngram(store, new DeterministicReasoner(), b -> b.embedder(new HashingEmbedder())
        .backgroundVectorCompletion(false));
    seed(writer);
    failingForWriter.failing(true);
    // more versions than a search completes by itself, so the reader waits for the writer's reindex
    for (int i = 0; i <= 16; i++) {
      write(writer, U1, "Quarterly taxes " + i + " are filed by the accountant.", "finance");
    }
    failingForWriter.failing(false);
    SearchResult before = search(reader, U1, "taxes accountant", SearchMode.AUTO);
    assertThat(before.used()).isEqualTo(SearchMode.FTS);
    assertThat(before.fallbackReason()).contains("incomplete");

    long epoch = store.vectorEpoch();
    assertThat(writer.operator().reindex(U1)).isEqualTo(17);
    assertThat(store.vectorEpoch()).isGreaterThan(epoch);
    SearchResult after = search(reader, U1, "taxes accountant", SearchMode.AUTO);
    assertThat(after.used()).isEqualTo(SearchMode.HYBRID);
    assertThat(after.hits().get(0).matchedBy()).contains(SearchChannel.VECTOR);
  }

  // ---- the cache

  @Test
  void theBlockCacheStaysWithinItsBoundAcrossManyScopes() {
    long bound = 1L << 20;
    Engram engram = newEngram(new DeterministicReasoner(), b -> b.embedder(new HashingEmbedder("tck-wide", 2048))
        .vectorCacheBytes(bound));
    int tenants = 12;
    for (int t = 0; t < tenants; t++) {
      Grants g = Grants.of("app/tenant/t" + t);
      for (int i = 0; i < 12; i++) {
        write(engram, g, "Tenant " + t + " note " + i + " about invoices and shipping labels.", "notes");
      }
      write(engram, g, "Tenant " + t + " keeps a unique marker word zq" + t + "x.", "markers");
    }
    for (int round = 0; round < 2; round++) {
      for (int t = 0; t < tenants; t++) {
        Grants g = Grants.of("app/tenant/t" + t);
        SearchResult r = search(engram, g, "unique marker word zq" + t + "x", SearchMode.VECTOR);
        assertThat(r.hits().get(0).entry().content()).contains("zq" + t + "x");
        VectorCacheStats stats = engram.operator().vectorCacheStats();
        assertThat(stats.bytes()).isLessThanOrEqualTo(bound);
        assertThat(stats.maxBytes()).isEqualTo(bound);
      }
    }
    VectorCacheStats stats = engram.operator().vectorCacheStats();
    assertThat(stats.evictions()).isPositive();
    assertThat(stats.blocks()).isLessThan(tenants);
    assertThat(stats.loads()).isGreaterThan(tenants);
  }

  /**
   * Differential: an engine whose cached blocks follow every change through the change sets answers
   * exactly what an engine loading the blocks cold answers, after each of a random sequence of
   * appends, corrections, retirements, reactivations, erasures and gaps filled by reindex.
   */
  @Test
  void incrementallyUpdatedBlocksAnswerLikeAColdLoad() {
    MemoryStore store = createStore();
    HashingEmbedder embedder = new HashingEmbedder();
    Engram warm = newEngram(store, new DeterministicReasoner(), b -> b.embedder(embedder));
    Random random = new Random(21);
    String[] words = {"invoice", "garden", "river", "planning", "tuesday", "metric", "webhook", "refund", "kitchen",
        "window", "harbor", "ledger", "violin", "summit", "canyon", "pepper", "orbit", "lantern", "meadow", "copper"};
    List<MemoryEntry> live = new ArrayList<>();
    List<MemoryEntry> retired = new ArrayList<>();
    String[] queries = {"invoice refund webhook", "garden river meadow", "planning tuesday ledger", "violin summit",
        "copper lantern orbit"};
    for (int step = 0; step < 70; step++) {
      int op = live.size() < 8 ? 0 : random.nextInt(10);
      if (op <= 4) {
        boolean gap = random.nextInt(8) == 0;
        embedder.failing(gap);
        live.add(write(warm, U1, sentence(random, words) + " (" + step + ")", "notes").entry());
        embedder.failing(false);
      } else if (op == 5) {
        MemoryEntry e = live.remove(random.nextInt(live.size()));
        live.add(warm.correct(U1, e.entryId(), sentence(random, words) + " (corrected " + step + ")"));
      } else if (op == 6) {
        MemoryEntry e = live.remove(random.nextInt(live.size()));
        retired.add(warm.retire(U1, e.citation(), "stale"));
      } else if (op == 7 && !retired.isEmpty()) {
        MemoryEntry e = retired.remove(random.nextInt(retired.size()));
        live.add(warm.reactivate(U1, e.citation(), "back"));
      } else if (op == 8) {
        MemoryEntry e = live.remove(random.nextInt(live.size()));
        warm.deleteEntry(U1, e.entryId());
      } else {
        warm.operator().reindex(U1);
      }
      for (String q : queries) {
        assertThat(answer(warm, q)).as("step %d, query %s", step, q).isEqualTo(coldAnswer(store, q));
      }
    }
    assertThat(warm.operator().vectorCacheStats().updates()).as("blocks were updated, not reloaded").isPositive();
  }

  private static String sentence(Random random, String[] words) {
    StringBuilder sb = new StringBuilder("Note");
    for (int i = 0, n = 3 + random.nextInt(4); i < n; i++) {
      sb.append(' ').append(words[random.nextInt(words.length)]);
    }
    return sb.append('.').toString();
  }

  private static List<String> answer(Engram engram, String query) {
    SearchResult r = search(engram, U1, query, SearchMode.AUTO);
    List<String> out = new ArrayList<>();
    out.add(r.used() + " " + r.fallbackReason() + " " + r.warnings());
    for (SearchHit h : r.hits()) {
      out.add(h.entry().versionId() + " " + h.matchedBy() + " " + h.vectorRank() + " " + h.cosine());
    }
    return out;
  }

  private static List<String> coldAnswer(MemoryStore store, String query) {
    try (Engram cold = Engram.builder().borrowedStore(store).reasoner(new DeterministicReasoner())
        .embedder(new HashingEmbedder()).build()) {
      return answer(cold, query);
    }
  }
}
