/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import dev.engram.CapabilityNotSupportedException;
import dev.engram.ContextRequest;
import dev.engram.Engram;
import dev.engram.Grants;
import dev.engram.MemoryEntry;
import dev.engram.SearchHit;
import dev.engram.SearchMode;
import dev.engram.SearchRequest;
import dev.engram.SearchResult;
import dev.engram.reasoner.DeterministicReasoner;
import dev.engram.spi.MemoryStore;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import dev.engram.test.HashingEmbedder;

/**
 * Search rules of the engine: bad requests rejected, a reranker's answer checked (a bad one keeps the
 * fused order and says so), explicit vector and hybrid modes never changed silently without an embedder.
 * Engine rules, run once against the reference store.
 */
class SearchRulesTest extends EngineRules {

  private static final Grants U1 = Grants.of("app/user/u1");

  @Test
  void explicitVectorOrHybridWithoutEmbedderFailsAndAutoFallsBack() {
    Engram engram = newEngram();
    seedFourTopics(engram);
    assertThatThrownBy(() -> search(engram, U1, "planning", SearchMode.VECTOR))
        .isInstanceOf(CapabilityNotSupportedException.class).hasMessageContaining("no embedder");
    assertThatThrownBy(() -> search(engram, U1, "planning", SearchMode.HYBRID))
        .isInstanceOf(CapabilityNotSupportedException.class).hasMessageContaining("no embedder");
    SearchResult auto = search(engram, U1, "planning", SearchMode.AUTO);
    assertThat(auto.used()).isEqualTo(SearchMode.FTS);
    assertThat(auto.fallbackReason()).contains("no embedder");
    assertThat(auto.hits()).isNotEmpty();
  }

  /**
   * A scripted reranker reorders the fused hits; an answer with a hit it was not given, a repeated hit or
   * an exception keeps the fused order and says so in the result; memory is never changed.
   */
  @Test
  void aRerankerReordersTheFusedHitsAndABadAnswerKeepsTheFusedOrder() {
    java.util.concurrent.atomic.AtomicReference<dev.engram.spi.Reranker> script =
        new java.util.concurrent.atomic.AtomicReference<>((q, hits) -> {
          List<SearchHit> reversed = new java.util.ArrayList<>(hits);
          java.util.Collections.reverse(reversed);
          return reversed;
        });
    MemoryStore store = createStore();
    Engram plain = newEngram(store, new DeterministicReasoner(), b -> b.embedder(new HashingEmbedder()));
    seedFourTopics(plain);
    Engram engram = newEngram(store, new DeterministicReasoner(), b -> b.embedder(new HashingEmbedder())
        .reranker((q, hits) -> script.get().rerank(q, hits)));
    List<MemoryEntry> before = engram.list(U1);
    for (SearchMode mode : List.of(SearchMode.FTS, SearchMode.HYBRID, SearchMode.AUTO)) {
      List<SearchHit> fused = search(plain, U1, "team planning webhooks metric", mode).hits();
      assertThat(fused).hasSizeGreaterThan(1);
      SearchResult reranked = search(engram, U1, "team planning webhooks metric", mode);
      List<SearchHit> expected = new java.util.ArrayList<>(fused);
      java.util.Collections.reverse(expected);
      assertThat(reranked.hits()).as(mode.name()).isEqualTo(expected);
      assertThat(reranked.fallbackReason()).isNull();
    }
    SearchHit foreign = search(plain, U1, "deploys contract tests", SearchMode.FTS).hits().get(0);
    List<SearchHit> fused = search(plain, U1, "team planning", SearchMode.HYBRID).hits();
    script.set((q, hits) -> List.of(foreign));
    SearchResult bad = search(engram, U1, "team planning", SearchMode.HYBRID);
    assertThat(bad.hits()).isEqualTo(fused);
    assertThat(bad.fallbackReason()).contains("not given");
    script.set((q, hits) -> List.of(hits.get(0), hits.get(0)));
    assertThat(search(engram, U1, "team planning", SearchMode.HYBRID).fallbackReason()).contains("twice");
    script.set((q, hits) -> {
      throw new IllegalStateException("model down");
    });
    SearchResult failed = search(engram, U1, "team planning", SearchMode.HYBRID);
    assertThat(failed.hits()).isEqualTo(fused);
    assertThat(failed.fallbackReason()).contains("reranker failed").doesNotContain("model down");
    script.set((q, hits) -> hits.subList(0, 1));
    assertThat(search(engram, U1, "team planning", SearchMode.HYBRID).hits()).containsExactly(fused.get(0));
    assertThat(engram.list(U1)).isEqualTo(before);
  }

  @Test
  void searchRejectsBadRequests() {
    Engram engram = newEngram();
    seedFourTopics(engram);
    assertThatThrownBy(() -> engram.search(U1, SearchRequest.of("   ")))
        .isInstanceOf(dev.engram.InvalidInputException.class).hasMessageContaining("query");
    assertThatThrownBy(() -> engram.search(U1, SearchRequest.of("x".repeat(8193))))
        .isInstanceOf(dev.engram.InvalidInputException.class).hasMessageContaining("query");
    assertThatThrownBy(() -> SearchRequest.builder("x").limit(0).build())
        .isInstanceOf(dev.engram.InvalidInputException.class).hasMessageContaining("limit");
    assertThatThrownBy(() -> ContextRequest.of("x", 100))
        .isInstanceOf(dev.engram.InvalidInputException.class).hasMessageContaining("maxBytes");
    assertThat(Set.of(SearchMode.values())).hasSize(4);
  }
}
