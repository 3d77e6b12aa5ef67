/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.internal;

import dev.engram.InvalidInputException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.text.Normalizer;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/** Normalization and validation of every text value that enters memory. */
public final class Text {
  public static final int MAX_TOPIC_CHARS = 64;
  public static final int MAX_TOPICS = 16;
  public static final int MAX_GLOSSARY_TERMS = 32;
  public static final int MAX_GLOSSARY_TERM_CHARS = 128;
  public static final int MAX_DISCLOSURE_CHARS = 512;
  public static final int MAX_PATH_CHARS = 256;
  public static final int MAX_SOURCE_CHARS = 256;
  public static final int MAX_EVIDENCE = 32;
  public static final int MAX_EVIDENCE_CHARS = 512;
  public static final int MAX_REASON_CHARS = 1024;
  public static final int MAX_PRIORITY = 99;
  public static final String DEFAULT_TOPIC = dev.engram.spi.FullTextQuery.DEFAULT_TOPIC;
  public static final String CORE_TOPIC = "core";

  private static final Pattern HORIZONTAL_SPACE = Pattern.compile("[\\p{Zs}\\t\\x0B\\f]+");
  private static final Pattern ANY_SPACE = Pattern.compile("\\s+", Pattern.UNICODE_CHARACTER_CLASS);
  private static final Pattern ID = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]{0,63}");
  private static final Pattern PATH =
      Pattern.compile("([a-z][a-z0-9_-]{0,31}://)?[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+)*");

  /**
   * The domains whose paths follow Lore's addressing rule ({@link #lorePath}): {@code core},
   * {@code preferences} and {@code project}.
   */
  public static final Set<String> LORE_DOMAINS = Set.of("core", "preferences", "project");
  /** One segment of a path in a Lore domain: lowercase snake_case, {@code checkout_api}, {@code v2}. */
  private static final Pattern LORE_SEGMENT = Pattern.compile("[a-z0-9]+(_[a-z0-9]+)*");

  private Text() {}

  /**
   * Validates and normalizes content: no NUL or other control characters (tab and newline are fine),
   * no unpaired surrogates or non-characters; NFC; line breaks unified; runs of spaces collapsed; lines
   * trimmed; blank lines dropped. The result is non-empty and at most {@code maxBytes} UTF-8 bytes.
   */
  public static String content(String field, @Nullable String raw, int maxBytes) {
    if (raw == null) {
      throw new NullPointerException(field);
    }
    if (raw.length() > maxBytes * 4L) {
      throw new InvalidInputException(
          field, "is " + raw.length() + " characters, far above the limit of " + maxBytes + " UTF-8 bytes");
    }
    checkCharacters(field, raw, true);
    String nfc = Normalizer.normalize(raw, Normalizer.Form.NFC);
    String[] lines = nfc.replace("\r\n", "\n").replace('\r', '\n').split("\n", -1);
    StringBuilder sb = new StringBuilder(nfc.length());
    for (String line : lines) {
      String l = HORIZONTAL_SPACE.matcher(line).replaceAll(" ").strip();
      if (!l.isEmpty()) {
        if (sb.length() > 0) {
          sb.append('\n');
        }
        sb.append(l);
      }
    }
    String out = sb.toString();
    if (out.isEmpty()) {
      throw new InvalidInputException(field, "is empty or only whitespace");
    }
    int bytes = utf8Length(out);
    if (bytes > maxBytes) {
      throw new InvalidInputException(
          field, "is " + bytes + " UTF-8 bytes after normalization; the limit is " + maxBytes);
    }
    return out;
  }

  /** The canonical form used for deduplication: normalized content with every whitespace run as one space. */
  public static String canonical(String normalized) {
    return ANY_SPACE.matcher(normalized).replaceAll(" ").strip();
  }

  /** SHA-256 (lowercase hex) of the canonical form. */
  public static String contentHash(String normalized) {
    try {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      return HexFormat.of().formatHex(md.digest(canonical(normalized).getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is not available", e);
    }
  }

  public static int utf8Length(CharSequence s) {
    int n = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        n += 1;
      } else if (c < 0x800) {
        n += 2;
      } else if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
        n += 4;
        i++;
      } else {
        n += 3;
      }
    }
    return n;
  }

  /** One topic: trimmed, lowercase, inner whitespace collapsed, 1..64 characters, no control characters or '/'. */
  public static String topic(String field, @Nullable String raw) {
    if (raw == null) {
      throw new InvalidInputException(field, "topic is null");
    }
    checkCharacters(field, raw, false);
    String t = ANY_SPACE.matcher(Normalizer.normalize(raw, Normalizer.Form.NFC)).replaceAll(" ").strip()
        .toLowerCase(Locale.ROOT);
    if (t.isEmpty()) {
      throw new InvalidInputException(field, "topic is empty");
    }
    if (t.length() > MAX_TOPIC_CHARS) {
      throw new InvalidInputException(
          field, "topic is " + t.length() + " characters; the limit is " + MAX_TOPIC_CHARS);
    }
    if (t.indexOf('/') >= 0 || t.indexOf('*') >= 0) {
      throw new InvalidInputException(field, "topic '" + t + "' contains '/' or '*'");
    }
    return t;
  }

  /** Topics normalized and deduplicated in order; an empty list becomes {@code [general]} when {@code defaultIfEmpty}. */
  public static List<String> topics(String field, @Nullable List<String> raw, boolean defaultIfEmpty) {
    if (raw == null) {
      throw new InvalidInputException(field, "topic list is null");
    }
    Set<String> out = new LinkedHashSet<>();
    for (int i = 0; i < raw.size(); i++) {
      out.add(topic(field + "[" + i + "]", raw.get(i)));
    }
    if (out.size() > MAX_TOPICS) {
      throw new InvalidInputException(field, out.size() + " topics; the limit is " + MAX_TOPICS);
    }
    if (out.isEmpty() && defaultIfEmpty) {
      return List.of(DEFAULT_TOPIC);
    }
    return List.copyOf(out);
  }

  public static List<String> glossary(String field, List<String> raw) {
    Set<String> seen = new LinkedHashSet<>();
    List<String> out = new ArrayList<>();
    for (int i = 0; i < raw.size(); i++) {
      String term = shortText(field + "[" + i + "]", raw.get(i), MAX_GLOSSARY_TERM_CHARS);
      if (seen.add(term.toLowerCase(Locale.ROOT))) {
        out.add(term);
      }
    }
    if (out.size() > MAX_GLOSSARY_TERMS) {
      throw new InvalidInputException(field, out.size() + " terms; the limit is " + MAX_GLOSSARY_TERMS);
    }
    return List.copyOf(out);
  }

  public static List<String> evidence(String field, List<String> raw) {
    if (raw.size() > MAX_EVIDENCE) {
      throw new InvalidInputException(field, raw.size() + " references; the limit is " + MAX_EVIDENCE);
    }
    List<String> out = new ArrayList<>();
    for (int i = 0; i < raw.size(); i++) {
      String ref = shortText(field + "[" + i + "]", raw.get(i), MAX_EVIDENCE_CHARS);
      if (!out.contains(ref)) {
        out.add(ref);
      }
    }
    return List.copyOf(out);
  }

  public static @Nullable String optionalShort(String field, @Nullable String raw, int maxChars) {
    return raw == null ? null : shortText(field, raw, maxChars);
  }

  /** A single-line text: NFC, whitespace collapsed, non-empty, at most {@code maxChars}. */
  public static String shortText(String field, @Nullable String raw, int maxChars) {
    if (raw == null) {
      throw new InvalidInputException(field, "value is null");
    }
    if (raw.length() > maxChars * 4L) {
      throw new InvalidInputException(field, "is " + raw.length() + " characters; the limit is " + maxChars);
    }
    checkCharacters(field, raw, true);
    String s = ANY_SPACE.matcher(Normalizer.normalize(raw, Normalizer.Form.NFC)).replaceAll(" ").strip();
    if (s.isEmpty()) {
      throw new InvalidInputException(field, "is empty or only whitespace");
    }
    if (s.length() > maxChars) {
      throw new InvalidInputException(field, "is " + s.length() + " characters; the limit is " + maxChars);
    }
    return s;
  }

  /** A stable address such as {@code project://checkout_api/webhooks}; no {@code .} or {@code ..} segments. */
  public static @Nullable String path(String field, @Nullable String raw) {
    if (raw == null) {
      return null;
    }
    if (raw.length() > MAX_PATH_CHARS) {
      throw new InvalidInputException(field, "is " + raw.length() + " characters; the limit is " + MAX_PATH_CHARS);
    }
    if (!PATH.matcher(raw).matches()) {
      throw new InvalidInputException(
          field, "'" + printable(raw) + "' is not a path: use [domain://]segment/segment with letters, digits, '_', '-', '.'");
    }
    int schemeEnd = raw.indexOf("://");
    String rest = schemeEnd >= 0 ? raw.substring(schemeEnd + 3) : raw;
    for (String seg : rest.split("/")) {
      if (seg.equals(".") || seg.equals("..")) {
        throw new InvalidInputException(field, "'" + raw + "' contains a '" + seg + "' segment");
      }
    }
    return raw;
  }

  /**
   * A path a write or a move may give an entry: a {@link #path} that, in one of the {@link #LORE_DOMAINS},
   * is made of lowercase snake_case segments ({@code [a-z0-9]+(_[a-z0-9]+)*}: letters a-z and digits,
   * words joined by single underscores, no leading, trailing or double underscore). A boot node's address
   * ({@link dev.engram.BootBlock#isBootPath}) is always one. Paths of other domains, and paths without
   * a domain, keep the general rule of {@link #path}.
   */
  public static @Nullable String lorePath(String field, @Nullable String raw) {
    String path = path(field, raw);
    if (path == null || dev.engram.BootBlock.isBootPath(path)) {
      return path;
    }
    int schemeEnd = path.indexOf("://");
    if (schemeEnd < 0 || !LORE_DOMAINS.contains(path.substring(0, schemeEnd))) {
      return path;
    }
    String domain = path.substring(0, schemeEnd + 3);
    String[] segments = path.substring(schemeEnd + 3).split("/", -1);
    for (String seg : segments) {
      if (!LORE_SEGMENT.matcher(seg).matches()) {
        StringBuilder suggestion = new StringBuilder(domain);
        for (int i = 0; i < segments.length; i++) {
          String s = snakeCase(segments[i]);
          suggestion.append(i == 0 ? "" : "/").append(s.isEmpty() ? "x" : s);
        }
        throw new InvalidInputException(field, "'" + path + "' has the segment '" + seg + "', which is not lowercase"
            + " snake_case: in the core://, preferences:// and project:// domains every segment is letters a-z and"
            + " digits, words joined by single underscores (such as '" + suggestion + "')");
      }
    }
    return path;
  }

  /**
   * The parent of a path in a Lore domain that must exist before an entry may be written at it: the path
   * without its last segment, or null when it needs none (a top-level path of one segment, a boot node's
   * address, a path of another domain or without one).
   */
  public static @Nullable String requiredParent(@Nullable String path) {
    if (path == null || dev.engram.BootBlock.isBootPath(path)) {
      return null;
    }
    int schemeEnd = path.indexOf("://");
    if (schemeEnd < 0 || !LORE_DOMAINS.contains(path.substring(0, schemeEnd))) {
      return null;
    }
    int last = path.lastIndexOf('/');
    return last > schemeEnd + 2 ? path.substring(0, last) : null;
  }

  /** {@code s} lowercased, with every run of other characters than a-z and 0-9 made one underscore. */
  private static String snakeCase(String s) {
    String lower = s.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]+", "_");
    return lower.replaceAll("^_+|_+$", "");
  }

  public static int priority(String field, int priority) {
    if (priority < 0 || priority > MAX_PRIORITY) {
      throw new InvalidInputException(field, "must be between 0 and " + MAX_PRIORITY + ", was " + priority);
    }
    return priority;
  }

  /** An entry, version or event id. */
  public static String id(String field, @Nullable String raw) {
    if (raw == null) {
      throw new NullPointerException(field);
    }
    if (!ID.matcher(raw).matches()) {
      throw new InvalidInputException(
          field, "'" + printable(raw) + "' is not a well-formed id (1-64 of [A-Za-z0-9_-])");
    }
    return raw;
  }

  /** {@code s} with control and unpaired surrogate characters escaped, for an error message. */
  static String printableForMessage(String s) {
    return printable(s);
  }

  private static void checkCharacters(String field, String s, boolean allowLineBreaks) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isHighSurrogate(c)) {
        if (i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
          i++;
          continue;
        }
        throw new InvalidInputException(field, "contains an unpaired surrogate (invalid UTF-16/UTF-8) at index " + i);
      }
      if (Character.isLowSurrogate(c)) {
        throw new InvalidInputException(field, "contains an unpaired surrogate (invalid UTF-16/UTF-8) at index " + i);
      }
      if (c == 0) {
        throw new InvalidInputException(field, "contains a NUL character at index " + i);
      }
      boolean lineBreak = c == '\n' || c == '\r' || c == '\t';
      if ((Character.isISOControl(c) && !(allowLineBreaks && lineBreak)) || c == '\uFFFE' || c == '\uFFFF') {
        throw new InvalidInputException(
            field, "contains the control character U+" + String.format("%04X", (int) c) + " at index " + i);
      }
    }
  }

  private static String printable(String s) {
    String cut = s.length() > 80 ? s.substring(0, 80) + "…" : s;
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < cut.length(); i++) {
      char c = cut.charAt(i);
      sb.append(Character.isISOControl(c) || Character.isSurrogate(c) ? String.format("\\u%04X", (int) c) : c);
    }
    return sb.toString();
  }
}
