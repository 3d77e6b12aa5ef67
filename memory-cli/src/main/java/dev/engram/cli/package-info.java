/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The {@code engram} command line and its local web console: an operator's view of the memory an
 * Engram-backed application keeps in a SQLite file or a PostgreSQL server, through the public
 * {@link dev.engram.Engram} API and, for what the facade does not report (schema, integrity, vectors),
 * the store itself.
 *
 * <p>Exit codes: {@code 0} success; {@code 1} not found, conflict, refused state change, or a
 * {@code doctor} that found a problem; {@code 2} usage (bad option, malformed grant or input, missing
 * {@code --yes}); {@code 3} the store could not be opened or used, or a file could not be read or
 * written.
 */
@NullMarked
package dev.engram.cli;

import org.jspecify.annotations.NullMarked;
