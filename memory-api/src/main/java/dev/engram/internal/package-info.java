/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
/** The engine behind {@link dev.engram.Engram}. Not API: anything here may change without notice. */
@NullMarked
package dev.engram.internal;

import org.jspecify.annotations.NullMarked;
