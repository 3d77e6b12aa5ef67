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
 *
 * @param topicsHint topics the entry keeps; the reasoner may add more after them. With a type as well,
 *     the write needs no reasoner: when the reasoner fails it is filed from these fields (with a warning)
 * @param type the entry's type; it wins over the reasoner's
 * @param priority 0 core, 1 key, 2+ general (default 2)
 * @param glossary the glossary, or null when the write sets none (a path write then keeps the
 *     entry's current glossary; an empty list clears it)
 * @param path a stable address; a write to an active path makes a new version of that entry (or is
 *     DEDUPED when every field is equal), and is deduplicated against that entry only. Such a write
 *     has patch semantics: a priority, disclosure or glossary it leaves unset keeps the entry's
 *     current value instead of resetting it (use {@code Engram.update} to change metadata alone)
 * @param expectedRevision fail with {@link RevisionConflictException} unless the target scope is at
 *     this revision
 * @param occurredAt when the remembered thing happened (stored as {@link MemoryEntry#occurredAt()})
 * @param writePolicy narrows the engine's write policy for this call (it can never widen it:
 *     descendants only when both allow them, ancestor promotion no further than both allow)
 * @param origin where the write comes from, recorded in history (null: {@link Origin#APPLICATION})
 */
public record WriteOptions(
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
    @Nullable Origin origin) {

  private static final WriteOptions DEFAULTS = builder().build();

  public WriteOptions {
    topicsHint = List.copyOf(topicsHint);
    glossary = glossary == null ? null : List.copyOf(glossary);
    evidence = List.copyOf(evidence);
  }

  public static WriteOptions defaults() {
    return DEFAULTS;
  }

  public static Builder builder() {
    return new Builder();
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
    private @Nullable Origin origin;

    private Builder() {}

    public Builder topicsHint(String... topics) {
      return topicsHint(Arrays.asList(Objects.requireNonNull(topics, "topicsHint")));
    }

    public Builder topicsHint(List<String> topics) {
      this.topicsHint = copyNoNulls("topicsHint", topics);
      return this;
    }

    public Builder type(EntryType type) {
      this.type = Objects.requireNonNull(type, "type");
      return this;
    }

    public Builder priority(int priority) {
      this.priority = priority;
      return this;
    }

    public Builder disclosure(String disclosure) {
      this.disclosure = Objects.requireNonNull(disclosure, "disclosure");
      return this;
    }

    public Builder glossary(String... terms) {
      return glossary(Arrays.asList(Objects.requireNonNull(terms, "glossary")));
    }

    public Builder glossary(List<String> terms) {
      this.glossary = copyNoNulls("glossary", terms);
      return this;
    }

    public Builder path(String path) {
      this.path = Objects.requireNonNull(path, "path");
      return this;
    }

    public Builder source(String source) {
      this.source = Objects.requireNonNull(source, "source");
      return this;
    }

    public Builder evidence(String... refs) {
      return evidence(Arrays.asList(Objects.requireNonNull(refs, "evidence")));
    }

    public Builder evidence(List<String> refs) {
      this.evidence = copyNoNulls("evidence", refs);
      return this;
    }

    public Builder expectedRevision(long revision) {
      this.expectedRevision = revision;
      return this;
    }

    /** When the remembered thing happened. */
    public Builder occurredAt(java.time.Instant when) {
      this.occurredAt = Objects.requireNonNull(when, "occurredAt");
      return this;
    }

    public Builder writePolicy(WritePolicy policy) {
      this.writePolicy = Objects.requireNonNull(policy, "writePolicy");
      return this;
    }

    /**
     * @param origin where the write comes from
     * @return this builder
     */
    public Builder origin(Origin origin) {
      this.origin = Objects.requireNonNull(origin, "origin");
      return this;
    }

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
}
