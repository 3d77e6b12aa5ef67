/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.spi;

import dev.engram.SearchHit;
import java.util.List;

/**
 * Reorders the hits of a search after fusion (a cross-encoder, a model call, business rules). The engine
 * calls it with the hits it already read for the request, from one revision snapshot, so a reranker never
 * sees other versions and has no way to change memory. None is configured by default.
 *
 * <p>The answer is untrusted: it must be some of the given hits (the same objects or equal ones), each at
 * most once, in the order wanted; hits left out are dropped. An answer naming a hit it was not given, a
 * repeated hit, or an exception leaves the fused order in place, logged and reported in the result's
 * {@link dev.engram.SearchResult#fallbackReason()}.
 */
@FunctionalInterface
public interface Reranker {

  /**
   * The hits in the order they should be returned.
   *
   * @param query the search query, as given
   * @param hits the fused hits, best first, at most the request's limit
   * @return some of {@code hits}, each at most once, in the wanted order
   * @throws RuntimeException when reranking fails; the engine keeps the fused order and reports it
   */
  List<SearchHit> rerank(String query, List<SearchHit> hits);
}
