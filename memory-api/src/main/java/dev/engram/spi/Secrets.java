/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.spi;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * The one rule for keeping an API key out of text that came from a server (an error body, an
 * exception message) before it reaches an exception, a warning or a log line. For reasoners and
 * embedders that quote what their server answered.
 *
 * <p>{@link #mask} replaces with {@value #MASK} every run of at least {@value #MIN_RUN} characters
 * that also occurs in the key, so a verbatim echo, a prefix or any other long piece of it is masked;
 * the same for the key's JSON-escaped forms (slashes escaped, other characters as backslash-u escapes)
 * and its URL-encoded forms ({@code %2F}, {@code %2f}). A key shorter than {@value #MIN_RUN} characters is masked where it
 * occurs whole. Anything shaped like an OpenAI or Anthropic key ({@code sk-} and at least 12 more
 * key characters) keeps only its first four characters after {@code sk-}, whichever key it is.
 */
public final class Secrets {
  /** What a masked run is replaced with. */
  public static final String MASK = "***";
  /** The shortest run of a key's characters that is masked wherever it occurs. */
  public static final int MIN_RUN = 8;

  private static final Pattern VENDOR_KEY = Pattern.compile("(sk-[A-Za-z0-9_-]{4})[A-Za-z0-9_-]{8,}");

  private Secrets() {}

  /**
   * {@code text} with every long piece of {@code secret}, plain, JSON-escaped or URL-encoded,
   * replaced by {@value #MASK}.
   *
   * @param text the text to quote, e.g. a server's error body
   * @param secret the key to keep out of it; null or empty when there is none
   * @return the text, safe to put in a message, a warning or a log line
   * @throws NullPointerException if {@code text} is null
   */
  public static String mask(String text, @Nullable String secret) {
    Objects.requireNonNull(text, "text");
    String out = text;
    if (secret != null && !secret.isEmpty()) {
      boolean[] hidden = new boolean[out.length()];
      for (String form : forms(secret)) {
        mark(out, form, hidden);
      }
      out = replace(out, hidden);
    }
    return VENDOR_KEY.matcher(out).replaceAll("$1" + MASK);
  }

  /** The key as a server may spell it back: plain, JSON-escaped, URL-encoded. */
  private static Set<String> forms(String secret) {
    Set<String> forms = new LinkedHashSet<>();
    forms.add(secret);
    String json = secret.replace("\\", "\\\\").replace("\"", "\\\"");
    forms.add(json);
    forms.add(json.replace("/", "\\/"));
    StringBuilder ascii = new StringBuilder();
    for (char c : json.toCharArray()) {
      if (c < 0x20 || c > 0x7e) {
        ascii.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
      } else {
        ascii.append(c);
      }
    }
    forms.add(ascii.toString());
    forms.add(ascii.toString().replace("/", "\\/"));
    forms.add(upperHexEscapes(ascii.toString()));
    String url = URLEncoder.encode(secret, StandardCharsets.UTF_8);
    forms.add(url);
    forms.add(url.replace("+", "%20"));
    forms.add(lowerPercentHex(url));
    return forms;
  }

  /** Marks in {@code hidden} every run of {@code text} of at least MIN_RUN characters that occurs in {@code form}. */
  private static void mark(String text, String form, boolean[] hidden) {
    if (form.length() < MIN_RUN) {
      for (int at = text.indexOf(form); at >= 0; at = text.indexOf(form, at + 1)) {
        java.util.Arrays.fill(hidden, at, at + form.length(), true);
      }
      return;
    }
    Set<String> windows = new HashSet<>();
    for (int i = 0; i + MIN_RUN <= form.length(); i++) {
      windows.add(form.substring(i, i + MIN_RUN));
    }
    // every window of a longer run is itself a window of the key, so marking windows marks whole runs
    for (int i = 0; i + MIN_RUN <= text.length(); i++) {
      if (windows.contains(text.substring(i, i + MIN_RUN))) {
        java.util.Arrays.fill(hidden, i, i + MIN_RUN, true);
      }
    }
  }

  private static String replace(String text, boolean[] hidden) {
    StringBuilder out = new StringBuilder(text.length());
    for (int i = 0; i < text.length(); i++) {
      if (!hidden[i]) {
        out.append(text.charAt(i));
      } else if (i == 0 || !hidden[i - 1]) {
        out.append(MASK);
      }
    }
    return out.toString();
  }

  private static String upperHexEscapes(String s) {
    return Pattern.compile("\\\\u([0-9a-f]{4})").matcher(s)
        .replaceAll(m -> "\\\\u" + m.group(1).toUpperCase(Locale.ROOT));
  }

  private static String lowerPercentHex(String s) {
    return Pattern.compile("%([0-9A-F]{2})").matcher(s).replaceAll(m -> "%" + m.group(1).toLowerCase(Locale.ROOT));
  }
}
