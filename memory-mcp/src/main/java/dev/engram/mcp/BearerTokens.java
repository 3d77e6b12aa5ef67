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
 * {@code TOKEN GRANT [GRANT …]}, separated by spaces or tabs. A {@code #} at the start of a line or
 * after a space or tab starts a comment that runs to the end of the line; blank lines are ignored. A
 * {@code #} anywhere else, a grant that is not a valid namespace (the rules of {@link Grants}) or a
 * token shorter than {@value #MIN_TOKEN_CHARS} characters refuses the whole file with a one-line
 * message naming the line. Tokens are kept only as SHA-256 digests, looked up by digest.
 */
final class BearerTokens {
  static final int MIN_TOKEN_CHARS = 16;
  private final Map<String, Token> byDigest;

  /** One token of the file: the line it is on (its name in logs) and its grants. */
  record Token(int line, Grants grants) {}

  private BearerTokens(Map<String, Token> byDigest) {
    this.byDigest = Map.copyOf(byDigest);
  }

  /** Every scope some token's grants can see, sorted. */
  java.util.List<String> visibleScopes() {
    java.util.TreeSet<String> out = new java.util.TreeSet<>();
    byDigest.values().forEach(t -> out.addAll(t.grants().visibleScopes()));
    return java.util.List.copyOf(out);
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
    Map<String, Token> map = new HashMap<>();
    for (int i = 0; i < lines.size(); i++) {
      String where = "--tokens " + file + " line " + (i + 1);
      List<String> words = words(lines.get(i), where);
      if (words.isEmpty()) {
        continue;
      }
      if (words.size() < 2) {
        throw new StartupException(where + ": expected 'TOKEN GRANT [GRANT ...]'");
      }
      String token = words.get(0);
      if (token.length() < MIN_TOKEN_CHARS) {
        throw new StartupException(where + ": the token is shorter than " + MIN_TOKEN_CHARS + " characters");
      }
      List<String> grants = words.subList(1, words.size());
      for (int g = 0; g < grants.size(); g++) {
        try {
          Grants.of(grants.get(g));
        } catch (InvalidGrantException e) {
          throw new StartupException(where + ": grant " + (g + 1) + " '" + printable(grants.get(g)) + "' is not a valid namespace ("
              + printable(e.getMessage().substring(e.field().length() + 2)) + ")");
        }
      }
      Grants all;
      try {
        all = Grants.of(grants);
      } catch (InvalidGrantException e) {
        throw new StartupException(where + ": " + printable(e.getMessage()));
      }
      if (map.put(digest(token), new Token(i + 1, all)) != null) {
        throw new StartupException(where + ": the token appears twice");
      }
    }
    if (map.isEmpty()) {
      throw new StartupException("--tokens " + file + ": no tokens in the file");
    }
    return new BearerTokens(map);
  }

  /** The words of a line before its comment; a '#' inside a word is refused. */
  private static List<String> words(String line, String where) {
    List<String> words = new ArrayList<>();
    for (String word : line.split("[ \\t]+")) {
      if (word.isEmpty()) {
        continue;
      }
      if (word.charAt(0) == '#') {
        break;
      }
      if (word.indexOf('#') >= 0) {
        throw new StartupException(where + ": '#' inside '" + printable(word) + "'; a comment starts with '#' at the start "
            + "of the line or after a space, and tokens and grants contain no '#'");
      }
      words.add(word);
    }
    return words;
  }

  /** The text with every character that is invisible or breaks the line written as a {@code U+XXXX}-style escape. */
  static String printable(String s) {
    StringBuilder out = new StringBuilder(s.length());
    s.codePoints().forEach(c -> {
      int type = Character.getType(c);
      boolean hidden = Character.isISOControl(c) || type == Character.FORMAT || type == Character.LINE_SEPARATOR
          || type == Character.PARAGRAPH_SEPARATOR || type == Character.SURROGATE || type == Character.UNASSIGNED
          || (Character.isSpaceChar(c) && c != ' ');
      if (hidden) {
        out.append(String.format("\\u%04X", c));
      } else {
        out.appendCodePoint(c);
      }
    });
    return out.toString();
  }

  /** The token of an {@code Authorization} header value, or null when it carries no known token. */
  @Nullable Token tokenFor(@Nullable String authorization) {
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
