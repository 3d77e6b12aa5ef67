/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * Engram for LangChain4j: {@link dev.engram.langchain4j.EngramContentRetriever} (prepared context or
 * search hits as cited {@code Content}) and {@link dev.engram.langchain4j.EngramToolProvider} (the
 * {@code memory_*} tools with their executors), both under grants from the chat memory id.
 */
@NullMarked
package dev.engram.langchain4j;

import org.jspecify.annotations.NullMarked;
