/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
/** The reference {@link dev.engram.spi.MemoryStore}: in process, thread-safe, not durable. */
@NullMarked
package dev.engram.store.inmemory;

import org.jspecify.annotations.NullMarked;
