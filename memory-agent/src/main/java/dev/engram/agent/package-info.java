/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * Memory an agent has: the {@code memory_*} tools, autoScan, preload and the instructions block of a
 * {@link dev.engram.agent.MemoryResource}, bound per request to trusted {@link dev.engram.Grants}.
 *
 * <p>No tool takes a namespace, scope or grant: grants come only from
 * {@link dev.engram.agent.MemoryResource#bind(dev.engram.Grants)}. {@link dev.engram.agent.MemoryFiles} is the
 * command set of Claude's memory tool ({@code /memories} files over a scope's path entries), bound the same way.
 */
@NullMarked
package dev.engram.agent;

import org.jspecify.annotations.NullMarked;
