/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.springai;

import dev.engram.InvalidInputException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.Objects;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Maps Spring AI document ids to entry paths and back. An id made of letters, digits, {@code _},
 * {@code -} and {@code .} (a UUID, a file name) keeps its spelling under {@code doc://}; any other id
 * is stored base64url-encoded under {@code docb64://}, so every id has exactly one path and every
 * document path names exactly one id.
 */
final class DocumentPaths {
  static final String PLAIN = "doc://";
  static final String ENCODED = "docb64://";
  /** The engine's limit on a path, less the longer prefix. */
  static final int MAX_PATH_CHARS = 256;
  private static final Pattern PLAIN_ID = Pattern.compile("[A-Za-z0-9_-][A-Za-z0-9_.-]*");
  private static final Pattern ENCODED_ID = Pattern.compile("[A-Za-z0-9_-]+");

  private DocumentPaths() {}

  static String pathOf(String id) {
    Objects.requireNonNull(id, "id");
    if (id.isEmpty()) {
      throw new InvalidInputException("document.id", "is empty");
    }
    String path;
    if (PLAIN_ID.matcher(id).matches() && !id.equals("..") && !id.equals(".")) {
      path = PLAIN + id;
    } else {
      path = ENCODED + Base64.getUrlEncoder().withoutPadding().encodeToString(id.getBytes(StandardCharsets.UTF_8));
    }
    if (path.length() > MAX_PATH_CHARS) {
      throw new InvalidInputException("document.id", "is too long to be an entry path (" + path.length()
          + " characters as '" + path.substring(0, path.indexOf("://") + 3) + "…'; the limit is " + MAX_PATH_CHARS + ")");
    }
    return path;
  }

  /** The document id stored at {@code path}, or null when the path is not a document path. */
  static @Nullable String idOf(@Nullable String path) {
    if (path == null) {
      return null;
    }
    if (path.startsWith(PLAIN)) {
      String id = path.substring(PLAIN.length());
      return PLAIN_ID.matcher(id).matches() ? id : null;
    }
    if (path.startsWith(ENCODED)) {
      String encoded = path.substring(ENCODED.length());
      if (!ENCODED_ID.matcher(encoded).matches()) {
        return null;
      }
      try {
        return new String(Base64.getUrlDecoder().decode(encoded), StandardCharsets.UTF_8);
      } catch (IllegalArgumentException e) {
        return null;
      }
    }
    return null;
  }
}
