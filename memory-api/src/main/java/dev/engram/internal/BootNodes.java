/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.internal;

import dev.engram.BootBlock;
import dev.engram.BootNodeException;
import dev.engram.EntryStatus;
import dev.engram.Grants;
import dev.engram.MemoryEntry;
import dev.engram.RecentMemory;
import dev.engram.spi.StoreReader;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The fixed boot nodes: {@code core://agent}, {@code core://soul}, {@code preferences://user} and one
 * {@code core://agent/<runtime>} for every valid runtime id ({@link BootBlock#bootPath}). They can be edited (new versions) but
 * never deleted, retired, moved or curated.
 */
final class BootNodes {
  static final String AGENT = "core://agent";
  static final String SOUL = "core://soul";
  static final String USER = "preferences://user";

  private BootNodes() {}

  static boolean isBootPath(@Nullable String path) {
    return BootBlock.isBootPath(path);
  }

  static boolean isBootNode(MemoryEntry e) {
    return isBootPath(e.path());
  }

  /** Fails with {@link BootNodeException} when {@code e} is a boot node; {@code operation} says what was refused. */
  static void refuse(MemoryEntry e, String operation) {
    if (isBootNode(e)) {
      throw new BootNodeException(e.path(), operation);
    }
  }

  static void requireMovable(MemoryEntry e) {
    refuse(e, "moved");
  }

  /** Fails when {@code path} is a boot node's address: boot nodes are made by writing to it, not by a move. */
  static void requireNotBootPath(String path) {
    if (isBootPath(path)) {
      throw new BootNodeException(path, "the target of a move (write to " + path + " to create it)");
    }
  }

  /** The boot block for {@code runtime} over the visible scopes. */
  static BootBlock block(StoreReader store, Grants grants, String runtime) {
    List<String> order = List.of(AGENT, SOUL, USER, BootBlock.bootPath(runtime));
    List<MemoryEntry> nodes = new ArrayList<>();
    List<MemoryEntry> others = new ArrayList<>();
    for (MemoryEntry e : store.versionsIn(grants.visibleScopes(), EnumSet.of(EntryStatus.ACTIVE))) {
      if (!e.isActive() || !grants.canSee(e.scope())) {
        continue;
      }
      if (e.path() != null && order.contains(e.path())) {
        nodes.add(e);
      } else if (!isBootNode(e)) {
        others.add(e);
      }
    }
    nodes.sort(Comparator.comparing(MemoryEntry::scope).thenComparingInt(e -> order.indexOf(e.path())));
    others.sort(Comparator.comparing(MemoryEntry::versionId).reversed());
    List<RecentMemory> recent = new ArrayList<>();
    for (MemoryEntry e : others.subList(0, Math.min(BootBlock.RECENT_LIMIT, others.size()))) {
      recent.add(new RecentMemory(e.scope(), e.entryId(), e.path(), e.priority(), e.disclosure(), e.updatedAt()));
    }
    return new BootBlock(runtime, nodes, recent);
  }
}
