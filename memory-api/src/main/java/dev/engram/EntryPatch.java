/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A metadata change for {@link Engram#update}: each field that is set replaces the entry's current
 * value; each field left null keeps it. Content is never part of a patch (use {@code correct}).
 * Start from one field and add more: {@code EntryPatch.priority(1).withDisclosure("When …")}.
 *
 * @param priority the new priority (0 core, 1 key, 2+ general), or null to keep it
 * @param disclosure the new disclosure, or null to keep it
 * @param glossary the new glossary (replacing the old one; empty clears it), or null to keep it
 * @param topics the new topics (at least one), or null to keep them
 */
public record EntryPatch(
    @Nullable Integer priority, @Nullable String disclosure, @Nullable List<String> glossary,
    @Nullable List<String> topics) {

  public EntryPatch {
    glossary = glossary == null ? null : List.copyOf(glossary);
    topics = topics == null ? null : List.copyOf(topics);
  }

  /**
   * @param priority the new priority
   * @return a patch that changes the priority only
   */
  public static EntryPatch priority(int priority) {
    return new EntryPatch(priority, null, null, null);
  }

  /**
   * @param disclosure the new disclosure
   * @return a patch that changes the disclosure only
   */
  public static EntryPatch disclosure(String disclosure) {
    return new EntryPatch(null, Objects.requireNonNull(disclosure, "disclosure"), null, null);
  }

  /**
   * @param glossary the new glossary
   * @return a patch that replaces the glossary only
   */
  public static EntryPatch glossary(List<String> glossary) {
    return new EntryPatch(null, null, Objects.requireNonNull(glossary, "glossary"), null);
  }

  /**
   * @param topics the new topics
   * @return a patch that replaces the topics only
   */
  public static EntryPatch topics(List<String> topics) {
    return new EntryPatch(null, null, null, Objects.requireNonNull(topics, "topics"));
  }

  /**
   * @param newPriority the new priority
   * @return this patch, also changing the priority
   */
  public EntryPatch withPriority(int newPriority) {
    return new EntryPatch(newPriority, disclosure, glossary, topics);
  }

  /**
   * @param newDisclosure the new disclosure
   * @return this patch, also changing the disclosure
   */
  public EntryPatch withDisclosure(String newDisclosure) {
    return new EntryPatch(priority, Objects.requireNonNull(newDisclosure, "disclosure"), glossary, topics);
  }

  /**
   * @param newGlossary the new glossary
   * @return this patch, also replacing the glossary
   */
  public EntryPatch withGlossary(List<String> newGlossary) {
    return new EntryPatch(priority, disclosure, Objects.requireNonNull(newGlossary, "glossary"), topics);
  }

  /**
   * @param newTopics the new topics
   * @return this patch, also replacing the topics
   */
  public EntryPatch withTopics(List<String> newTopics) {
    return new EntryPatch(priority, disclosure, glossary, Objects.requireNonNull(newTopics, "topics"));
  }

  /** @return true when no field is set */
  public boolean isEmpty() {
    return priority == null && disclosure == null && glossary == null && topics == null;
  }
}
