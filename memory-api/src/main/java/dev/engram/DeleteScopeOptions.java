/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

/**
 * Options of {@link Engram#deleteScope(Grants, String, DeleteScopeOptions)}: whether the scopes below
 * the named one are erased too. Immutable.
 */
public final class DeleteScopeOptions {
  private static final DeleteScopeOptions DEFAULTS = new DeleteScopeOptions(false);
  private static final DeleteScopeOptions WITH_DESCENDANTS = new DeleteScopeOptions(true);

  private final boolean descendants;

  private DeleteScopeOptions(boolean descendants) {
    this.descendants = descendants;
  }

  /**
   * Erase the named scope only.
   *
   * @return the default options
   */
  public static DeleteScopeOptions defaults() {
    return DEFAULTS;
  }

  /**
   * Erase the named scope and every scope below it ({@code app/user/u1} takes
   * {@code app/user/u1/notes} with it).
   *
   * @return the options
   */
  public static DeleteScopeOptions withDescendants() {
    return WITH_DESCENDANTS;
  }

  /**
   * @return whether the scopes below the named one are erased too
   */
  public boolean includesDescendants() {
    return descendants;
  }

  @Override
  public String toString() {
    return descendants ? "DeleteScopeOptions[withDescendants]" : "DeleteScopeOptions[defaults]";
  }
}
