/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Rules for namespace paths such as {@code app/user/u_123}: segments are non-empty, contain no
 * whitespace, control characters or {@code *}, are not {@code .} or {@code ..}, and the path has no
 * leading or trailing {@code /}. At most {@value #MAX_DEPTH} segments and {@value #MAX_LENGTH} characters.
 */
public final class Namespaces {
  public static final int MAX_LENGTH = 512;
  public static final int MAX_DEPTH = 32;

  private Namespaces() {}

  /**
   * Validates a namespace and returns it unchanged.
   *
   * @param field the argument name used in the error message
   * @throws InvalidGrantException naming the first rule the value breaks
   */
  public static String validate(String field, String namespace) {
    Objects.requireNonNull(namespace, field);
    if (namespace.isEmpty()) {
      throw new InvalidGrantException(field, "namespace is empty");
    }
    if (namespace.length() > MAX_LENGTH) {
      throw new InvalidGrantException(
          field, "namespace is " + namespace.length() + " characters; the limit is " + MAX_LENGTH);
    }
    if (namespace.startsWith("/") || namespace.endsWith("/")) {
      throw new InvalidGrantException(field, "namespace '" + namespace + "' has a leading or trailing '/'");
    }
    if (namespace.contains("//")) {
      throw new InvalidGrantException(field, "namespace '" + namespace + "' has an empty segment ('//')");
    }
    for (int i = 0; i < namespace.length(); i++) {
      char c = namespace.charAt(i);
      if (Character.isWhitespace(c) || Character.isSpaceChar(c)) {
        throw new InvalidGrantException(field, "namespace '" + namespace + "' contains whitespace at index " + i);
      }
      if (Character.isISOControl(c) || Character.isSurrogate(c) || c == '\uFFFE' || c == '\uFFFF') {
        throw new InvalidGrantException(
            field, "namespace contains a control or surrogate character (U+" + String.format("%04X", (int) c)
                + ") at index " + i);
      }
      if (c == '*') {
        throw new InvalidGrantException(field, "namespace '" + namespace + "' contains a wildcard '*'");
      }
      if (c == '\\') {
        throw new InvalidGrantException(field, "namespace '" + namespace + "' contains a backslash");
      }
    }
    String[] segments = namespace.split("/", -1);
    if (segments.length > MAX_DEPTH) {
      throw new InvalidGrantException(
          field, "namespace has " + segments.length + " segments; the limit is " + MAX_DEPTH);
    }
    for (String s : segments) {
      if (s.equals(".") || s.equals("..")) {
        throw new InvalidGrantException(field, "namespace '" + namespace + "' contains a '" + s + "' segment");
      }
    }
    return namespace;
  }

  /** Number of segments: {@code app/user} has depth 2. */
  public static int depth(String namespace) {
    int d = 1;
    for (int i = 0; i < namespace.length(); i++) {
      if (namespace.charAt(i) == '/') {
        d++;
      }
    }
    return d;
  }

  /** The first segment: {@code app} for {@code app/user/u1}. */
  public static String topLevel(String namespace) {
    int i = namespace.indexOf('/');
    return i < 0 ? namespace : namespace.substring(0, i);
  }

  /** True when {@code ancestor} equals {@code namespace} or is one of its ancestors. */
  public static boolean isSelfOrAncestor(String ancestor, String namespace) {
    return namespace.equals(ancestor)
        || (namespace.length() > ancestor.length()
            && namespace.startsWith(ancestor)
            && namespace.charAt(ancestor.length()) == '/');
  }

  /** The namespace itself followed by its ancestors, nearest first: {@code a/b/c, a/b, a}. */
  public static List<String> selfAndAncestors(String namespace) {
    List<String> out = new ArrayList<>();
    String cur = namespace;
    while (true) {
      out.add(cur);
      int i = cur.lastIndexOf('/');
      if (i < 0) {
        return out;
      }
      cur = cur.substring(0, i);
    }
  }
}
