/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.spi;

import dev.engram.EntryType;
import java.time.Instant;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * A candidate memory a reasoner extracted from a window. Untrusted: the engine validates every field
 * (content size, topics, type, path, disclosure, glossary) and requires {@code evidence} to name only
 * ids of the window it was given; one bad candidate fails the whole window and nothing is written.
 *
 * @param content the memory itself
 * @param topics where it is filed (empty: {@code general})
 * @param type what kind of conclusion it is
 * @param evidence ids of the window's records it rests on (at least one)
 * @param occurredAt when the remembered thing happened; null: the latest cited record's time
 * @param path an optional stable address (a candidate at an active path makes a new version of it)
 * @param disclosure when it should surface
 * @param glossary words people type when they mean it
 * @param views the texts embedded besides the content (null: the reasoner's {@link Reasoner#views} or
 *     the rule-based ones); they are used when the entry is stored, and a later {@code reindex} makes
 *     them again through {@link Reasoner#views}
 */
public record ExtractedMemory(
    @Nullable String content,
    @Nullable List<String> topics,
    @Nullable EntryType type,
    @Nullable List<String> evidence,
    @Nullable Instant occurredAt,
    @Nullable String path,
    @Nullable String disclosure,
    @Nullable List<String> glossary,
    @Nullable EntryViews views) {

  /**
   * A fact resting on {@code evidence}, filed under {@code general}, without event time, path, disclosure,
   * glossary or views.
   *
   * @param content the memory itself
   * @param evidence ids of the window's records it rests on
   * @return the candidate
   */
  public static ExtractedMemory of(String content, List<String> evidence) {
    return new ExtractedMemory(content, List.of(), EntryType.FACT, evidence, null, null, null, List.of(), null);
  }
}
