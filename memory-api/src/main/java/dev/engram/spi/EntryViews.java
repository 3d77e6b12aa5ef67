/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.spi;

import java.util.List;
import java.util.Objects;

/**
 * Generated views of a version: a short gist and up to three questions the entry answers, embedded
 * alongside the content so a query can match an entry by meaning even without its words; and up to
 * {@value #MAX_KEYS} retrieval keys.
 *
 * <p>A retrieval key is a text the version is found by that is not part of what it says, such as a
 * conversation turn together with the turn before it (a reply like "Sushi." means nothing without
 * "What's your favourite food?"). Keys are searched as arms of their own — by full text over the keys
 * alone, and by their vectors — and fused with the content's arms by rank, so a key never dilutes the
 * content's own match (see {@code SearchSettings.keyFtsWeight} and {@code keyVectorWeight}); a hit on a key returns the version once.
 * Stores without {@link StoreCapability#RETRIEVAL_KEYS} keep none.
 *
 * @param gist a short gist (may be empty)
 * @param questions up to three questions the entry answers
 * @param keys up to {@value #MAX_KEYS} retrieval keys, each non-blank and at most {@value #MAX_KEY_CHARS}
 *     characters (an invalid list is dropped with a warning; the version is stored without keys)
 */
public record EntryViews(String gist, List<String> questions, List<String> keys) {
  /** The most retrieval keys one version keeps. */
  public static final int MAX_KEYS = 2;

  /** The longest retrieval key, in characters. */
  public static final int MAX_KEY_CHARS = 1_000;

  /**
   * Checks and copies the components; the limits on keys are applied by the engine, not here.
   *
   * @param gist a short gist (may be empty)
   * @param questions questions the entry answers
   * @param keys retrieval keys
   * @throws NullPointerException when a component or an element of a list is null
   */
  public EntryViews {
    Objects.requireNonNull(gist, "gist");
    questions = List.copyOf(questions);
    keys = List.copyOf(keys);
  }

  /**
   * Views without retrieval keys.
   *
   * @param gist a short gist (may be empty)
   * @param questions questions the entry answers
   * @throws NullPointerException when a component or an element of the list is null
   */
  public EntryViews(String gist, List<String> questions) {
    this(gist, questions, List.of());
  }
}
