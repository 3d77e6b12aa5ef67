/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.springai;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.engram.InvalidInputException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Keeps a document's metadata in its entry's glossary, one term per key:
 * {@code meta:["key",value]} with the pair as JSON. The JSON is ASCII-only (non-ASCII escaped) and
 * every whitespace character that the engine would collapse is escaped too, so a term survives the
 * engine's normalization unchanged and the metadata comes back as it went in (numbers as JSON numbers,
 * booleans, strings, lists and maps).
 */
final class MetadataTerms {
  static final String PREFIX = "meta:";
  /** The engine's limits on glossary terms. */
  static final int MAX_TERMS = 32;
  static final int MAX_TERM_CHARS = 128;

  private static final JsonMapper JSON = JsonMapper.builder().enable(JsonWriteFeature.ESCAPE_NON_ASCII).build();

  private MetadataTerms() {}

  static List<String> encode(Map<String, Object> metadata) {
    if (metadata.size() > MAX_TERMS) {
      throw new InvalidInputException("document.metadata",
          metadata.size() + " keys; the limit is " + MAX_TERMS);
    }
    List<String> terms = new ArrayList<>(metadata.size());
    Map<String, String> seen = new HashMap<>();
    for (Map.Entry<String, Object> e : metadata.entrySet()) {
      String key = e.getKey();
      if (key == null || key.isBlank()) {
        throw new InvalidInputException("document.metadata", "has an empty key");
      }
      String json;
      try {
        json = JSON.writeValueAsString(List.of(key, e.getValue()));
      } catch (JsonProcessingException ex) {
        throw new InvalidInputException("document.metadata." + key,
            "cannot be kept: " + e.getValue().getClass().getName() + " is not a JSON value");
      }
      String term = PREFIX + escapeSpaces(json);
      if (term.length() > MAX_TERM_CHARS) {
        throw new InvalidInputException("document.metadata." + key,
            "takes " + term.length() + " characters as a stored term; the limit is " + MAX_TERM_CHARS);
      }
      String folded = term.toLowerCase(Locale.ROOT);
      String other = seen.putIfAbsent(folded, key);
      if (other != null) {
        throw new InvalidInputException("document.metadata." + key,
            "differs from key '" + other + "' only in letter case, key and value alike");
      }
      terms.add(term);
    }
    return terms;
  }

  static Map<String, Object> decode(List<String> glossary) {
    Map<String, Object> out = new LinkedHashMap<>();
    for (String term : glossary) {
      if (!term.startsWith(PREFIX)) {
        continue;
      }
      try {
        JsonNode pair = JSON.readTree(term.substring(PREFIX.length()));
        if (pair.isArray() && pair.size() == 2 && pair.get(0).isTextual() && !pair.get(1).isNull()) {
          out.put(pair.get(0).asText(), JSON.treeToValue(pair.get(1), Object.class));
        }
      } catch (JsonProcessingException e) {
        // a glossary term that merely starts with the prefix is not metadata
      }
    }
    return out;
  }

  /**
   * Escapes whitespace the engine would change: anything but a single ASCII space between two
   * non-space characters. Outside JSON strings whitespace never occurs in Jackson's compact output.
   */
  private static String escapeSpaces(String json) {
    StringBuilder sb = new StringBuilder(json.length());
    for (int i = 0; i < json.length(); i++) {
      char c = json.charAt(i);
      boolean lone = c == ' ' && i > 0 && i < json.length() - 1
          && !Character.isWhitespace(json.charAt(i - 1)) && !Character.isWhitespace(json.charAt(i + 1));
      if (Character.isWhitespace(c) && !lone) {
        sb.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
      } else {
        sb.append(c);
      }
    }
    return sb.toString();
  }
}
