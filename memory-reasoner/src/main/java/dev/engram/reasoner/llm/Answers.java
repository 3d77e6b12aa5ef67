/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.reasoner.llm;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** Typed reads of an untrusted answer; every failure is an {@code INVALID_ANSWER} naming the field. */
final class Answers {
  private Answers() {}

  static LlmException invalid(String job, String problem) {
    return new LlmException(LlmException.Kind.INVALID_ANSWER, job + " answer rejected: " + problem, null);
  }

  static String text(String job, JsonNode node, String field, int maxChars) {
    String s = optionalText(job, node, field, maxChars);
    if (s == null || s.isBlank()) {
      throw invalid(job, "\"" + field + "\" is missing or empty");
    }
    return s;
  }

  static @Nullable String optionalText(String job, JsonNode node, String field, int maxChars) {
    JsonNode v = node.get(field);
    if (v == null || v.isNull()) {
      return null;
    }
    if (!v.isTextual()) {
      throw invalid(job, "\"" + field + "\" is " + v.getNodeType().name().toLowerCase() + ", expected a string");
    }
    String s = v.asText();
    if (s.length() > maxChars) {
      throw invalid(job, "\"" + field + "\" is " + s.length() + " characters; the limit is " + maxChars);
    }
    return s;
  }

  static @Nullable List<String> optionalTexts(String job, JsonNode node, String field, int maxItems, int maxChars) {
    JsonNode v = node.get(field);
    if (v == null || v.isNull()) {
      return null;
    }
    if (!v.isArray()) {
      throw invalid(job, "\"" + field + "\" is " + v.getNodeType().name().toLowerCase() + ", expected an array");
    }
    if (v.size() > maxItems) {
      throw invalid(job, "\"" + field + "\" has " + v.size() + " items; the limit is " + maxItems);
    }
    List<String> out = new ArrayList<>(v.size());
    for (int i = 0; i < v.size(); i++) {
      JsonNode item = v.get(i);
      if (!item.isTextual()) {
        throw invalid(job, "\"" + field + "\"[" + i + "] is not a string");
      }
      if (item.asText().length() > maxChars) {
        throw invalid(job, "\"" + field + "\"[" + i + "] is " + item.asText().length()
            + " characters; the limit is " + maxChars);
      }
      out.add(item.asText());
    }
    return out;
  }

  static List<String> texts(String job, JsonNode node, String field, int maxItems, int maxChars) {
    List<String> out = optionalTexts(job, node, field, maxItems, maxChars);
    if (out == null) {
      throw invalid(job, "\"" + field + "\" is missing");
    }
    return out;
  }
}
