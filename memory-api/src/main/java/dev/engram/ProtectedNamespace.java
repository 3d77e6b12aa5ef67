/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.util.Objects;

/**
 * A boundary that grants must stay well below. With boundary {@code app/private/users} and
 * {@code minDepthBelow = 1}, a grant must be at least {@code app/private/users/<x>}: grants at the
 * boundary or between it and that depth are rejected, and a grant above the boundary may not write
 * down into it.
 */
public record ProtectedNamespace(String boundary, int minDepthBelow) {
  public ProtectedNamespace {
    Namespaces.validate("boundary", boundary);
    if (minDepthBelow < 1) {
      throw new InvalidInputException("minDepthBelow", "must be at least 1, was " + minDepthBelow);
    }
  }

  public static ProtectedNamespace of(String boundary) {
    return new ProtectedNamespace(boundary, 1);
  }

  /** True when {@code namespace} lies at or below the boundary. */
  public boolean covers(String namespace) {
    return Namespaces.isSelfOrAncestor(boundary, namespace);
  }

  /** True when {@code namespace} is covered but not deep enough to be granted. */
  public boolean tooShallow(String namespace) {
    Objects.requireNonNull(namespace, "namespace");
    return covers(namespace) && Namespaces.depth(namespace) - Namespaces.depth(boundary) < minDepthBelow;
  }
}
