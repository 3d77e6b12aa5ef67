/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.cli;

import dev.engram.EntryStatus;
import dev.engram.Grants;
import dev.engram.MemoryEntry;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.TopicState;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/** Per-scope figures shared by {@code scopes}, {@code stats} and the console's front page. */
final class Overview {
  private Overview() {}

  /**
   * What one scope holds.
   *
   * @param scope the namespace
   * @param revision its head revision
   * @param counts versions per status
   * @param topics topic rows
   * @param dirtyTopics topics with writes newer than their last curation
   */
  record ScopeRow(String scope, long revision, Map<EntryStatus, Integer> counts, int topics, int dirtyTopics) {
    int count(EntryStatus status) {
      return counts.getOrDefault(status, 0);
    }

    int versions() {
      return counts.values().stream().mapToInt(Integer::intValue).sum();
    }
  }

  /** The scopes the grants can see that hold anything, sorted. */
  static List<String> visibleScopes(Session s) {
    Grants g = s.grants();
    TreeSet<String> out = new TreeSet<>();
    for (String scope : g.visibleScopes()) {
      if (s.store().hasScope(scope)) {
        out.add(scope);
      }
    }
    return List.copyOf(out);
  }

  /** The scopes below the grants' own (not visible to them) that hold anything, sorted. */
  static List<String> scopesBelow(Session s) {
    TreeSet<String> out = new TreeSet<>();
    for (String ns : s.grants().namespaces()) {
      for (String scope : s.store().scopesFrom(ns)) {
        if (!s.grants().canSee(scope)) {
          out.add(scope);
        }
      }
    }
    return List.copyOf(out);
  }

  static List<ScopeRow> rows(MemoryStore store, List<String> scopes) {
    List<ScopeRow> rows = new ArrayList<>(scopes.size());
    for (String scope : scopes) {
      Map<EntryStatus, Integer> counts = new EnumMap<>(EntryStatus.class);
      for (MemoryEntry v : store.versionsIn(List.of(scope), EnumSet.allOf(EntryStatus.class))) {
        counts.merge(v.status(), 1, Integer::sum);
      }
      List<TopicState> topics = store.topics(List.of(scope));
      int dirty = (int) topics.stream().filter(TopicState::dirty).count();
      rows.add(new ScopeRow(scope, store.headRevision(scope), counts, topics.size(), dirty));
    }
    return rows;
  }
}
