/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Optional settings of one {@link Engram#write(Grants, String, WriteOptions)}. Values are validated by
 * the engine when the write runs, so a bad value fails that write with a precise message.
 */
public final class WriteOptions {
  private final List<String> topicsHint;
  private final @Nullable EntryType type;
  private final @Nullable Integer priority;
  private final @Nullable String disclosure;
  private final @Nullable List<String> glossary;
  private final @Nullable String path;
  private final @Nullable String source;
  private final List<String> evidence;
  private final @Nullable Long expectedRevision;
  private final java.time.@Nullable Instant occurredAt;
  private final @Nullable WritePolicy writePolicy;
  private final @Nullable String origin;

  private static final WriteOptions DEFAULTS = builder().build();

  private WriteOptions(
      List<String> topicsHint,
      @Nullable EntryType type,
      @Nullable Integer priority,
      @Nullable String disclosure,
      @Nullable List<String> glossary,
      @Nullable String path,
      @Nullable String source,
      List<String> evidence,
      @Nullable Long expectedRevision,
      java.time.@Nullable Instant occurredAt,
      @Nullable WritePolicy writePolicy,
      @Nullable String origin) {
    topicsHint = List.copyOf(topicsHint);
    glossary = glossary == null ? null : List.copyOf(glossary);
    evidence = List.copyOf(evidence);
    this.topicsHint = topicsHint;
    this.type = type;
    this.priority = priority;
    this.disclosure = disclosure;
    this.glossary = glossary;
    this.path = path;
    this.source = source;
    this.evidence = evidence;
    this.expectedRevision = expectedRevision;
    this.occurredAt = occurredAt;
    this.writePolicy = writePolicy;
    this.origin = origin;
  }

  /**
   * @return options that set nothing: the reasoner files the write
   */
  public static WriteOptions defaults() {
    return DEFAULTS;
  }

  /**
   * @return a builder with nothing set
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * @return a builder holding these options, to change some of them
   */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.topicsHint = topicsHint;
    b.type = type;
    b.priority = priority;
    b.disclosure = disclosure;
    b.glossary = glossary;
    b.path = path;
    b.source = source;
    b.evidence = evidence;
    b.expectedRevision = expectedRevision;
    b.occurredAt = occurredAt;
    b.writePolicy = writePolicy;
    b.origin = origin;
    return b;
  }

  /** A builder; {@code build()} may be called more than once. */
  public static final class Builder {
    private List<String> topicsHint = List.of();
    private @Nullable EntryType type;
    private @Nullable Integer priority;
    private @Nullable String disclosure;
    private @Nullable List<String> glossary;
    private @Nullable String path;
    private @Nullable String source;
    private List<String> evidence = List.of();
    private @Nullable Long expectedRevision;
    private java.time.@Nullable Instant occurredAt;
    private @Nullable WritePolicy writePolicy;
    private @Nullable String origin;

    private Builder() {}

    /**
     * Topics the entry keeps (see {@link WriteOptions#topicsHint()}); replaces earlier hints.
     *
     * @param topics the topics, in order (at most 16 after normalization, each at most 64 characters; checked
     *     when the write runs)
     * @return this builder
     * @throws NullPointerException when {@code topics} is null
     * @throws InvalidInputException when one of the topics is null
     */
    public Builder topicsHint(String... topics) {
      return topicsHint(Arrays.asList(Objects.requireNonNull(topics, "topicsHint")));
    }

    /**
     * Topics the entry keeps (see {@link WriteOptions#topicsHint()}); replaces earlier hints.
     *
     * @param topics the topics, in order (at most 16 after normalization, each at most 64 characters; checked
     *     when the write runs)
     * @return this builder
     * @throws NullPointerException when {@code topics} is null
     * @throws InvalidInputException when one of the topics is null
     */
    public Builder topicsHint(List<String> topics) {
      this.topicsHint = copyNoNulls("topicsHint", topics);
      return this;
    }

    /**
     * The entry's type; it wins over the reasoner's.
     *
     * @param type the type
     * @return this builder
     * @throws NullPointerException when {@code type} is null
     */
    public Builder type(EntryType type) {
      this.type = Objects.requireNonNull(type, "type");
      return this;
    }

    /**
     * The entry's priority: 0 core, 1 key, 2 and above general (unset: 2, or the current value on a path
     * write). Active entries at 0 and 1 are capped per scope ({@link EngramBuilder#priorityCaps(int, int)}).
     *
     * @param priority 0 to 99; a value outside fails the write with {@link InvalidInputException}
     * @return this builder
     */
    public Builder priority(int priority) {
      this.priority = priority;
      return this;
    }

    /**
     * When an agent should open this entry (a Lore-style disclosure, such as "when the user asks about
     * travel").
     *
     * @param disclosure one line of at most 512 characters, whitespace collapsed when the write runs
     * @return this builder
     * @throws NullPointerException when {@code disclosure} is null
     */
    public Builder disclosure(String disclosure) {
      this.disclosure = Objects.requireNonNull(disclosure, "disclosure");
      return this;
    }

    /**
     * The words people type when they mean this entry (full-text search weighs them above the content);
     * replaces earlier terms. An empty list clears the glossary of the entry a path write updates.
     *
     * @param terms at most 32 terms after case-insensitive deduplication, each one line of at most 128
     *     characters (checked when the write runs)
     * @return this builder
     * @throws NullPointerException when {@code terms} is null
     * @throws InvalidInputException when one of the terms is null
     */
    public Builder glossary(String... terms) {
      return glossary(Arrays.asList(Objects.requireNonNull(terms, "glossary")));
    }

    /**
     * The words people type when they mean this entry (full-text search weighs them above the content);
     * replaces earlier terms. An empty list clears the glossary of the entry a path write updates.
     *
     * @param terms at most 32 terms after case-insensitive deduplication, each one line of at most 128
     *     characters (checked when the write runs)
     * @return this builder
     * @throws NullPointerException when {@code terms} is null
     * @throws InvalidInputException when one of the terms is null
     */
    public Builder glossary(List<String> terms) {
      this.glossary = copyNoNulls("glossary", terms);
      return this;
    }

    /**
     * A stable address for the entry (see {@link WriteOptions#path()}).
     *
     * <p>In Lore's domains, {@code core://}, {@code preferences://} and {@code project://}, every segment
     * is lowercase snake_case, {@code [a-z0-9]+(_[a-z0-9]+)*} ({@code project://checkout_api/webhooks};
     * {@code project://Checkout-API/Web.hooks} is refused with an {@link InvalidInputException} that
     * suggests the snake_case form), and a path below the top level needs an active entry of the same
     * scope at its parent path: {@code project://checkout_api} before {@code project://checkout_api/webhooks}
     * (else {@link ParentNotFoundException}; a write to a path that already holds an entry edits it as
     * before). Top-level paths and boot nodes' addresses ({@code core://agent/<runtime>}) need no parent.
     *
     * @param path {@code [domain://]segment/segment}: an optional domain of up to 32 lowercase letters,
     *     digits, {@code _} or {@code -} starting with a letter, then segments of letters, digits, {@code _},
     *     {@code -} and {@code .} (no {@code .} or {@code ..} segment), lowercase snake_case in the Lore
     *     domains; at most 256 characters, checked when the write runs
     * @return this builder
     * @throws NullPointerException when {@code path} is null
     */
    public Builder path(String path) {
      this.path = Objects.requireNonNull(path, "path");
      return this;
    }

    /**
     * The actor history records for the write, such as a user or service name.
     *
     * @param source one line of at most 256 characters (checked when the write runs)
     * @return this builder
     * @throws NullPointerException when {@code source} is null
     */
    public Builder source(String source) {
      this.source = Objects.requireNonNull(source, "source");
      return this;
    }

    /**
     * Ids of captured sources the entry is drawn from; replaces earlier references.
     *
     * @param refs at most 32 references, each one line of at most 512 characters; duplicates are dropped when
     *     the write runs
     * @return this builder
     * @throws NullPointerException when {@code refs} is null
     * @throws InvalidInputException when one of the references is null
     */
    public Builder evidence(String... refs) {
      return evidence(Arrays.asList(Objects.requireNonNull(refs, "evidence")));
    }

    /**
     * Ids of captured sources the entry is drawn from; replaces earlier references.
     *
     * @param refs at most 32 references, each one line of at most 512 characters; duplicates are dropped when
     *     the write runs
     * @return this builder
     * @throws NullPointerException when {@code refs} is null
     * @throws InvalidInputException when one of the references is null
     */
    public Builder evidence(List<String> refs) {
      this.evidence = copyNoNulls("evidence", refs);
      return this;
    }

    /**
     * Makes the write conditional: it fails with {@link RevisionConflictException} unless the target scope is
     * at this revision.
     *
     * @param revision the scope revision the caller read, {@code >= 0} (a negative value fails the write with
     *     {@link InvalidInputException})
     * @return this builder
     */
    public Builder expectedRevision(long revision) {
      this.expectedRevision = revision;
      return this;
    }

    /**
     * When the remembered thing happened (stored as {@link MemoryEntry#occurredAt()}; unset: unknown).
     *
     * @param when the instant
     * @return this builder
     * @throws NullPointerException when {@code when} is null
     */
    public Builder occurredAt(java.time.Instant when) {
      this.occurredAt = Objects.requireNonNull(when, "occurredAt");
      return this;
    }

    /**
     * Narrows the engine's write policy for this call (see {@link WriteOptions#writePolicy()}).
     *
     * @param policy the policy for this write; it can never widen the engine's
     * @return this builder
     * @throws NullPointerException when {@code policy} is null
     */
    public Builder writePolicy(WritePolicy policy) {
      this.writePolicy = Objects.requireNonNull(policy, "writePolicy");
      return this;
    }

    /**
     * @param origin where the write comes from, an open id such as {@code agent} or {@code console}
     *     (1 to 32 lowercase letters, digits or {@code -}, starting with a letter)
     * @return this builder
     * @throws InvalidInputException when {@code origin} is not such an id
     */
    public Builder origin(String origin) {
      this.origin = OpenIds.check("origin", origin);
      return this;
    }

    /** @return the options set so far; the builder stays usable */
    public WriteOptions build() {
      return new WriteOptions(
          topicsHint, type, priority, disclosure, glossary, path, source, evidence, expectedRevision,
          occurredAt, writePolicy, origin);
    }

    private static List<String> copyNoNulls(String field, List<String> values) {
      Objects.requireNonNull(values, field);
      for (int i = 0; i < values.size(); i++) {
        if (values.get(i) == null) {
          throw new InvalidInputException(field + "[" + i + "]", "value is null");
        }
      }
      return List.copyOf(values);
    }
  }

  /**
   * @return topics the entry keeps; the reasoner may add more after them. With a type as well, the write
   *     needs no reasoner: when the reasoner fails it is filed from these fields (with a warning)
   */
  public List<String> topicsHint() {
    return topicsHint;
  }

  /**
   * @return the entry's type; it wins over the reasoner's
   */
  public @Nullable EntryType type() {
    return type;
  }

  /**
   * @return 0 core, 1 key, 2+ general (default 2)
   */
  public @Nullable Integer priority() {
    return priority;
  }

  /**
   * @return when an agent should open this entry (a Lore-style disclosure), or null
   */
  public @Nullable String disclosure() {
    return disclosure;
  }

  /**
   * @return the glossary, or null when the write sets none (a path write then keeps the entry's current
   *     glossary; an empty list clears it)
   */
  public @Nullable List<String> glossary() {
    return glossary;
  }

  /**
   * @return a stable address; a write to an active path makes a new version of that entry (or is DEDUPED
   *     when every field is equal), and is deduplicated against that entry only. Such a write has patch
   *     semantics: a priority, disclosure or glossary it leaves unset keeps the entry's current value
   *     instead of resetting it (use {@code Engram.update} to change metadata alone)
   */
  public @Nullable String path() {
    return path;
  }

  /**
   * @return the actor history records for the write, or null
   */
  public @Nullable String source() {
    return source;
  }

  /**
   * @return ids of captured sources the entry is drawn from (empty: none)
   */
  public List<String> evidence() {
    return evidence;
  }

  /**
   * @return fail with {@link RevisionConflictException} unless the target scope is at this revision
   */
  public @Nullable Long expectedRevision() {
    return expectedRevision;
  }

  /**
   * @return when the remembered thing happened (stored as {@link MemoryEntry#occurredAt()})
   */
  public java.time.@Nullable Instant occurredAt() {
    return occurredAt;
  }

  /**
   * @return narrows the engine's write policy for this call (it can never widen it: descendants only
   *     when both allow them, ancestor promotion no further than both allow)
   */
  public @Nullable WritePolicy writePolicy() {
    return writePolicy;
  }

  /**
   * @return where the write comes from, recorded in history (null: {@code application}; see {@link
   *     MemoryEvent#origin()})
   */
  public @Nullable String origin() {
    return origin;
  }

  @Override
  public boolean equals(@Nullable Object o) {
    return o instanceof WriteOptions other
        && Objects.equals(topicsHint, other.topicsHint)
        && Objects.equals(type, other.type)
        && Objects.equals(priority, other.priority)
        && Objects.equals(disclosure, other.disclosure)
        && Objects.equals(glossary, other.glossary)
        && Objects.equals(path, other.path)
        && Objects.equals(source, other.source)
        && Objects.equals(evidence, other.evidence)
        && Objects.equals(expectedRevision, other.expectedRevision)
        && Objects.equals(occurredAt, other.occurredAt)
        && Objects.equals(writePolicy, other.writePolicy)
        && Objects.equals(origin, other.origin);
  }

  @Override
  public int hashCode() {
    return Objects.hash(topicsHint, type, priority, disclosure, glossary, path, source, evidence,
        expectedRevision, occurredAt, writePolicy, origin);
  }

  @Override
  public String toString() {
    return "WriteOptions["
        + "topicsHint=" + topicsHint
        + ", type=" + type
        + ", priority=" + priority
        + ", disclosure=" + disclosure
        + ", glossary=" + glossary
        + ", path=" + path
        + ", source=" + source
        + ", evidence=" + evidence
        + ", expectedRevision=" + expectedRevision
        + ", occurredAt=" + occurredAt
        + ", writePolicy=" + writePolicy
        + ", origin=" + origin + "]";
  }
}
