/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;

/**
 * A plain-text table for terminals: left-aligned columns padded to their widest cell, long cells cut
 * with an ellipsis, and control characters (newlines, terminal escapes) of stored text made visible
 * instead of sent to the terminal.
 */
final class Table {
  private final List<String> headers;
  private final List<Integer> limits;
  private final List<List<String>> rows = new ArrayList<>();

  private Table(List<String> headers, List<Integer> limits) {
    this.headers = headers;
    this.limits = limits;
  }

  /** Columns given as {@code "NAME"} or {@code "NAME:max"} (widest cell before it is cut). */
  static Table of(String... columns) {
    List<String> names = new ArrayList<>();
    List<Integer> limits = new ArrayList<>();
    for (String c : columns) {
      int colon = c.lastIndexOf(':');
      names.add(colon < 0 ? c : c.substring(0, colon));
      limits.add(colon < 0 ? 200 : Integer.parseInt(c.substring(colon + 1)));
    }
    return new Table(names, limits);
  }

  Table row(Object... cells) {
    if (cells.length != headers.size()) {
      throw new IllegalArgumentException(headers.size() + " cells expected, got " + cells.length);
    }
    List<String> r = new ArrayList<>(cells.length);
    for (int i = 0; i < cells.length; i++) {
      r.add(cut(printable(cells[i] == null ? "" : String.valueOf(cells[i])), limits.get(i)));
    }
    rows.add(r);
    return this;
  }

  boolean isEmpty() {
    return rows.isEmpty();
  }

  void print(PrintWriter out) {
    int[] widths = new int[headers.size()];
    for (int i = 0; i < widths.length; i++) {
      widths[i] = headers.get(i).length();
      for (List<String> r : rows) {
        widths[i] = Math.max(widths[i], r.get(i).codePointCount(0, r.get(i).length()));
      }
    }
    line(out, headers, widths);
    for (List<String> r : rows) {
      line(out, r, widths);
    }
    out.flush();
  }

  private static void line(PrintWriter out, List<String> cells, int[] widths) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < cells.size(); i++) {
      String c = cells.get(i);
      sb.append(c);
      if (i < cells.size() - 1) {
        sb.append(" ".repeat(widths[i] - c.codePointCount(0, c.length()) + 2));
      }
    }
    out.println(sb.toString().stripTrailing());
  }

  /** Stored text with line breaks as spaces and every other control character as a backslash-u escape. */
  static String printable(String s) {
    StringBuilder sb = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char ch = s.charAt(i);
      if (ch == '\n' || ch == '\r' || ch == '\t') {
        sb.append(' ');
      } else if (Character.isISOControl(ch) || ch == '\u2028' || ch == '\u2029') {
        sb.append(String.format("\\u%04x", (int) ch));
      } else {
        sb.append(ch);
      }
    }
    return sb.toString();
  }

  /** Like {@link #printable} but keeps line breaks, for whole texts printed on their own lines. */
  static String printableLines(String s) {
    StringBuilder sb = new StringBuilder(s.length());
    for (String line : s.split("\n", -1)) {
      if (sb.length() > 0) {
        sb.append('\n');
      }
      sb.append(printable(line));
    }
    return sb.toString();
  }

  private static String cut(String s, int max) {
    if (s.codePointCount(0, s.length()) <= max) {
      return s;
    }
    return s.substring(0, s.offsetByCodePoints(0, max - 1)) + "…";
  }
}
