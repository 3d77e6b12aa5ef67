/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * Memory an agent has: the {@code memory_*} tools, autoScan, preload and the instructions block of a
 * {@link dev.engram.agent.MemoryResource}, bound per request to trusted {@link dev.engram.Grants}.
 *
 * <p>No tool takes a namespace, scope or grant: grants come only from
 * {@link dev.engram.agent.MemoryResource#bind(dev.engram.Grants)}.
 */
@NullMarked
package dev.engram.agent;

import org.jspecify.annotations.NullMarked;
