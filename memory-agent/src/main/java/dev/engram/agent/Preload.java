/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.agent;

import dev.engram.EntryType;
import dev.engram.InvalidInputException;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Which full entries {@link AgentMemory#instructions(String)} inlines, so that an agent does not spend
 * a turn recalling obvious context. None by default; {@link #core()} loads the {@code core} topic (the
 * always-load profile), {@link #topics(String...)} named topics, {@link #all()} every active entry.
 * Refine with {@link Settings#topics(String...)}, {@link Settings#limit(int)} (default
 * {@value #DEFAULT_LIMIT} entries), {@link Settings#maxChars(int)} (default {@value #DEFAULT_MAX_CHARS}
 * rendered characters) and {@link Settings#types(EntryType...)}. What does not fit is noted to the model.
 *
 * <pre>{@code
 * Preload.core().topics("goals", "equipment").limit(30).maxChars(10_000)
 *     .types(EntryType.FACT, EntryType.PREFERENCE, EntryType.SUMMARY)
 * }</pre>
 */
public sealed interface Preload permits Preload.Settings {
  /** The most entries inlined unless {@link Settings#limit(int)} says otherwise. */
  int DEFAULT_LIMIT = 50;
  /** The largest {@link Settings#limit(int)}. */
  int MAX_LIMIT = 1000;
  /**
   * The most rendered characters of the preload section unless {@link Settings#maxChars(int)} says otherwise.
   */
  int DEFAULT_MAX_CHARS = 12_000;
  /** The smallest {@link Settings#maxChars(int)}. */
  int MIN_MAX_CHARS = 200;
  /** The largest {@link Settings#maxChars(int)}. */
  int MAX_MAX_CHARS = 200_000;
  /** The most topics one preload may name. */
  int MAX_TOPICS = 64;

  /**
   * No preload (the default).
   *
   * @return the settings
   */
  static Settings none() {
    return new Settings(false, false, List.of(), DEFAULT_LIMIT, DEFAULT_MAX_CHARS, Set.of());
  }

  /**
   * The {@code core} topic.
   *
   * @return the settings
   */
  static Settings core() {
    return new Settings(true, false, List.of(), DEFAULT_LIMIT, DEFAULT_MAX_CHARS, Set.of());
  }

  /**
   * Every active visible entry (core first), within the limits.
   *
   * @return the settings
   */
  static Settings all() {
    return new Settings(false, true, List.of(), DEFAULT_LIMIT, DEFAULT_MAX_CHARS, Set.of());
  }

  /**
   * The named topics (without {@code core} unless named).
   *
   * @param topics the topics, in the order they are loaded
   * @return the settings
   * @throws InvalidInputException if a topic is blank or there are more than {@value #MAX_TOPICS}
   */
  static Settings topics(String... topics) {
    return none().topics(topics);
  }

  /**
   * Immutable preload settings; every method returns a copy.
   *
   * @param core load the {@code core} topic first
   * @param all load every active entry
   * @param topics further topics, in order
   * @param limit the most entries inlined (1..{@value Preload#MAX_LIMIT})
   * @param maxChars the most characters of the rendered preload section
   *     ({@value Preload#MIN_MAX_CHARS}..{@value Preload#MAX_MAX_CHARS})
   * @param types only entries of these types (empty = any)
   */
  record Settings(boolean core, boolean all, List<String> topics, int limit, int maxChars, Set<EntryType> types)
      implements Preload {
    /**
     * Checks the limits and normalizes the topics: stripped, lowercased, duplicates kept once.
     *
     * @param core load the {@code core} topic first
     * @param all load every active entry
     * @param topics further topics, in order, at most {@value Preload#MAX_TOPICS}
     * @param limit the most entries inlined, 1..{@value Preload#MAX_LIMIT}
     * @param maxChars the most characters of the rendered section, {@value Preload#MIN_MAX_CHARS}..{@value
     *     Preload#MAX_MAX_CHARS}
     * @param types only entries of these types (empty = any)
     * @throws NullPointerException when {@code topics}, {@code types} or a topic is null
     * @throws InvalidInputException when a topic is blank, there are too many topics, or a limit is out of
     *     range
     */
    public Settings {
      Objects.requireNonNull(topics, "topics");
      Objects.requireNonNull(types, "types");
      if (topics.size() > MAX_TOPICS) {
        throw new InvalidInputException("preload.topics", topics.size() + " topics; the limit is " + MAX_TOPICS);
      }
      LinkedHashSet<String> unique = new LinkedHashSet<>();
      for (int i = 0; i < topics.size(); i++) {
        String t = Objects.requireNonNull(topics.get(i), "preload.topics[" + i + "]");
        if (t.isBlank()) {
          throw new InvalidInputException("preload.topics[" + i + "]", "topic is blank");
        }
        unique.add(t.strip().toLowerCase(java.util.Locale.ROOT));
      }
      topics = List.copyOf(unique);
      if (limit < 1 || limit > MAX_LIMIT) {
        throw new InvalidInputException("preload.limit", "must be between 1 and " + MAX_LIMIT + ", was " + limit);
      }
      if (maxChars < MIN_MAX_CHARS || maxChars > MAX_MAX_CHARS) {
        throw new InvalidInputException(
            "preload.maxChars", "must be between " + MIN_MAX_CHARS + " and " + MAX_MAX_CHARS + ", was " + maxChars);
      }
      types = types.isEmpty() ? Set.of() : java.util.Collections.unmodifiableSet(EnumSet.copyOf(types));
    }

    /**
     * Adds topics to load after {@code core}.
     *
     * @param more topic names
     * @return a copy with the topics added
     * @throws NullPointerException if {@code more} is null
     */
    public Settings topics(String... more) {
      Objects.requireNonNull(more, "topics");
      List<String> all = new java.util.ArrayList<>(topics);
      all.addAll(Arrays.asList(more));
      return new Settings(core, this.all, all, limit, maxChars, types);
    }

    /**
     * Caps the inlined entries.
     *
     * @param entries 1..{@value Preload#MAX_LIMIT}
     * @return a copy with the limit
     */
    public Settings limit(int entries) {
      return new Settings(core, all, topics, entries, maxChars, types);
    }

    /**
     * Caps the rendered preload section.
     *
     * @param chars {@value Preload#MIN_MAX_CHARS}..{@value Preload#MAX_MAX_CHARS}
     * @return a copy with the cap
     */
    public Settings maxChars(int chars) {
      return new Settings(core, all, topics, limit, chars, types);
    }

    /**
     * Loads only entries of these types.
     *
     * @param only the types
     * @return a copy with the filter
     * @throws NullPointerException if {@code only} or a type is null
     */
    public Settings types(EntryType... only) {
      Objects.requireNonNull(only, "types");
      Set<EntryType> set = EnumSet.noneOf(EntryType.class);
      for (EntryType t : only) {
        set.add(Objects.requireNonNull(t, "types"));
      }
      return new Settings(core, all, topics, limit, maxChars, set);
    }

    /**
     * Whether anything is loaded at all.
     *
     * @return false for {@link Preload#none()}
     */
    public boolean enabled() {
      return core || all || !topics.isEmpty();
    }
  }
}
