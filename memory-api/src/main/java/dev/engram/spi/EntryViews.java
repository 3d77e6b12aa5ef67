/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.spi;

import java.util.List;
import java.util.Objects;

/**
 * Generated views of a version: a short gist and up to three questions the entry answers. They are
 * embedded alongside the content, so a query can match an entry by meaning even without its words.
 */
public record EntryViews(String gist, List<String> questions) {
  /** Validates and copies the components. */
  public EntryViews {
    Objects.requireNonNull(gist, "gist");
    questions = List.copyOf(questions);
  }
}
