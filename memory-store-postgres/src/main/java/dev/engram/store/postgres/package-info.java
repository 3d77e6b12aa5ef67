/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * A {@link dev.engram.spi.MemoryStore} on PostgreSQL that several processes share: writers to a scope
 * serialize on a row lock of the scope's head, and curation workers take leased claims on dirty topics
 * with {@code FOR UPDATE SKIP LOCKED}. Start at {@link dev.engram.store.postgres.PostgresMemoryStore}.
 */
@NullMarked
package dev.engram.store.postgres;

import org.jspecify.annotations.NullMarked;
