/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.spi;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A candidate experience a reasoner incubated from a window of task outcomes. Untrusted: the engine
 * checks every field (non-blank, at most {@value dev.engram.Experience#MAX_FIELD_CHARS} characters) and
 * requires {@code evidence} to name only ids of the window it was given (1 to
 * {@value dev.engram.Experience#MAX_EVIDENCE}); one bad candidate fails the whole window and nothing is
 * queued. A valid candidate becomes a pending review item, never experience by itself.
 *
 * @param situation the task and its circumstances
 * @param action what was done
 * @param outcome how it turned out
 * @param lesson what to do (or avoid) next time
 * @param evidence ids of the window's records it rests on
 */
public record IncubatedExperience(
    @Nullable String situation, @Nullable String action, @Nullable String outcome, @Nullable String lesson,
    @Nullable List<String> evidence) {}
