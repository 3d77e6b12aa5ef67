/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

/**
 * A write or a move would put an entry at a path of a Lore domain ({@code core://}, {@code preferences://},
 * {@code project://}) whose parent path has no active entry in the same scope: {@code project://checkout_api/webhooks}
 * needs an entry at {@code project://checkout_api} first. Top-level paths ({@code project://checkout_api}) and
 * boot nodes' addresses need no parent. Nothing was written.
 */
public class ParentNotFoundException extends EntryStateException {
  private static final long serialVersionUID = 1L;
  /** The scope the entry would be written in. */
  private final String scope;
  /** The path asked for. */
  private final String path;
  /** The parent path that has no active entry. */
  private final String parent;

  /**
   * @param scope the scope the entry would be written in
   * @param path the path asked for
   * @param parent its parent path, which has no active entry in {@code scope}
   */
  public ParentNotFoundException(String scope, String path, String parent) {
    super("path '" + path + "' in " + scope + " needs its parent '" + parent + "', and no active entry of " + scope
        + " is at '" + parent + "'; write the parent first (a top-level path needs none)");
    this.scope = scope;
    this.path = path;
    this.parent = parent;
  }

  /** @return the scope the entry would be written in */
  public String scope() {
    return scope;
  }

  /** @return the path asked for */
  public String path() {
    return path;
  }

  /** @return the parent path that has no active entry */
  public String parent() {
    return parent;
  }
}
