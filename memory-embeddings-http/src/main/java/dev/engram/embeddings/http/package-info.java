/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * An {@link dev.engram.spi.Embedder} for any server speaking the OpenAI {@code /v1/embeddings} wire
 * format: {@link dev.engram.embeddings.http.OpenAiCompatibleEmbedder}.
 */
@NullMarked
package dev.engram.embeddings.http;

import org.jspecify.annotations.NullMarked;
