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
 *   <li>a run of three or more {@code <} or {@code >} in the text becomes the same number of
 *       {@code ‹} / {@code ›}, so the text never contains the marker syntax {@code <<<…>>>} anywhere;</li>
 *   <li>the Unicode line and paragraph separators (U+2028, U+2029) and carriage returns count as line
 *       breaks, so a line the reader sees is a line the rule prefixed.</li>
 * </ul>
 * The output depends only on the input (no random delimiters), so renders are reproducible.
 */
public final class UntrustedText {
  /** Opens an untrusted block; stands alone on its line. */
  public static final String BEGIN = "<<<BEGIN UNTRUSTED MEMORY>>>";
  /** Closes an untrusted block; stands alone on its line. */
  public static final String END = "<<<END UNTRUSTED MEMORY>>>";
  /** Starts every line of quoted text. */
  public static final String QUOTE_PREFIX = "| ";

  private static final int MARKER_RUN = 3;

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
   * neutralised and every line break turned into a space.
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
      out.append(isLineBreak(c) ? ' ' : c);
    }
    return out.toString();
  }

  /**
   * {@code text} with every run of three or more {@code <} (or {@code >}) replaced by as many
   * {@code ‹} (or {@code ›}); shorter runs and everything else unchanged.
   *
   * @param text any text
   * @return the text without marker syntax
   * @throws NullPointerException if {@code text} is null
   */
  public static String neutralise(String text) {
    Objects.requireNonNull(text, "text");
    StringBuilder out = null;
    int i = 0;
    while (i < text.length()) {
      char c = text.charAt(i);
      int end = i + 1;
      if (c == '<' || c == '>') {
        while (end < text.length() && text.charAt(end) == c) {
          end++;
        }
        if (end - i >= MARKER_RUN) {
          if (out == null) {
            out = new StringBuilder(text.length()).append(text, 0, i);
          }
          char repl = c == '<' ? '‹' : '›';
          for (int k = i; k < end; k++) {
            out.append(repl);
          }
          i = end;
          continue;
        }
      }
      if (out != null) {
        out.append(text, i, end);
      }
      i = end;
    }
    return out == null ? text : out.toString();
  }

  private static boolean isLineBreak(char c) {
    return c == '\n' || c == '\r' || c == '\u2028' || c == '\u2029' || c == '\u0085' || c == '\u000B' || c == '\f';
  }
}
