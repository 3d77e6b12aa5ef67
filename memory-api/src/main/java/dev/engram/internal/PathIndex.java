/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.internal;

import dev.engram.DomainSummary;
import dev.engram.EntryStatus;
import dev.engram.Grants;
import dev.engram.InvalidInputException;
import dev.engram.MemoryEntry;
import dev.engram.PathNode;
import dev.engram.spi.MemoryStore;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Reads over paths: the domains in use and the direct children of a prefix. Only active entries of
 * the scopes the grants can see count; results name paths and ids, never content.
 */
final class PathIndex {
  private static final Pattern DOMAIN_ROOT = Pattern.compile("[a-z][a-z0-9_-]{0,31}://");
  private static final Comparator<PathNode> ORDER = Comparator.comparing(PathNode::path)
      .thenComparing(PathNode::prefix)
      .thenComparing(n -> n.scope() == null ? "" : n.scope());

  private final MemoryStore store;

  PathIndex(MemoryStore store) {
    this.store = store;
  }

  /** The domain of a path ({@code project} for {@code project://a/b}), or null when it has none. */
  static @Nullable String domainOf(@Nullable String path) {
    if (path == null) {
      return null;
    }
    int i = path.indexOf("://");
    return i > 0 ? path.substring(0, i) : null;
  }

  /**
   * Validates a browse prefix and returns it ending in {@code /}: a domain root ({@code project://})
   * or a path, with or without the trailing slash ({@code project://checkout_api/}).
   */
  static String prefix(String raw) {
    if (raw == null) {
      throw new NullPointerException("prefix");
    }
    if (DOMAIN_ROOT.matcher(raw).matches()) {
      return raw;
    }
    if (raw.isEmpty()) {
      throw new InvalidInputException("prefix", "is empty; browse a domain root such as 'project://' or a path prefix");
    }
    String trimmed = raw.endsWith("/") ? raw.substring(0, raw.length() - 1) : raw;
    Text.path("prefix", trimmed);
    return trimmed + "/";
  }

  List<DomainSummary> domains(Grants grants) {
    Map<String, Integer> counts = new TreeMap<>();
    for (MemoryEntry e : active(grants)) {
      String domain = domainOf(e.path());
      if (domain != null) {
        counts.merge(domain, 1, Integer::sum);
      }
    }
    List<DomainSummary> out = new ArrayList<>();
    counts.forEach((d, n) -> out.add(new DomainSummary(d, n)));
    return List.copyOf(out);
  }

  List<PathNode> browse(Grants grants, String prefix) {
    List<PathNode> out = new ArrayList<>();
    Map<String, Integer> below = new TreeMap<>();
    for (MemoryEntry e : active(grants)) {
      String path = e.path();
      if (path == null || !path.startsWith(prefix)) {
        continue;
      }
      String rest = path.substring(prefix.length());
      int slash = rest.indexOf('/');
      if (slash < 0) {
        out.add(new PathNode(path, false, e.scope(), e.entryId(), 1));
      } else {
        below.merge(prefix + rest.substring(0, slash + 1), 1, Integer::sum);
      }
    }
    below.forEach((p, n) -> out.add(new PathNode(p, true, null, null, n)));
    out.sort(ORDER);
    return List.copyOf(out);
  }

  private List<MemoryEntry> active(Grants grants) {
    List<MemoryEntry> out = new ArrayList<>();
    for (MemoryEntry e : store.versionsIn(grants.visibleScopes(), EnumSet.of(EntryStatus.ACTIVE))) {
      if (e.isActive() && grants.canSee(e.scope())) {
        out.add(e);
      }
    }
    return out;
  }
}
