/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The retrying HTTP client the LLM reasoner and the HTTP embedder share. Not API: the module exports it
 * only to those two ({@code dev.engram.reasoner}, {@code dev.engram.embeddings.http}), and it may change
 * with them.
 */
@NullMarked
package dev.engram.http;

import org.jspecify.annotations.NullMarked;
