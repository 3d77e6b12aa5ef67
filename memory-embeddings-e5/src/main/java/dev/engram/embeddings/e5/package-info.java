/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * An offline {@link dev.engram.spi.Embedder}: {@link dev.engram.embeddings.e5.E5SmallEmbedder} runs
 * e5-small-v2 (quantized) in process, with no network and no API key, and adds e5's query and passage
 * prefixes itself.
 */
@NullMarked
package dev.engram.embeddings.e5;

import org.jspecify.annotations.NullMarked;
