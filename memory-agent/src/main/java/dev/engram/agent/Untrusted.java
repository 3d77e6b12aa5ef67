package dev.engram.agent;

/**
 * Renders remembered text (content, blurbs, topic names) inside the instructions block so that it
 * cannot end a section or forge a line of its own: each value is kept on one line (line breaks become
 * {@code " / "}), other control characters are dropped, and runs of angle brackets, which the block's
 * {@code <<<BEGIN …>>>} / {@code <<<END …>>>} markers are made of, become single-angle quotation marks
 * ({@code ‹ ›}).
 */
final class Untrusted {
  private Untrusted() {}

  static String line(String text) {
    StringBuilder sb = new StringBuilder(text.length());
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '\r' && i + 1 < text.length() && text.charAt(i + 1) == '\n') {
        continue;
      }
      if (c == '\n' || c == '\r' || c == '\u0085' || c == '\u2028' || c == '\u2029') {
        sb.append(" / ");
      } else if (c == '\t') {
        sb.append(' ');
      } else if (Character.isISOControl(c) || c == '\u200B' || c == '\u2060' || c == '\uFEFF') {
        // dropped: invisible characters could hide a marker from a reader and not from a model
      } else if ((c == '<' || c == '>') && (isAngle(text, i - 1) || isAngle(text, i + 1))) {
        sb.append(c == '<' ? '‹' : '›');
      } else {
        sb.append(c);
      }
    }
    return sb.toString();
  }

  private static boolean isAngle(String s, int i) {
    return i >= 0 && i < s.length() && (s.charAt(i) == '<' || s.charAt(i) == '>');
  }
}
