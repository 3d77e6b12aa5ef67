/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * Micrometer observations of Engram's operations, embedder calls and reasoner jobs:
 * {@link dev.engram.observation.EngramObservation}.
 */
@NullMarked
package dev.engram.observation;

import org.jspecify.annotations.NullMarked;
