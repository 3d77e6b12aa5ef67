/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * The namespaces that trusted application code lets one caller use. A model never sees or chooses a
 * grant. Read visibility is each grant plus its ancestors (never siblings or descendants); writes go
 * to a grant or, when the {@link WritePolicy} allows, below it or up to its ancestors.
 *
 * <p>Immutable and validated on construction: an empty list, blanks, leading or trailing {@code /},
 * {@code //}, {@code .}/{@code ..} segments, {@code *} and whitespace are rejected with an
 * {@link InvalidGrantException}.
 */
public final class Grants {
  public static final int MAX_GRANTS = 64;

  private final List<String> namespaces;
  private final Set<String> visible;

  private Grants(List<String> namespaces) {
    this.namespaces = namespaces;
    LinkedHashSet<String> v = new LinkedHashSet<>();
    for (String ns : namespaces) {
      v.addAll(Namespaces.selfAndAncestors(ns));
    }
    this.visible = Collections.unmodifiableSet(v);
  }

  public static Grants of(String first, String... more) {
    Objects.requireNonNull(first, "grant");
    Objects.requireNonNull(more, "grants");
    List<String> all = new ArrayList<>(1 + more.length);
    all.add(first);
    Collections.addAll(all, more);
    return of(all);
  }

  public static Grants of(List<String> namespaces) {
    Objects.requireNonNull(namespaces, "grants");
    if (namespaces.isEmpty()) {
      throw new InvalidGrantException("grants", "at least one grant is required");
    }
    if (namespaces.size() > MAX_GRANTS) {
      throw new InvalidGrantException(
          "grants", namespaces.size() + " grants given; the limit is " + MAX_GRANTS);
    }
    LinkedHashSet<String> unique = new LinkedHashSet<>();
    for (int i = 0; i < namespaces.size(); i++) {
      String ns = namespaces.get(i);
      if (ns == null) {
        throw new InvalidGrantException("grants[" + i + "]", "grant is null");
      }
      unique.add(Namespaces.validate("grants[" + i + "]", ns));
    }
    return new Grants(List.copyOf(unique));
  }

  /** The granted namespaces, in the order given, without duplicates. */
  public List<String> namespaces() {
    return namespaces;
  }

  /** Every namespace these grants can read: each grant and all its ancestors. */
  public Set<String> visibleScopes() {
    return visible;
  }

  public boolean canSee(String scope) {
    return visible.contains(scope);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof Grants g && g.namespaces.equals(namespaces);
  }

  @Override
  public int hashCode() {
    return namespaces.hashCode();
  }

  @Override
  public String toString() {
    return "Grants" + namespaces;
  }
}
