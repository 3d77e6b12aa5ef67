/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.tck;

import dev.engram.EntryStatus;
import dev.engram.MemoryEntry;
import dev.engram.MemoryEvent;
import dev.engram.Revision;
import dev.engram.spi.StoreReader;
import dev.engram.spi.TopicState;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Everything a store holds for some scopes, read through the SPI: every version whatever its status,
 * every event of those entries, the revision log and head of each scope, the topic rows, and the
 * global dirty list. Two snapshots are equal exactly when nothing observable changed in between.
 *
 * @param versions every version of the scopes, by version id
 * @param events the events of each entry, by entry id
 * @param revisions the revision log of each scope, by scope
 * @param heads the head revision of each scope, by scope
 * @param topics the topic rows of the scopes
 * @param dirtyTopics the store's dirty topics, of every scope
 */
public record StoreSnapshot(
    List<MemoryEntry> versions,
    Map<String, List<MemoryEvent>> events,
    Map<String, List<Revision>> revisions,
    Map<String, Long> heads,
    List<TopicState> topics,
    List<TopicState> dirtyTopics) {

  private static final int ALL = 1_000_000;

  /**
   * Reads a snapshot of {@code scopes} (and the store-wide dirty list) through the SPI.
   *
   * @param store the store to read
   * @param scopes the scopes to take in
   * @return the snapshot
   */
  public static StoreSnapshot of(StoreReader store, Collection<String> scopes) {
    List<String> sorted = List.copyOf(new TreeSet<>(scopes));
    List<MemoryEntry> versions = new ArrayList<>(store.versionsIn(sorted, EnumSet.allOf(EntryStatus.class)));
    versions.sort(Comparator.comparing(MemoryEntry::versionId));
    Map<String, List<MemoryEvent>> events = new TreeMap<>();
    for (MemoryEntry v : versions) {
      events.computeIfAbsent(v.entryId(), store::events);
    }
    Map<String, List<Revision>> revisions = new TreeMap<>();
    Map<String, Long> heads = new TreeMap<>();
    for (String scope : sorted) {
      revisions.put(scope, store.revisions(scope, 0, ALL));
      heads.put(scope, store.headRevision(scope));
    }
    return new StoreSnapshot(
        List.copyOf(versions), events, revisions, heads, store.topics(sorted), store.dirtyTopics(ALL));
  }

  /**
   * Copies the collections.
   *
   * @param versions every version of the scopes
   * @param events the events of each entry
   * @param revisions the revision log of each scope
   * @param heads the head revision of each scope
   * @param topics the topic rows of the scopes
   * @param dirtyTopics the store's dirty topics
   * @throws NullPointerException when a collection, or an element, key or value of one, is null
   */
  public StoreSnapshot {
    versions = List.copyOf(versions);
    events = Map.copyOf(events);
    revisions = Map.copyOf(revisions);
    heads = Map.copyOf(heads);
    topics = List.copyOf(topics);
    dirtyTopics = List.copyOf(dirtyTopics);
  }

  /**
   * The same snapshot without topic rows, for operations that legitimately stamp a curation pass.
   *
   * @return a snapshot with empty {@code topics} and {@code dirtyTopics}
   */
  public StoreSnapshot withoutTopics() {
    return new StoreSnapshot(versions, events, revisions, heads, List.of(), List.of());
  }
}
