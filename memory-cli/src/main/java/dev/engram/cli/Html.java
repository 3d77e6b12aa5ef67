/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.cli;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;

/** HTML text building for the console: every piece of stored or requested text goes through {@link #esc}. */
final class Html {
  private final StringBuilder sb = new StringBuilder(4096);

  /** Escapes text for element content and quoted attribute values; drops characters HTML forbids. */
  static String esc(Object value) {
    String s = String.valueOf(value);
    StringBuilder out = new StringBuilder(s.length() + 16);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '&' -> out.append("&amp;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&#39;");
        default -> {
          if (c < 0x20 && c != '\n' && c != '\t' && c != '\r' || c == 0x7f) {
            out.append('\uFFFD');
          } else if (Character.isSurrogate(c)) {
            boolean pair = Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1));
            if (pair) {
              out.append(c).append(s.charAt(++i));
            } else {
              out.append('\uFFFD');
            }
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.toString();
  }

  /** A query-string value. */
  static String url(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }

  /** Appends markup written by the console itself (never stored or requested text). */
  Html raw(String markup) {
    sb.append(markup);
    return this;
  }

  /** Appends escaped text. */
  Html text(Object value) {
    sb.append(esc(value));
    return this;
  }

  /** Appends {@code <tag>text</tag>} with the text escaped. */
  Html el(String tag, Object value) {
    sb.append('<').append(tag).append('>').append(esc(value)).append("</").append(tag).append('>');
    return this;
  }

  /** Appends a link; {@code href} is built by the console from escaped or URL-encoded parts. */
  Html link(String href, Object label) {
    sb.append("<a href=\"").append(esc(href)).append("\">").append(esc(label)).append("</a>");
    return this;
  }

  /** A POST form with the CSRF token and hidden fields, a reason box when asked, and one button. */
  Html postForm(String action, String csrf, String button, boolean withReason, String... hidden) {
    sb.append("<form method=\"post\" action=\"").append(esc(action)).append("\" class=\"inline\">");
    sb.append("<input type=\"hidden\" name=\"csrf\" value=\"").append(esc(csrf)).append("\">");
    for (int i = 0; i + 1 < hidden.length; i += 2) {
      sb.append("<input type=\"hidden\" name=\"").append(esc(hidden[i])).append("\" value=\"")
          .append(esc(hidden[i + 1])).append("\">");
    }
    if (withReason) {
      sb.append("<input type=\"text\" name=\"reason\" placeholder=\"reason (optional)\" maxlength=\"500\">");
    }
    sb.append("<button type=\"submit\">").append(esc(button)).append("</button></form>");
    return this;
  }

  @Override
  public String toString() {
    return sb.toString();
  }
}
