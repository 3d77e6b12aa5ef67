/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.util.Objects;

/**
 * A boundary that grants must stay well below. With boundary {@code app/private/users} and {@code
 * minDepthBelow = 1}, a grant must be at least {@code app/private/users/<x>}: grants at the boundary or
 * between it and that depth are rejected, and a grant above the boundary may not write down into it.
 *
 * @param boundary the protected namespace
 * @param minDepthBelow how many segments below the boundary a grant must reach, at least 1
 */
public record ProtectedNamespace(String boundary, int minDepthBelow) {
  /**
   * Checks the boundary and the depth.
   *
   * @param boundary the protected namespace
   * @param minDepthBelow how many segments below the boundary a grant must reach, at least 1
   * @throws NullPointerException when {@code boundary} is null
   * @throws InvalidGrantException when {@code boundary} is not a valid namespace
   * @throws InvalidInputException when {@code minDepthBelow} is below 1
   */
  public ProtectedNamespace {
    Namespaces.validate("boundary", boundary);
    if (minDepthBelow < 1) {
      throw new InvalidInputException("minDepthBelow", "must be at least 1, was " + minDepthBelow);
    }
  }

  /**
   * A boundary whose grants must lie at least one segment below it.
   *
   * @param boundary the protected namespace
   * @return the protected namespace, {@code minDepthBelow} 1
   * @throws NullPointerException when {@code boundary} is null
   * @throws InvalidGrantException when {@code boundary} is not a valid namespace
   */
  public static ProtectedNamespace of(String boundary) {
    return new ProtectedNamespace(boundary, 1);
  }

  /**
   * @param namespace a namespace
   * @return true when {@code namespace} lies at or below the boundary
   */
  public boolean covers(String namespace) {
    return Namespaces.isSelfOrAncestor(boundary, namespace);
  }

  /**
   * @param namespace a namespace
   * @return true when {@code namespace} is covered but not deep enough to be granted
   * @throws NullPointerException when {@code namespace} is null
   */
  public boolean tooShallow(String namespace) {
    Objects.requireNonNull(namespace, "namespace");
    return covers(namespace) && Namespaces.depth(namespace) - Namespaces.depth(boundary) < minDepthBelow;
  }
}
