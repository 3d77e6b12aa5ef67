/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Options of the calls that change an existing entry ({@code correct}, {@code retire},
 * {@code reactivate}, {@code rollback}, {@code move}, {@code update}). Immutable; made by
 * {@link #defaults()}, the one-setting factories or {@link #builder()}.
 */
public final class ChangeOptions {
  private static final ChangeOptions DEFAULTS = new Builder().build();

  private final @Nullable Long expectedRevision;
  private final @Nullable String source;
  private final @Nullable String reason;
  private final @Nullable String origin;

  private ChangeOptions(Builder b) {
    this.expectedRevision = b.expectedRevision;
    this.source = b.source;
    this.reason = b.reason;
    this.origin = b.origin;
  }

  /**
   * @return options that set nothing
   */
  public static ChangeOptions defaults() {
    return DEFAULTS;
  }

  /**
   * @param reason why, recorded in history
   * @return options with only a reason
   */
  public static ChangeOptions reason(String reason) {
    return builder().reason(reason).build();
  }

  /**
   * @param revision the revision the entry's scope must be at
   * @return options with only an expected revision
   */
  public static ChangeOptions expectedRevision(long revision) {
    return builder().expectedRevision(revision).build();
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
    b.expectedRevision = expectedRevision;
    b.source = source;
    b.reason = reason;
    b.origin = origin;
    return b;
  }

  /**
   * @return fail with {@link RevisionConflictException} unless the entry's scope is at this revision;
   *     null: no check
   */
  public @Nullable Long expectedRevision() {
    return expectedRevision;
  }

  /**
   * @return the actor recorded in history, or null
   */
  public @Nullable String source() {
    return source;
  }

  /**
   * @return why, recorded in history, or null
   */
  public @Nullable String reason() {
    return reason;
  }

  /**
   * @return where the change comes from, recorded in history (null: {@code application}; see
   *     {@link MemoryEvent#origin()})
   */
  public @Nullable String origin() {
    return origin;
  }

  @Override
  public boolean equals(@Nullable Object o) {
    return o instanceof ChangeOptions other
        && Objects.equals(expectedRevision, other.expectedRevision)
        && Objects.equals(source, other.source)
        && Objects.equals(reason, other.reason)
        && Objects.equals(origin, other.origin);
  }

  @Override
  public int hashCode() {
    return Objects.hash(expectedRevision, source, reason, origin);
  }

  @Override
  public String toString() {
    return "ChangeOptions[expectedRevision=" + expectedRevision + ", source=" + source + ", reason=" + reason
        + ", origin=" + origin + "]";
  }

  /** A builder; {@code build()} may be called more than once. */
  public static final class Builder {
    private @Nullable Long expectedRevision;
    private @Nullable String source;
    private @Nullable String reason;
    private @Nullable String origin;

    private Builder() {}

    /**
     * @param revision fail with {@link RevisionConflictException} unless the entry's scope is at it
     * @return this builder
     */
    public Builder expectedRevision(long revision) {
      this.expectedRevision = revision;
      return this;
    }

    /**
     * @param source the actor recorded in history
     * @return this builder
     * @throws NullPointerException when {@code source} is null
     */
    public Builder source(String source) {
      this.source = Objects.requireNonNull(source, "source");
      return this;
    }

    /**
     * @param reason why, recorded in history
     * @return this builder
     * @throws NullPointerException when {@code reason} is null
     */
    public Builder reason(String reason) {
      this.reason = Objects.requireNonNull(reason, "reason");
      return this;
    }

    /**
     * @param origin where the change comes from, an open id such as {@code agent} or {@code console}
     *     (1 to 32 lowercase letters, digits or {@code -}, starting with a letter)
     * @return this builder
     * @throws InvalidInputException when {@code origin} is not such an id
     */
    public Builder origin(String origin) {
      this.origin = OpenIds.check("origin", origin);
      return this;
    }

    /**
     * @return the options
     */
    public ChangeOptions build() {
      return new ChangeOptions(this);
    }
  }
}
