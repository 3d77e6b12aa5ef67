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
 * value; each field left unset keeps it. Content is never part of a patch (use {@code correct}).
 * One field: {@code EntryPatch.priority(1)}; several:
 * {@code EntryPatch.builder().priority(1).disclosure("When …").build()}. Immutable.
 */
public final class EntryPatch {
  private final @Nullable Integer priority;
  private final @Nullable String disclosure;
  private final @Nullable List<String> glossary;
  private final @Nullable List<String> topics;

  private EntryPatch(Builder b) {
    this.priority = b.priority;
    this.disclosure = b.disclosure;
    this.glossary = b.glossary;
    this.topics = b.topics;
  }

  /**
   * @param priority the new priority
   * @return a patch that changes the priority only
   */
  public static EntryPatch priority(int priority) {
    return builder().priority(priority).build();
  }

  /**
   * @param disclosure the new disclosure
   * @return a patch that changes the disclosure only
   */
  public static EntryPatch disclosure(String disclosure) {
    return builder().disclosure(disclosure).build();
  }

  /**
   * @param glossary the new glossary
   * @return a patch that replaces the glossary only
   */
  public static EntryPatch glossary(List<String> glossary) {
    return builder().glossary(glossary).build();
  }

  /**
   * @param topics the new topics
   * @return a patch that replaces the topics only
   */
  public static EntryPatch topics(List<String> topics) {
    return builder().topics(topics).build();
  }

  /**
   * @return a builder with no field set
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * @return a builder holding this patch
   */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.priority = priority;
    b.disclosure = disclosure;
    b.glossary = glossary;
    b.topics = topics;
    return b;
  }

  /**
   * @return the new priority (0 core, 1 key, 2+ general), or null to keep it
   */
  public @Nullable Integer priority() {
    return priority;
  }

  /**
   * @return the new disclosure, or null to keep it
   */
  public @Nullable String disclosure() {
    return disclosure;
  }

  /**
   * @return the new glossary (replacing the old one; empty clears it), or null to keep it
   */
  public @Nullable List<String> glossary() {
    return glossary;
  }

  /**
   * @return the new topics (at least one), or null to keep them
   */
  public @Nullable List<String> topics() {
    return topics;
  }

  /**
   * @return whether the patch sets no field
   */
  public boolean isEmpty() {
    return priority == null && disclosure == null && glossary == null && topics == null;
  }

  @Override
  public boolean equals(@Nullable Object o) {
    return o instanceof EntryPatch other && Objects.equals(priority, other.priority)
        && Objects.equals(disclosure, other.disclosure) && Objects.equals(glossary, other.glossary)
        && Objects.equals(topics, other.topics);
  }

  @Override
  public int hashCode() {
    return Objects.hash(priority, disclosure, glossary, topics);
  }

  @Override
  public String toString() {
    return "EntryPatch[priority=" + priority + ", disclosure=" + disclosure + ", glossary=" + glossary
        + ", topics=" + topics + "]";
  }

  /** A builder; the engine checks the values when the update runs. */
  public static final class Builder {
    private @Nullable Integer priority;
    private @Nullable String disclosure;
    private @Nullable List<String> glossary;
    private @Nullable List<String> topics;

    private Builder() {}

    /**
     * @param priority the new priority (0 core, 1 key, 2+ general)
     * @return this builder
     */
    public Builder priority(int priority) {
      this.priority = priority;
      return this;
    }

    /**
     * @param disclosure the new disclosure
     * @return this builder
     * @throws NullPointerException when {@code disclosure} is null
     */
    public Builder disclosure(String disclosure) {
      this.disclosure = Objects.requireNonNull(disclosure, "disclosure");
      return this;
    }

    /**
     * @param glossary the new glossary, replacing the old one (empty clears it)
     * @return this builder
     * @throws NullPointerException when {@code glossary} or a term is null
     */
    public Builder glossary(List<String> glossary) {
      this.glossary = List.copyOf(Objects.requireNonNull(glossary, "glossary"));
      return this;
    }

    /**
     * @param topics the new topics (at least one)
     * @return this builder
     * @throws NullPointerException when {@code topics} or a topic is null
     */
    public Builder topics(List<String> topics) {
      this.topics = List.copyOf(Objects.requireNonNull(topics, "topics"));
      return this;
    }

    /**
     * @return the patch
     */
    public EntryPatch build() {
      return new EntryPatch(this);
    }
  }
}
