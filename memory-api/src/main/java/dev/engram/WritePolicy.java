/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * Where, relative to its grants, a caller may write. Immutable; made by {@link #defaults()},
 * {@link #grantOnly()} or {@link #builder()}.
 */
public final class WritePolicy {
  private static final WritePolicy DEFAULTS = builder().build();
  private static final WritePolicy GRANT_ONLY = builder().grantOnly().build();

  private final boolean allowDescendants;
  private final AncestorPromotion ancestorPromotion;

  private WritePolicy(boolean allowDescendants, AncestorPromotion ancestorPromotion) {
    this.allowDescendants = allowDescendants;
    this.ancestorPromotion = Objects.requireNonNull(ancestorPromotion, "ancestorPromotion");
  }

  /**
   * Writes may land on a grant or below it, never above.
   *
   * @return the default policy
   */
  public static WritePolicy defaults() {
    return DEFAULTS;
  }

  /**
   * Writes land on a granted namespace exactly: neither below nor above it.
   *
   * @return the policy
   */
  public static WritePolicy grantOnly() {
    return GRANT_ONLY;
  }

  /**
   * @return a builder holding the default policy
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * @return a builder holding this policy
   */
  public Builder toBuilder() {
    return new Builder().allowDescendants(allowDescendants).ancestorPromotion(ancestorPromotion);
  }

  /**
   * @return whether writes may land below a grant (default true)
   */
  public boolean allowDescendants() {
    return allowDescendants;
  }

  /**
   * @return how far above a grant writes may land (default {@link AncestorPromotion#NONE})
   */
  public AncestorPromotion ancestorPromotion() {
    return ancestorPromotion;
  }

  @Override
  public boolean equals(@Nullable Object o) {
    return o instanceof WritePolicy other && allowDescendants == other.allowDescendants
        && ancestorPromotion == other.ancestorPromotion;
  }

  @Override
  public int hashCode() {
    return Objects.hash(allowDescendants, ancestorPromotion);
  }

  @Override
  public String toString() {
    return "WritePolicy[allowDescendants=" + allowDescendants + ", ancestorPromotion=" + ancestorPromotion + "]";
  }

  /** A builder, starting from the default policy. */
  public static final class Builder {
    private boolean allowDescendants = true;
    private AncestorPromotion ancestorPromotion = AncestorPromotion.NONE;

    private Builder() {}

    /**
     * @param allow whether writes may land below a grant
     * @return this builder
     */
    public Builder allowDescendants(boolean allow) {
      this.allowDescendants = allow;
      return this;
    }

    /**
     * Writes land on a granted namespace exactly: the same as {@code allowDescendants(false)}.
     *
     * @return this builder
     */
    public Builder grantOnly() {
      return allowDescendants(false);
    }

    /**
     * @param promotion how far above a grant writes may land
     * @return this builder
     * @throws NullPointerException when {@code promotion} is null
     */
    public Builder ancestorPromotion(AncestorPromotion promotion) {
      this.ancestorPromotion = Objects.requireNonNull(promotion, "ancestorPromotion");
      return this;
    }

    /**
     * @return the policy
     */
    public WritePolicy build() {
      return new WritePolicy(allowDescendants, ancestorPromotion);
    }
  }
}
