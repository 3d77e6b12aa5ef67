/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.agent;

import dev.engram.InvalidInputException;
import dev.engram.Namespaces;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Optional settings of a {@link MemoryFiles} view, chosen by trusted code. Immutable.
 *
 * <pre>{@code
 * MemoryFiles team = MemoryFiles.bind(engram, Grants.of("acme/team/alice"),
 *     MemoryFilesOptions.builder().scope("acme/team").build());   // an ancestor: read-only
 * }</pre>
 */
public final class MemoryFilesOptions {
  private static final MemoryFilesOptions DEFAULTS = builder().build();

  private final @Nullable String scope;
  private final MemoryMode mode;
  private final String source;

  private MemoryFilesOptions(Builder b) {
    this.scope = b.scope;
    this.mode = b.mode != null ? b.mode : MemoryMode.READ_WRITE;
    this.source = b.source != null ? b.source : MemoryResource.DEFAULT_SOURCE;
  }

  /**
   * The defaults: the first grant's scope, read-write where the grants allow it, actor
   * {@value MemoryResource#DEFAULT_SOURCE}.
   *
   * @return the defaults
   */
  public static MemoryFilesOptions defaults() {
    return DEFAULTS;
  }

  /**
   * Starts building options.
   *
   * @return a builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * The scope whose files the view shows, or null for the first grant.
   *
   * @return the scope, or null
   */
  public @Nullable String scope() {
    return scope;
  }

  /**
   * Whether the view may change files at all ({@link MemoryMode#READ}: every edit is refused).
   *
   * @return the mode
   */
  public MemoryMode mode() {
    return mode;
  }

  /**
   * The actor history records for the view's edits.
   *
   * @return the actor
   */
  public String source() {
    return source;
  }

  @Override
  public String toString() {
    return "MemoryFilesOptions[scope=" + scope + ", mode=" + mode + ", source=" + source + "]";
  }

  /** Builds {@link MemoryFilesOptions}; each setting may be given once, {@code build()} more than once. */
  public static final class Builder {
    private @Nullable String scope;
    private @Nullable MemoryMode mode;
    private @Nullable String source;

    private Builder() {}

    /**
     * The scope whose files the view shows (default: the first grant). It must be visible with the
     * grants the view is bound to; it is writable only when it is one of the granted namespaces
     * themselves (an ancestor scope is shown read-only).
     *
     * @param namespace the scope
     * @return this builder
     * @throws InvalidInputException if it is not a namespace
     * @throws IllegalStateException if it was already set
     */
    public Builder scope(String namespace) {
      requireUnset("scope", this.scope);
      this.scope = Namespaces.validate("scope", Objects.requireNonNull(namespace, "scope"));
      return this;
    }

    /**
     * {@link MemoryMode#READ} to refuse every edit even where the grants could write (default
     * {@link MemoryMode#READ_WRITE}).
     *
     * @param mode the mode
     * @return this builder
     * @throws IllegalStateException if it was already set
     */
    public Builder mode(MemoryMode mode) {
      requireUnset("mode", this.mode);
      this.mode = Objects.requireNonNull(mode, "mode");
      return this;
    }

    /**
     * The actor history records for the view's edits (default {@value MemoryResource#DEFAULT_SOURCE}).
     *
     * @param actor e.g. the agent's id
     * @return this builder
     * @throws InvalidInputException if blank or longer than 200 characters
     * @throws IllegalStateException if it was already set
     */
    public Builder source(String actor) {
      requireUnset("source", this.source);
      Objects.requireNonNull(actor, "source");
      if (actor.isBlank() || actor.length() > 200) {
        throw new InvalidInputException("source", "must be 1..200 characters and not blank");
      }
      this.source = actor;
      return this;
    }

    /**
     * The options.
     *
     * @return the options
     */
    public MemoryFilesOptions build() {
      return new MemoryFilesOptions(this);
    }

    private static void requireUnset(String name, @Nullable Object current) {
      if (current != null) {
        throw new IllegalStateException(name + " was already set to " + current);
      }
    }
  }
}
