/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * A durable {@link dev.engram.spi.MemoryStore} in one SQLite file: WAL journal, full-text index kept in
 * the same transaction as every change, writers serialized within the process and across processes.
 * Start with {@link dev.engram.store.sqlite.SqliteMemoryStore}.
 */
@NullMarked
package dev.engram.store.sqlite;

import org.jspecify.annotations.NullMarked;
