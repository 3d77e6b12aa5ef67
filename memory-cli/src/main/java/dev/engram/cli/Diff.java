/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.cli;

import dev.engram.MemoryEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** What changed between the before and after snapshots of an event: fields, and content word by word. */
final class Diff {
  /** Above this many words a side, content is compared as one block instead of word by word. */
  private static final int MAX_WORDS = 2000;

  private Diff() {}

  /** One run of the content diff. */
  enum Op { SAME, DELETED, INSERTED }

  /**
   * A run of words that the diff kept, removed or added.
   *
   * @param op what happened to the run
   * @param text the words, with their original spacing
   */
  record Piece(Op op, String text) {}

  /**
   * A field whose value differs.
   *
   * @param field the field name
   * @param before the value before (empty when absent)
   * @param after the value after (empty when absent)
   */
  record FieldChange(String field, String before, String after) {}

  /** Fields other than content that differ between the snapshots (either may be missing). */
  static List<FieldChange> fields(@Nullable MemoryEntry before, @Nullable MemoryEntry after) {
    List<FieldChange> out = new ArrayList<>();
    add(out, "version", before == null ? null : before.version(), after == null ? null : after.version());
    add(out, "status", before == null ? null : before.status(), after == null ? null : after.status());
    add(out, "scope", before == null ? null : before.scope(), after == null ? null : after.scope());
    add(out, "topics", before == null ? null : before.topics(), after == null ? null : after.topics());
    add(out, "type", before == null ? null : before.type().wireName(), after == null ? null : after.type().wireName());
    add(out, "priority", before == null ? null : before.priority(), after == null ? null : after.priority());
    add(out, "path", before == null ? null : before.path(), after == null ? null : after.path());
    add(out, "disclosure", before == null ? null : before.disclosure(), after == null ? null : after.disclosure());
    add(out, "glossary", before == null ? null : before.glossary(), after == null ? null : after.glossary());
    return out;
  }

  private static void add(List<FieldChange> out, String field, @Nullable Object before, @Nullable Object after) {
    if (!Objects.equals(before, after)) {
      out.add(new FieldChange(field, before == null ? "" : before.toString(), after == null ? "" : after.toString()));
    }
  }

  /** The content diff, word by word (longest common subsequence of whitespace-separated tokens). */
  static List<Piece> content(@Nullable String before, @Nullable String after) {
    String a = before == null ? "" : before;
    String b = after == null ? "" : after;
    List<Piece> out = new ArrayList<>();
    if (a.equals(b)) {
      if (!a.isEmpty()) {
        out.add(new Piece(Op.SAME, a));
      }
      return out;
    }
    List<String> x = tokens(a);
    List<String> y = tokens(b);
    if (x.size() > MAX_WORDS || y.size() > MAX_WORDS) {
      append(out, Op.DELETED, a);
      append(out, Op.INSERTED, b);
      return out;
    }
    int n = x.size();
    int m = y.size();
    int[][] lcs = new int[n + 1][m + 1];
    for (int i = n - 1; i >= 0; i--) {
      for (int j = m - 1; j >= 0; j--) {
        lcs[i][j] = x.get(i).strip().equals(y.get(j).strip())
            ? lcs[i + 1][j + 1] + 1
            : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
      }
    }
    int i = 0;
    int j = 0;
    while (i < n && j < m) {
      if (x.get(i).strip().equals(y.get(j).strip())) {
        append(out, Op.SAME, y.get(j));
        i++;
        j++;
      } else if (lcs[i + 1][j] >= lcs[i][j + 1]) {
        append(out, Op.DELETED, x.get(i++));
      } else {
        append(out, Op.INSERTED, y.get(j++));
      }
    }
    while (i < n) {
      append(out, Op.DELETED, x.get(i++));
    }
    while (j < m) {
      append(out, Op.INSERTED, y.get(j++));
    }
    return out;
  }

  /** A one-line summary of an event's change, for tables. */
  static String summary(@Nullable MemoryEntry before, @Nullable MemoryEntry after) {
    List<String> parts = new ArrayList<>();
    if (before == null && after != null) {
      parts.add("created v" + after.version());
    } else if (before != null && after == null) {
      parts.add("removed");
    } else if (before != null) {
      if (!before.content().equals(after.content())) {
        parts.add("content");
      }
      for (FieldChange f : fields(before, after)) {
        parts.add(f.field().equals("version") || f.field().equals("status")
            ? f.field() + " " + f.before() + "→" + f.after()
            : f.field());
      }
    }
    return String.join(", ", parts);
  }

  /** Words with the whitespace that follows each, so that joining them restores the text. */
  private static List<String> tokens(String s) {
    List<String> out = new ArrayList<>();
    int start = 0;
    int i = 0;
    while (i < s.length()) {
      while (i < s.length() && !Character.isWhitespace(s.charAt(i))) {
        i++;
      }
      while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
        i++;
      }
      out.add(s.substring(start, i));
      start = i;
    }
    return out;
  }

  private static void append(List<Piece> out, Op op, String text) {
    if (!out.isEmpty() && out.get(out.size() - 1).op() == op) {
      Piece last = out.remove(out.size() - 1);
      out.add(new Piece(op, last.text() + text));
    } else {
      out.add(new Piece(op, text));
    }
  }
}
