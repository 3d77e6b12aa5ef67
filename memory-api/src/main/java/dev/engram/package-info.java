/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * Engram: durable, governed long-term memory for AI agents.
 *
 * <p>Start at {@link dev.engram.Engram#builder()}. Every operation takes {@link dev.engram.Grants}, the
 * namespaces trusted application code lets the caller see and write; nothing outside them is ever
 * returned or changed.
 */
@NullMarked
package dev.engram;

import org.jspecify.annotations.NullMarked;
