/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.benchmarks.retrieval;

import dev.engram.reasoner.DeterministicReasoner;
import dev.engram.spi.EntryViews;
import dev.engram.spi.Reasoner;
import dev.engram.spi.TagProposal;
import dev.engram.spi.TagRequest;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The reasoner of one conversation: files like {@link DeterministicReasoner}, and answers {@link #views}
 * with the views {@link TurnDocuments} composed for each turn, found by the entry's path; an entry it
 * does not know gets the engine's rule-based views.
 */
final class TurnViewsReasoner implements Reasoner {
  private final Reasoner filer = new DeterministicReasoner();
  private final Map<String, EntryViews> viewsByPath;

  TurnViewsReasoner(Map<String, EntryViews> viewsByPath) {
    this.viewsByPath = Map.copyOf(viewsByPath);
  }

  @Override
  public TagProposal tag(TagRequest request) {
    return filer.tag(request);
  }

  @Override
  public @Nullable EntryViews views(
      String content, @Nullable String disclosure, List<String> glossary, @Nullable String path) {
    return path == null ? null : viewsByPath.get(path);
  }
}
