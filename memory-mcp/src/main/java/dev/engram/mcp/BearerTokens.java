/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.mcp;

import dev.engram.Grants;
import dev.engram.InvalidGrantException;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The operator's map from bearer tokens to grants, read from a file with one token a line:
 * {@code TOKEN GRANT [GRANT …]} (whitespace-separated; blank lines and lines starting with {@code #}
 * ignored). Tokens are at least {@value #MIN_TOKEN_CHARS} characters and are kept only as SHA-256
 * digests, looked up by digest.
 */
final class BearerTokens {
  static final int MIN_TOKEN_CHARS = 16;
  private final Map<String, Grants> byDigest;

  private BearerTokens(Map<String, Grants> byDigest) {
    this.byDigest = Map.copyOf(byDigest);
  }

  static BearerTokens read(Path file) {
    List<String> lines;
    try {
      lines = Files.readAllLines(file, StandardCharsets.UTF_8);
    } catch (CharacterCodingException e) {
      throw new StartupException("--tokens " + file + ": the file is not UTF-8 text");
    } catch (IOException e) {
      throw new StartupException("--tokens " + file + ": cannot read the file (" + e.getMessage() + ")");
    }
    Map<String, Grants> map = new HashMap<>();
    for (int i = 0; i < lines.size(); i++) {
      String line = lines.get(i).strip();
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      String[] parts = line.split("\\s+");
      String where = "--tokens " + file + " line " + (i + 1);
      if (parts.length < 2) {
        throw new StartupException(where + ": expected 'TOKEN GRANT [GRANT ...]'");
      }
      if (parts[0].length() < MIN_TOKEN_CHARS) {
        throw new StartupException(where + ": the token is shorter than " + MIN_TOKEN_CHARS + " characters");
      }
      List<String> grants = new ArrayList<>(List.of(parts).subList(1, parts.length));
      try {
        if (map.put(digest(parts[0]), Grants.of(grants)) != null) {
          throw new StartupException(where + ": the token appears twice");
        }
      } catch (InvalidGrantException e) {
        throw new StartupException(where + ": " + e.getMessage());
      }
    }
    if (map.isEmpty()) {
      throw new StartupException("--tokens " + file + ": no tokens in the file");
    }
    return new BearerTokens(map);
  }

  /** The grants of an {@code Authorization} header value, or null when it carries no known token. */
  @Nullable Grants grantsFor(@Nullable String authorization) {
    if (authorization == null || !authorization.regionMatches(true, 0, "Bearer ", 0, 7)) {
      return null;
    }
    String token = authorization.substring(7).strip();
    if (token.isEmpty() || token.length() > 4096) {
      return null;
    }
    return byDigest.get(digest(token));
  }

  private static String digest(String token) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
