/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.internal;

import dev.engram.AncestorPromotion;
import dev.engram.Grants;
import dev.engram.InvalidGrantException;
import dev.engram.Namespaces;
import dev.engram.NotFoundException;
import dev.engram.ProtectedNamespace;
import dev.engram.ScopeViolationException;
import dev.engram.WritePolicy;
import java.util.List;
import java.util.Objects;

/** Read visibility and write authority of grants, including protected namespaces. */
final class GrantPolicy {
  private final List<ProtectedNamespace> protectedNamespaces;

  GrantPolicy(List<ProtectedNamespace> protectedNamespaces) {
    this.protectedNamespaces = List.copyOf(protectedNamespaces);
  }

  /** Rejects grants that a protected-namespace policy forbids. */
  Grants check(Grants grants) {
    Objects.requireNonNull(grants, "grants");
    for (String g : grants.namespaces()) {
      for (ProtectedNamespace p : protectedNamespaces) {
        if (p.tooShallow(g)) {
          throw new InvalidGrantException(
              "grants", "grant '" + g + "' is inside protected namespace '" + p.boundary()
                  + "' but less than " + p.minDepthBelow() + " segment(s) below it");
        }
      }
    }
    return grants;
  }

  /**
   * The policy a call runs under: a per-call policy may only narrow the configured one (descendant
   * writes only when both allow them, ancestor promotion no further than both allow).
   */
  static WritePolicy narrow(WritePolicy configured, @org.jspecify.annotations.Nullable WritePolicy requested) {
    if (requested == null) {
      return configured;
    }
    AncestorPromotion promotion = requested.ancestorPromotion().compareTo(configured.ancestorPromotion()) < 0
        ? requested.ancestorPromotion() : configured.ancestorPromotion();
    return WritePolicy.builder().allowDescendants(configured.allowDescendants() && requested.allowDescendants())
        .ancestorPromotion(promotion).build();
  }

  void requireVisible(Grants grants, String scope, String what) {
    if (!grants.canSee(scope)) {
      throw new NotFoundException(what + " not found or not visible to " + grants);
    }
  }

  boolean writable(Grants grants, WritePolicy policy, String target) {
    for (ProtectedNamespace p : protectedNamespaces) {
      if (p.tooShallow(target)) {
        return false;
      }
    }
    for (String g : grants.namespaces()) {
      if (authorizes(g, policy, target) && !crossesProtection(g, target)) {
        return true;
      }
    }
    return false;
  }

  void requireWritable(Grants grants, WritePolicy policy, String target) {
    if (!writable(grants, policy, target)) {
      throw new ScopeViolationException(
          "namespace '" + target + "' is not writable with " + grants + " under " + describe(policy));
    }
  }

  private static boolean authorizes(String grant, WritePolicy policy, String target) {
    if (grant.equals(target)) {
      return true;
    }
    if (policy.allowDescendants() && Namespaces.isSelfOrAncestor(grant, target)) {
      return true;
    }
    if (Namespaces.isSelfOrAncestor(target, grant)) {
      AncestorPromotion promo = policy.ancestorPromotion();
      if (promo == AncestorPromotion.ANCESTORS) {
        return true;
      }
      return promo == AncestorPromotion.PARENT && Namespaces.depth(grant) - Namespaces.depth(target) == 1;
    }
    return false;
  }

  /** A grant outside a protected boundary may not reach into it. */
  private boolean crossesProtection(String grant, String target) {
    for (ProtectedNamespace p : protectedNamespaces) {
      if (p.covers(target) && !p.covers(grant)) {
        return true;
      }
    }
    return false;
  }

  private static String describe(WritePolicy policy) {
    return "write policy (descendants " + (policy.allowDescendants() ? "allowed" : "not allowed")
        + ", ancestor promotion " + policy.ancestorPromotion().name().toLowerCase(java.util.Locale.ROOT) + ")";
  }
}
