/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.util.List;
import java.util.Objects;

/**
 * What an agent loads at session start: the fixed boot nodes that exist ({@code core://agent},
 * {@code core://soul}, {@code preferences://user} and this runtime's {@code core://agent/<runtime>}
 * only), with content, and the {@link #RECENT_LIMIT} most recently written other memories by path,
 * priority and disclosure, without content. Recall never returns boot nodes: the agent already has
 * them.
 *
 * @param runtime the id of the agent runtime the block is for (such as {@code claudecode}; see
 *     {@link #bootPath(String)})
 * @param nodes the existing boot nodes of the visible scopes, ordered by scope, then agent, soul,
 *     user, runtime
 * @param recent the newest written other active memories, newest first
 */
public record BootBlock(String runtime, List<MemoryEntry> nodes, List<RecentMemory> recent) {
  /** How many recent memories the block lists. */
  public static final int RECENT_LIMIT = 5;

  /** The prefix of every runtime's own boot node. */
  public static final String RUNTIME_PREFIX = "core://agent/";

  /**
   * Checks the runtime id and copies the lists.
   *
   * @param runtime the id of the agent runtime the block is for
   * @param nodes the existing boot nodes of the visible scopes
   * @param recent the newest written other active memories, newest first
   * @throws NullPointerException when {@code runtime} is null, or a list or an element of one is null
   * @throws InvalidInputException when {@code runtime} is not a runtime id
   */
  public BootBlock {
    OpenIds.check("runtime", runtime);
    nodes = List.copyOf(nodes);
    recent = List.copyOf(recent);
  }

  /**
   * The boot node of one agent runtime: {@code core://agent/<runtime>}. Runtime ids are open values
   * (the agent module lists the known ones): 1 to 32 lowercase letters, digits or {@code -},
   * starting with a letter, so a new runtime needs no new Engram release.
   *
   * @param runtime the runtime id, such as {@code codex}
   * @return the runtime's boot path
   * @throws InvalidInputException when {@code runtime} is not a runtime id
   */
  public static String bootPath(String runtime) {
    return RUNTIME_PREFIX + OpenIds.check("runtime", runtime);
  }

  /**
   * Whether {@code path} is a boot node's address: {@code core://agent}, {@code core://soul},
   * {@code preferences://user}, or {@code core://agent/<runtime>} for a valid runtime id.
   *
   * @param path a path, or null
   * @return whether it addresses a boot node
   */
  public static boolean isBootPath(@org.jspecify.annotations.Nullable String path) {
    if (path == null) {
      return false;
    }
    if (path.equals("core://agent") || path.equals("core://soul") || path.equals("preferences://user")) {
      return true;
    }
    return path.startsWith(RUNTIME_PREFIX)
        && OpenIds.PATTERN.matcher(path.substring(RUNTIME_PREFIX.length())).matches();
  }
}
