/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * Engram for Spring AI: {@link dev.engram.springai.EngramVectorStore} keeps Spring AI documents as
 * memory entries (document id = entry path), with their metadata kept and filterable.
 */
@NullMarked
package dev.engram.springai;

import org.jspecify.annotations.NullMarked;
