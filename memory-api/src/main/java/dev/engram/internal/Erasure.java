/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.internal;

import dev.engram.Grants;
import dev.engram.MemoryEntry;
import dev.engram.NotFoundException;
import dev.engram.spi.MemoryStore;
import java.util.List;

/**
 * Erasure, the one exception to immutable history: an entry or a scope's content is removed
 * everywhere, and the scope's revision log records the deletion (ids only). Authorization is the
 * facade's. Once a scope's erasure commits, the search service drops what it caches of that scope.
 */
final class Erasure {
  private final MemoryStore store;
  private final Commits commits;
  private final SearchService search;

  Erasure(MemoryStore store, Commits commits, SearchService search) {
    this.store = store;
    this.commits = commits;
    this.search = search;
  }

  int deleteEntry(Grants grants, MemoryEntry cur) {
    int erased = commits.run(cur.scope(), c -> {
      int removed = c.eraseEntry(cur.entryId());
      if (removed == 0) {
        throw new NotFoundException("entry " + cur.entryId() + " not found or not visible to " + grants);
      }
      return removed;
    });
    search.forget(cur.scope());
    return erased;
  }

  /** Scopes {@code deleteScope} would erase (to authorize each before anything is erased). */
  List<String> scopes(String prefix, boolean withDescendants) {
    return withDescendants ? store.scopesFrom(prefix) : store.hasScope(prefix) ? List.of(prefix) : List.of();
  }

  /** Erases each scope in its own commit; returns the entries removed. */
  int deleteScopes(List<String> scopes) {
    int total = 0;
    for (String scope : scopes) {
      total += commits.run(scope, Commit::eraseScopeContent);
      search.forget(scope);
    }
    return total;
  }
}
