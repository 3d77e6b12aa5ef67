/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Rules for namespace paths such as {@code app/user/u_123}: segments are non-empty, contain no
 * whitespace, control characters, unpaired surrogates, noncharacters, invisible format characters
 * (bidirectional overrides and the like; the zero-width joiners of emoji sequences are allowed),
 * {@code *} or a backslash, are in Unicode NFC form, are not {@code .} or {@code ..}, and the path
 * has no leading or trailing {@code /}. Any other Unicode character is allowed, including emoji and
 * other characters outside the Basic Multilingual Plane. At most {@value #MAX_DEPTH} segments and {@value #MAX_LENGTH} characters.
 */
public final class Namespaces {
  /** The longest namespace, in characters (UTF-16 code units). */
  public static final int MAX_LENGTH = 512;
  /** The most segments a namespace may have. */
  public static final int MAX_DEPTH = 32;

  private Namespaces() {}

  /**
   * Validates a namespace and returns it unchanged.
   *
   * @param field the argument name used in the error message
   * @param namespace the namespace to check
   * @return {@code namespace}
   * @throws NullPointerException when {@code namespace} is null (the message is {@code field})
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
    for (int i = 0; i < namespace.length(); ) {
      int c = namespace.codePointAt(i);
      if (Character.isWhitespace(c) || Character.isSpaceChar(c)) {
        throw new InvalidGrantException(field, "namespace '" + namespace + "' contains whitespace at index " + i);
      }
      if (Character.isSurrogate(namespace.charAt(i)) && Character.charCount(c) == 1) {
        throw new InvalidGrantException(
            field, "namespace contains an unpaired surrogate (U+" + hex(c) + ") at index " + i);
      }
      if (Character.isISOControl(c)) {
        throw new InvalidGrantException(
            field, "namespace contains a control character (U+" + hex(c) + ") at index " + i);
      }
      if (isNoncharacter(c)) {
        throw new InvalidGrantException(
            field, "namespace contains the noncharacter U+" + hex(c) + " at index " + i);
      }
      if (Character.getType(c) == Character.FORMAT && c != ZERO_WIDTH_NON_JOINER && c != ZERO_WIDTH_JOINER) {
        // bidirectional overrides and other invisible format characters make two namespaces look alike
        throw new InvalidGrantException(
            field, "namespace contains the invisible format character U+" + hex(c) + " at index " + i);
      }
      if (c == '*') {
        throw new InvalidGrantException(field, "namespace '" + namespace + "' contains a wildcard '*'");
      }
      if (c == '\\') {
        throw new InvalidGrantException(field, "namespace '" + namespace + "' contains a backslash");
      }
      i += Character.charCount(c);
    }
    if (!Normalizer.isNormalized(namespace, Normalizer.Form.NFC)) {
      // two spellings of one name (e + combining acute, é) must never be two tenants
      throw new InvalidGrantException(
          field, "namespace is not in Unicode NFC form; write it as '" + Normalizer.normalize(namespace, Normalizer.Form.NFC) + "'");
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

  private static final int ZERO_WIDTH_NON_JOINER = 0x200C;
  /** Joins emoji sequences such as family or profession emoji; allowed. */
  private static final int ZERO_WIDTH_JOINER = 0x200D;

  private static boolean isNoncharacter(int c) {
    return (c >= 0xFDD0 && c <= 0xFDEF) || (c & 0xFFFE) == 0xFFFE;
  }

  private static String hex(int c) {
    return String.format("%04X", c);
  }

  /**
   * The number of segments: {@code app/user} has depth 2. The namespace is not validated.
   *
   * @param namespace a namespace
   * @return its depth, at least 1
   */
  public static int depth(String namespace) {
    int d = 1;
    for (int i = 0; i < namespace.length(); i++) {
      if (namespace.charAt(i) == '/') {
        d++;
      }
    }
    return d;
  }

  /**
   * The first segment: {@code app} for {@code app/user/u1}. The namespace is not validated.
   *
   * @param namespace a namespace
   * @return its first segment (the namespace itself when it has one segment)
   */
  public static String topLevel(String namespace) {
    int i = namespace.indexOf('/');
    return i < 0 ? namespace : namespace.substring(0, i);
  }

  /**
   * Whether {@code ancestor} equals {@code namespace} or is one of its ancestors, segment by segment: {@code
   * app} is an ancestor of {@code app/user}, never of {@code apps/user}.
   *
   * @param ancestor the possible ancestor
   * @param namespace the namespace
   * @return true when {@code ancestor} is {@code namespace} or one of its ancestors
   */
  public static boolean isSelfOrAncestor(String ancestor, String namespace) {
    return namespace.equals(ancestor)
        || (namespace.length() > ancestor.length()
            && namespace.startsWith(ancestor)
            && namespace.charAt(ancestor.length()) == '/');
  }

  /**
   * The namespace itself followed by its ancestors, nearest first: {@code a/b/c, a/b, a}. The namespace is
   * not validated.
   *
   * @param namespace a namespace
   * @return a new list of the namespace and its ancestors, nearest first
   */
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
