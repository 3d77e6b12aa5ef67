/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The behavioural contract every {@link dev.engram.spi.MemoryStore} passes: what a store can break. Extend
 * {@link dev.engram.tck.MemoryStoreTck} and implement {@code createStore()} and {@code storedRows(store)}
 * (the store's rows beneath the SPI, which the erasure layer scans for erased content), and
 * {@code openAgain(store)} when the store's storage can be opened twice: every layer runs as a nested
 * test class against fresh stores.
 */
package dev.engram.tck;
