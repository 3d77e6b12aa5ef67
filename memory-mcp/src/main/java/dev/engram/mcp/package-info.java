/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * An MCP server over {@code memory-agent}: the {@code memory_*} tools, the resources
 * {@code memory://scan} and {@code memory://topic/{name}}, and the prompt {@code memory_context}, over
 * stdio or streamable HTTP. Grants come from the operator ({@code --grant}) or, over HTTP, from the
 * bearer token of each request; a client never names a namespace.
 */
@NullMarked
package dev.engram.mcp;

import org.jspecify.annotations.NullMarked;
