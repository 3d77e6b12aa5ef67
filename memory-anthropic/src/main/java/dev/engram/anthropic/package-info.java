/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * Claude's client-side memory tool backed by Engram: {@link dev.engram.anthropic.EngramMemoryToolHandler}
 * implements the Anthropic Java SDK's {@code BetaMemoryToolHandler} over {@link dev.engram.agent.MemoryFiles}.
 * The SDK is a {@code provided} dependency: the application brings its own.
 */
@NullMarked
package dev.engram.anthropic;

import org.jspecify.annotations.NullMarked;
