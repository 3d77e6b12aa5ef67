/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.util.List;
import java.util.Objects;

/**
 * What an agent loads at session start: the fixed boot nodes that exist ({@code core://agent},
 * {@code core://soul}, {@code preferences://user} and this runtime's {@code core://agent/<client_type>}
 * only), with content, and the {@link #RECENT_LIMIT} most recently written other memories by path,
 * priority and disclosure, without content. Recall never returns boot nodes: the agent already has
 * them.
 *
 * @param clientType the runtime the block is for
 * @param nodes the existing boot nodes of the visible scopes, ordered by scope, then agent, soul,
 *     user, runtime
 * @param recent the newest written other active memories, newest first
 */
public record BootBlock(ClientType clientType, List<MemoryEntry> nodes, List<RecentMemory> recent) {
  /** How many recent memories the block lists. */
  public static final int RECENT_LIMIT = 5;

  public BootBlock {
    Objects.requireNonNull(clientType, "clientType");
    nodes = List.copyOf(nodes);
    recent = List.copyOf(recent);
  }
}
