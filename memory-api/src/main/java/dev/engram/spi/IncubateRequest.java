/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.spi;

import dev.engram.CapturedSource;
import dev.engram.Experience;
import java.util.List;
import java.util.Objects;

/**
 * One window of captured task outcomes for {@link Reasoner#incubate}.
 *
 * @param scope where the experience will live (decided by the engine, never by the reasoner)
 * @param window the task outcomes after the scope's incubation cursor, in capture order (at most 32);
 *     an answer may cite only their ids
 * @param known active experience of the scope the reasoner may compare with so as not to restate it
 */
public record IncubateRequest(String scope, List<CapturedSource> window, List<Experience> known) {
  /**
   * Validates and copies the components.
   *
   * @param scope where the experience will live
   * @param window the task outcomes after the scope's incubation cursor, in capture order
   * @param known active experience of the scope the reasoner may compare with
   * @throws NullPointerException when {@code scope} or a list (or an element of one) is null
   */
  public IncubateRequest {
    Objects.requireNonNull(scope, "scope");
    window = List.copyOf(window);
    known = List.copyOf(known);
  }
}
