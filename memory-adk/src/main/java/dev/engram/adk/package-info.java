/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * Engram as the memory of Google's Agent Development Kit for Java:
 * {@link dev.engram.adk.EngramMemoryService} implements ADK's {@code BaseMemoryService} (capture a
 * session's events as sources, flush them into memories, search under the user's grants) and adds the
 * erasure ADK's interface lacks. ADK is a {@code provided} dependency: the application brings its own.
 */
@NullMarked
package dev.engram.adk;

import org.jspecify.annotations.NullMarked;
