/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.tck;

import dev.engram.Engram;
import dev.engram.Grants;
import dev.engram.ListOptions;
import dev.engram.MemoryEntry;
import dev.engram.MemoryEvent;
import dev.engram.Revision;
import dev.engram.TopicSummary;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Everything a caller with {@code grants} can observe through the public API, for "nothing changed"
 * assertions: every version (whatever its status), every history, the topic summaries, and the
 * revision head and log of each visible scope.
 *
 * @param versions every visible version
 * @param histories the history of each visible entry
 * @param topics the topic summaries
 * @param heads each visible scope's head revision
 * @param logs each visible scope's revision log
 */
public record VisibleState(
    List<MemoryEntry> versions,
    Map<String, List<MemoryEvent>> histories,
    List<TopicSummary> topics,
    Map<String, Long> heads,
    Map<String, List<Revision>> logs) {

  /**
   * What {@code grants} observe of {@code engram} now.
   *
   * @param engram the engine
   * @param grants the caller's grants
   * @return the observable state
   */
  public static VisibleState of(Engram engram, Grants grants) {
    List<MemoryEntry> versions = engram.list(grants, ListOptions.builder().includeSuperseded(true).build());
    Set<String> entryIds = new LinkedHashSet<>();
    for (MemoryEntry v : versions) {
      entryIds.add(v.entryId());
    }
    Map<String, List<MemoryEvent>> histories = new TreeMap<>();
    for (String id : entryIds) {
      histories.put(id, engram.history(grants, id));
    }
    Map<String, Long> heads = new TreeMap<>();
    Map<String, List<Revision>> logs = new TreeMap<>();
    for (String scope : grants.visibleScopes()) {
      heads.put(scope, engram.revision(grants, scope));
      logs.put(scope, engram.changes(grants, scope, 0));
    }
    return new VisibleState(versions, histories, engram.scan(grants), heads, logs);
  }
}
