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

  public static ListOptions defaults() {
    return DEFAULTS;
  }

  public static Builder builder() {
    return new Builder();
  }

  public static final class Builder {
    private boolean includeSuperseded;
    private boolean includeRetired;
    private @Nullable String topic;
    private @Nullable String scope;

    private Builder() {}

    public Builder includeSuperseded(boolean include) {
      this.includeSuperseded = include;
      return this;
    }

    public Builder includeRetired(boolean include) {
      this.includeRetired = include;
      return this;
    }

    public Builder topic(String topic) {
      this.topic = Objects.requireNonNull(topic, "topic");
      return this;
    }

    public Builder scope(String scope) {
      this.scope = Objects.requireNonNull(scope, "scope");
      return this;
    }

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
