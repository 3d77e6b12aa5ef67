/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
/** Reasoners that file ({@code tag}) and tidy ({@code curate}) memory. */
@NullMarked
package dev.engram.reasoner;

import org.jspecify.annotations.NullMarked;
