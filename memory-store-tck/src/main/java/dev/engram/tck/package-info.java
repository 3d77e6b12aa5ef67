/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The behavioural contract every {@link dev.engram.spi.MemoryStore} passes. Extend
 * {@link dev.engram.tck.MemoryStoreTck} and implement {@code createStore()}: every layer runs as a
 * nested test class against a fresh store.
 */
package dev.engram.tck;
