/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * Service provider interfaces: {@link dev.engram.spi.MemoryStore} (storage only; it never decides
 * policy) and {@link dev.engram.spi.Reasoner} (files and tidies content; its answers are untrusted).
 */
@NullMarked
package dev.engram.spi;

import org.jspecify.annotations.NullMarked;
