/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * An offline {@link dev.engram.spi.Embedder}: {@link dev.engram.embeddings.minilm.MiniLmEmbedder} runs
 * all-MiniLM-L6-v2 (quantized) in process, with no network and no API key.
 */
@NullMarked
package dev.engram.embeddings.minilm;

import org.jspecify.annotations.NullMarked;
