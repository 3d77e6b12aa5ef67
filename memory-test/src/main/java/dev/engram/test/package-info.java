/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * Test support for applications and agents that use Engram: {@link dev.engram.test.TestMemory} (a fresh
 * engine over an empty store per test, with a {@link dev.engram.test.SteppingClock}, a
 * {@link dev.engram.test.ScriptedReasoner} and a {@link dev.engram.test.HashingEmbedder}) and
 * {@link dev.engram.test.EngramExtension}, which hands its parts to JUnit 5 tests as parameters.
 */
@NullMarked
package dev.engram.test;

import org.jspecify.annotations.NullMarked;
