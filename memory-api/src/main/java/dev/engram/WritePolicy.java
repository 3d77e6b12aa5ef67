/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.util.Objects;

/**
 * Where, relative to its grants, a caller may write.
 *
 * @param allowDescendants writes may land below a grant (default true)
 * @param ancestorPromotion writes may land above a grant (default {@link AncestorPromotion#NONE})
 */
public record WritePolicy(boolean allowDescendants, AncestorPromotion ancestorPromotion) {
  public static final WritePolicy DEFAULT = new WritePolicy(true, AncestorPromotion.NONE);

  public WritePolicy {
    Objects.requireNonNull(ancestorPromotion, "ancestorPromotion");
  }

  /** The grant itself only. */
  public static WritePolicy grantOnly() {
    return new WritePolicy(false, AncestorPromotion.NONE);
  }

  public WritePolicy withAncestorPromotion(AncestorPromotion promotion) {
    return new WritePolicy(allowDescendants, promotion);
  }

  public WritePolicy withDescendants(boolean allow) {
    return new WritePolicy(allow, ancestorPromotion);
  }
}
