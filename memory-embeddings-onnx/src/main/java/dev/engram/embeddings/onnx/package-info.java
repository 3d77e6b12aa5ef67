/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The in-process ONNX Runtime encoder the offline embedders share: {@link
 * dev.engram.embeddings.onnx.OnnxEncoder} runs a bi-encoder model shipped inside a jar and checks what
 * it returns. It carries no model; {@code memory-embeddings-e5} and {@code memory-embeddings-minilm} do.
 */
@NullMarked
package dev.engram.embeddings.onnx;

import org.jspecify.annotations.NullMarked;
