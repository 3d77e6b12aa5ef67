/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
/** A LangChain4j AI service whose model remembers through the Engram memory tools and retriever. */
@NullMarked
package dev.engram.examples.langchain4j;

import org.jspecify.annotations.NullMarked;
