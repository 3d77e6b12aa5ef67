/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.internal;

import dev.engram.Change;
import dev.engram.InvalidInputException;
import dev.engram.Manifest;
import dev.engram.ManifestItem;
import dev.engram.MemoryEntry;
import dev.engram.Revision;
import dev.engram.spi.MemoryStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Manifests replayed from a scope's revision log. Each change set names the versions it made current
 * (APPEND, UPDATE, ROLLBACK, METADATA, MOVE), the ones it deactivated (RETIRE, and SUPERSEDE of an
 * entry's current version, which is a merge) and reactivated (REACTIVATE); DELETE drops the entry.
 * A SUPERSEDE of a version that is no longer the entry's current one is the old side of a replacement
 * in the same change set and changes nothing.
 */
final class Manifests {
  private static final int PAGE = 1_000;

  private record State(String versionId, boolean active) {}

  private final MemoryStore store;

  Manifests(MemoryStore store) {
    this.store = store;
  }

  Manifest manifest(String scope, long revision) {
    long head = store.headRevision(scope);
    if (revision < 0 || revision > head) {
      throw new InvalidInputException("revision", "must be between 0 and the head " + head + " of " + scope
          + ", was " + revision);
    }
    Map<String, State> state = new TreeMap<>();
    long seen = 0;
    while (seen < revision) {
      List<Revision> page = store.revisions(scope, seen, PAGE);
      if (page.isEmpty()) {
        throw new IllegalStateException("revision log of " + scope + " ends at " + seen + " below head " + head);
      }
      for (Revision r : page) {
        if (r.revision() > revision) {
          break;
        }
        apply(state, r);
        seen = r.revision();
      }
      if (page.get(page.size() - 1).revision() > revision) {
        break;
      }
    }
    List<ManifestItem> items = new ArrayList<>();
    for (Map.Entry<String, State> e : state.entrySet()) {
      MemoryEntry v = store.version(e.getValue().versionId()).orElse(null);
      if (v != null) {
        items.add(new ManifestItem(e.getKey(), v.versionId(), v.contentHash(), e.getValue().active()));
      }
    }
    return new Manifest(scope, revision, items);
  }

  private static void apply(Map<String, State> state, Revision r) {
    for (Change c : r.changes()) {
      State cur = state.get(c.entryId());
      switch (c.kind()) {
        case APPEND, UPDATE, ROLLBACK, METADATA, MOVE -> state.put(c.entryId(), new State(c.versionId(), true));
        case RETIRE -> state.put(c.entryId(), new State(c.versionId(), false));
        case REACTIVATE -> state.put(c.entryId(), new State(c.versionId(), true));
        case SUPERSEDE -> {
          if (cur != null && cur.versionId().equals(c.versionId())) {
            state.put(c.entryId(), new State(c.versionId(), false));
          }
        }
        case DELETE -> state.remove(c.entryId());
        default -> throw new IllegalStateException("unknown change kind " + c.kind() + " in " + r.scope() + " r"
            + r.revision());
      }
    }
  }
}
