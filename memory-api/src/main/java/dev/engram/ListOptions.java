/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Options of the deterministic audit read {@link Engram#list(Grants, ListOptions)}. Results are ordered
 * by scope, then by the revision that created each version, then by version.
 */
public final class ListOptions {
  private final boolean includeSuperseded;
  private final boolean includeRetired;
  private final @Nullable String topic;
  private final @Nullable String scope;

  private ListOptions(
      boolean includeSuperseded,
      boolean includeRetired,
      @Nullable String topic,
      @Nullable String scope) {
    this.includeSuperseded = includeSuperseded;
    this.includeRetired = includeRetired;
    this.topic = topic;
    this.scope = scope;
  }

  private static final ListOptions DEFAULTS = builder().build();

  /** @return options that list the active entries of every visible scope, any topic */
  public static ListOptions defaults() {
    return DEFAULTS;
  }

  /** @return a builder with nothing set: active entries only, every visible scope, any topic */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder of {@link ListOptions}; {@code build()} may be called more than once. */
  public static final class Builder {
    private boolean includeSuperseded;
    private boolean includeRetired;
    private @Nullable String topic;
    private @Nullable String scope;

    private Builder() {}

    /**
     * Lists every version of every entry, whatever its status (whole chains); this includes retired ones.
     *
     * @param include whether to (default false)
     * @return this builder
     */
    public Builder includeSuperseded(boolean include) {
      this.includeSuperseded = include;
      return this;
    }

    /**
     * Lists current versions that were retired, too (ignored when {@link #includeSuperseded(boolean)} is
     * set).
     *
     * @param include whether to (default false)
     * @return this builder
     */
    public Builder includeRetired(boolean include) {
      this.includeRetired = include;
      return this;
    }

    /**
     * Lists only entries carrying this topic.
     *
     * @param topic the topic, normalized as a written topic when the list runs (at most 64 characters)
     * @return this builder
     * @throws NullPointerException when {@code topic} is null
     */
    public Builder topic(String topic) {
      this.topic = Objects.requireNonNull(topic, "topic");
      return this;
    }

    /**
     * Lists only this scope; the list then fails with {@link NotFoundException} unless the grants see it.
     *
     * @param scope a visible scope
     * @return this builder
     * @throws NullPointerException when {@code scope} is null
     */
    public Builder scope(String scope) {
      this.scope = Objects.requireNonNull(scope, "scope");
      return this;
    }

    /** @return the options set so far; the builder stays usable */
    public ListOptions build() {
      return new ListOptions(includeSuperseded, includeRetired, topic, scope);
    }
  }

  /**
   * @return every version of every entry, whatever its status (whole chains)
   */
  public boolean includeSuperseded() {
    return includeSuperseded;
  }

  /**
   * @return current versions that were retired, too
   */
  public boolean includeRetired() {
    return includeRetired;
  }

  /**
   * @return only entries carrying this topic
   */
  public @Nullable String topic() {
    return topic;
  }

  /**
   * @return only this visible scope
   */
  public @Nullable String scope() {
    return scope;
  }

  @Override
  public boolean equals(@Nullable Object o) {
    return o instanceof ListOptions other
        && Objects.equals(includeSuperseded, other.includeSuperseded)
        && Objects.equals(includeRetired, other.includeRetired)
        && Objects.equals(topic, other.topic)
        && Objects.equals(scope, other.scope);
  }

  @Override
  public int hashCode() {
    return Objects.hash(includeSuperseded, includeRetired, topic, scope);
  }

  @Override
  public String toString() {
    return "ListOptions["
        + "includeSuperseded=" + includeSuperseded
        + ", includeRetired=" + includeRetired
        + ", topic=" + topic
        + ", scope=" + scope + "]";
  }
}
