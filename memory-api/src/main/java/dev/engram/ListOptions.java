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
 *
 * @param includeSuperseded every version of every entry, whatever its status (whole chains)
 * @param includeRetired current versions that were retired, too
 * @param topic only entries carrying this topic
 * @param scope only this visible scope
 */
public record ListOptions(
    boolean includeSuperseded, boolean includeRetired, @Nullable String topic, @Nullable String scope) {
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
}
