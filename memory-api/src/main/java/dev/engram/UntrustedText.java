/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.util.Objects;

/**
 * The one rule by which stored text (memory content, blurbs, anything an agent or a model once wrote)
 * is placed inside a fenced, untrusted block of a prompt, so that the text cannot close the block or
 * forge the block's own structure. {@link PreparedContext} renders its items with it; an instructions
 * block that quotes memory uses the same methods.
 *
 * <p>A block is {@link #BEGIN}, then structure lines of the renderer's own (e.g. {@code [1] cite …}),
 * each followed by its quoted text, then {@link #END}. The rule:
 * <ul>
 *   <li>every line of quoted text starts with {@link #QUOTE_PREFIX}, so no quoted line can begin like
 *       a structure line (a citation head, a {@code SYSTEM:} line, a marker);</li>
 *   <li>a run of two or more angle brackets ({@code <}, {@code >}) becomes as many {@code ‹} /
 *       {@code ›}, so the text never contains the marker syntax {@code <<<…>>>} anywhere;</li>
 *   <li>default-ignorable characters, which a reader does not see but a model does, are dropped
 *       before anything else, so none of them can split a run of brackets or hide text: every
 *       format character (Unicode category {@code Cf}: zero-width space, joiners and non-joiners,
 *       soft hyphen, word joiner and invisible operators, bidirectional controls, byte-order mark,
 *       tag characters), the variation selectors (U+FE00–U+FE0F, U+180B–U+180F, U+E0100–U+E01EF), the
 *       combining grapheme joiner (U+034F), the Hangul fillers (U+115F, U+1160, U+3164, U+FFA0), the
 *       Khmer inherent vowels (U+17B4, U+17B5) and the unassigned code points Unicode reserves as
 *       default-ignorable; control characters other than line breaks are dropped too, and a tab
 *       becomes a space;</li>
 *   <li>the Unicode line and paragraph separators (U+2028, U+2029) and carriage returns count as line
 *       breaks, so a line the reader sees is a line the rule prefixed.</li>
 * </ul>
 * Once its default-ignorable characters are removed, a rendered block therefore holds each of its
 * markers exactly where the renderer wrote it. Dropping them also drops emoji joiners and
 * presentation selectors from rendered text (a family emoji shows as its members); the stored text
 * is unchanged. The output depends only on the input (no random delimiters), so renders are
 * reproducible.
 */
public final class UntrustedText {
  /** Opens an untrusted block; stands alone on its line. */
  public static final String BEGIN = "<<<BEGIN UNTRUSTED MEMORY>>>";
  /** Closes an untrusted block; stands alone on its line. */
  public static final String END = "<<<END UNTRUSTED MEMORY>>>";
  /** Starts every line of quoted text. */
  public static final String QUOTE_PREFIX = "| ";

  private static final int MARKER_RUN = 2;

  private UntrustedText() {}

  /**
   * {@code text} as quoted lines: marker-like runs neutralised and every line prefixed with
   * {@link #QUOTE_PREFIX}. No trailing line break.
   *
   * @param text stored text, any content
   * @return the quoted form, one or more lines
   * @throws NullPointerException if {@code text} is null
   */
  public static String quote(String text) {
    Objects.requireNonNull(text, "text");
    String safe = neutralise(text);
    StringBuilder out = new StringBuilder(safe.length() + 16);
    out.append(QUOTE_PREFIX);
    for (int i = 0; i < safe.length(); i++) {
      char c = safe.charAt(i);
      if (c == '\r' && i + 1 < safe.length() && safe.charAt(i + 1) == '\n') {
        continue;
      }
      if (isLineBreak(c)) {
        out.append('\n').append(QUOTE_PREFIX);
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  /**
   * {@code text} for a single-line field of a structure line (a title, a name): marker-like runs
   * neutralised and every line break turned into {@code " / "}.
   *
   * @param text stored text, any content
   * @return the text on one line
   * @throws NullPointerException if {@code text} is null
   */
  public static String inline(String text) {
    Objects.requireNonNull(text, "text");
    String safe = neutralise(text);
    StringBuilder out = new StringBuilder(safe.length());
    for (int i = 0; i < safe.length(); i++) {
      char c = safe.charAt(i);
      if (c == '\r' && i + 1 < safe.length() && safe.charAt(i + 1) == '\n') {
        continue;
      }
      if (isLineBreak(c)) {
        out.append(" / ");
      } else {
        out.append(c);
      }
    }
    return out.toString();
  }

  /**
   * {@code text} with default-ignorable characters (see the class description) and control characters
   * (but line breaks) dropped, tabs made spaces, and then every run of two or more angle brackets
   * replaced by as many {@code ‹} (for {@code <}) and {@code ›} (for {@code >}); everything else
   * unchanged. Unpaired surrogates are kept as they are.
   *
   * @param text any text
   * @return the text without marker syntax, even to a reader who ignores invisible characters
   * @throws NullPointerException if {@code text} is null
   */
  public static String neutralise(String text) {
    Objects.requireNonNull(text, "text");
    StringBuilder visible = new StringBuilder(text.length());
    for (int i = 0; i < text.length(); ) {
      int c = text.codePointAt(i);
      i += Character.charCount(c);
      if (c == '\t') {
        visible.append(' ');
      } else if (isLineBreak(c) || !(Character.isISOControl(c) || isDefaultIgnorable(c))) {
        visible.appendCodePoint(c);
      }
    }
    StringBuilder out = new StringBuilder(visible.length());
    int i = 0;
    while (i < visible.length()) {
      char c = visible.charAt(i);
      int end = i + 1;
      if (c == '<' || c == '>') {
        while (end < visible.length() && (visible.charAt(end) == '<' || visible.charAt(end) == '>')) {
          end++;
        }
      }
      for (int k = i; k < end; k++) {
        char a = visible.charAt(k);
        out.append(end - i >= MARKER_RUN ? (a == '<' ? '‹' : '›') : a);
      }
      i = end;
    }
    return out.toString();
  }

  /** Unicode's {@code Default_Ignorable_Code_Point} property, and every other format character ({@code Cf}). */
  private static boolean isDefaultIgnorable(int codePoint) {
    int c = codePoint;
    return Character.getType(c) == Character.FORMAT
        || c == 0x00AD || c == 0x034F || c == 0x061C || c == 0x115F || c == 0x1160 || c == 0x17B4 || c == 0x17B5
        || (c >= 0x180B && c <= 0x180F) || (c >= 0x200B && c <= 0x200F) || (c >= 0x202A && c <= 0x202E)
        || (c >= 0x2060 && c <= 0x206F) || c == 0x3164 || (c >= 0xFE00 && c <= 0xFE0F) || c == 0xFEFF
        || c == 0xFFA0 || (c >= 0xFFF0 && c <= 0xFFF8) || (c >= 0x1BCA0 && c <= 0x1BCA3)
        || (c >= 0x1D173 && c <= 0x1D17A) || (c >= 0xE0000 && c <= 0xE0FFF);
  }

  private static boolean isLineBreak(int c) {
    return c == '\n' || c == '\r' || c == '\u2028' || c == '\u2029' || c == '\u0085' || c == '\u000B' || c == '\f';
  }
}
