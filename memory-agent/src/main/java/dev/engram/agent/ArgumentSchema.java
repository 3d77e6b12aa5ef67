/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.agent;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The JSON Schema subset the tools emit, and its validator. Only the keywords below are allowed in a
 * schema (a schema using any other fails at construction), so what a model is shown and what a call is
 * checked against cannot drift apart.
 *
 * <p>Keywords: {@code type} (object, string, integer, array), {@code description}, {@code properties},
 * {@code required}, {@code additionalProperties} (false only), {@code minLength} / {@code maxLength}
 * (in code points), {@code minimum} / {@code maximum}, {@code items}, {@code minItems} /
 * {@code maxItems}, {@code uniqueItems}. Strings must also be well-formed UTF-16.
 */
final class ArgumentSchema {
  private static final JsonNodeFactory F = JsonNodeFactory.instance;
  private static final Set<String> KEYWORDS = Set.of(
      "type", "description", "properties", "required", "additionalProperties", "minLength", "maxLength",
      "minimum", "maximum", "items", "minItems", "maxItems", "uniqueItems", "enum");

  private final ObjectNode schema;

  private ArgumentSchema(ObjectNode schema) {
    check(schema, "");
    if (!"object".equals(schema.path("type").asText())) {
      throw new IllegalArgumentException("a tool schema is an object schema");
    }
    this.schema = schema;
  }

  static ArgumentSchema of(ObjectNode schema) {
    return new ArgumentSchema(schema);
  }

  ObjectNode node() {
    return schema;
  }

  // ---- building

  static ObjectNode object(ObjectNode properties, String... required) {
    ObjectNode o = F.objectNode();
    o.put("type", "object");
    o.set("properties", properties);
    ArrayNode req = o.putArray("required");
    for (String r : required) {
      req.add(r);
    }
    o.put("additionalProperties", false);
    return o;
  }

  static ObjectNode string(String description, int minLength, int maxLength) {
    ObjectNode o = F.objectNode();
    o.put("type", "string");
    o.put("description", description);
    o.put("minLength", minLength);
    o.put("maxLength", maxLength);
    return o;
  }

  /** A string that must be one of {@code values}. */
  static ObjectNode oneOf(String description, java.util.List<String> values) {
    ObjectNode o = F.objectNode();
    o.put("type", "string");
    o.put("description", description);
    ArrayNode e = o.putArray("enum");
    values.forEach(e::add);
    return o;
  }

  static ObjectNode integer(String description, int minimum, int maximum) {
    ObjectNode o = F.objectNode();
    o.put("type", "integer");
    o.put("description", description);
    o.put("minimum", minimum);
    o.put("maximum", maximum);
    return o;
  }

  static ObjectNode array(String description, ObjectNode items, int minItems, int maxItems) {
    ObjectNode o = F.objectNode();
    o.put("type", "array");
    o.put("description", description);
    o.set("items", items);
    o.put("minItems", minItems);
    o.put("maxItems", maxItems);
    o.put("uniqueItems", true);
    return o;
  }

  /** Properties from name, schema pairs, in order. */
  static ObjectNode properties(Object... nameSchemaPairs) {
    ObjectNode o = F.objectNode();
    for (int i = 0; i < nameSchemaPairs.length; i += 2) {
      o.set((String) nameSchemaPairs[i], (ObjectNode) nameSchemaPairs[i + 1]);
    }
    return o;
  }

  private static void check(JsonNode s, String at) {
    if (!s.isObject()) {
      throw new IllegalArgumentException("schema at '" + at + "' is not an object");
    }
    for (Iterator<String> it = s.fieldNames(); it.hasNext(); ) {
      String k = it.next();
      if (!KEYWORDS.contains(k)) {
        throw new IllegalArgumentException("schema keyword '" + k + "' at '" + at + "' is not supported");
      }
    }
    String type = s.path("type").asText("");
    switch (type) {
      case "object" -> {
        if (!s.path("additionalProperties").isBoolean() || s.path("additionalProperties").asBoolean()) {
          throw new IllegalArgumentException("object schema at '" + at + "' must set additionalProperties false");
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = s.path("properties").fields(); it.hasNext(); ) {
          Map.Entry<String, JsonNode> p = it.next();
          check(p.getValue(), at + "/" + p.getKey());
        }
      }
      case "array" -> check(s.path("items"), at + "[]");
      case "string", "integer" -> { }
      default -> throw new IllegalArgumentException("schema type '" + type + "' at '" + at + "' is not supported");
    }
    if (s.has("enum") && (!type.equals("string") || !s.get("enum").isArray() || s.get("enum").isEmpty())) {
      throw new IllegalArgumentException("enum at '" + at + "' must be a non-empty array on a string schema");
    }
  }

  // ---- validating

  /**
   * Checks {@code value} against the schema.
   *
   * @return null when valid, else a short message naming the first argument that is wrong
   */
  @Nullable String validate(JsonNode value) {
    return validate(schema, value, "");
  }

  private static @Nullable String validate(JsonNode s, JsonNode v, String at) {
    String type = s.path("type").asText();
    String name = at.isEmpty() ? "the arguments" : "'" + at + "'";
    switch (type) {
      case "object" -> {
        if (!v.isObject()) {
          return name + " must be a JSON object, not " + kind(v);
        }
        JsonNode props = s.path("properties");
        for (Iterator<String> it = v.fieldNames(); it.hasNext(); ) {
          String k = it.next();
          if (!props.has(k)) {
            return "unknown argument '" + join(at, Tools.clip(k, Tools.MAX_ECHO_CHARS)) + "'; allowed: " + fieldList(props);
          }
        }
        for (JsonNode r : s.path("required")) {
          if (!v.has(r.asText())) {
            return "missing required argument '" + join(at, r.asText()) + "'";
          }
        }
        for (Iterator<Map.Entry<String, JsonNode>> it = v.fields(); it.hasNext(); ) {
          Map.Entry<String, JsonNode> f = it.next();
          String problem = validate(props.get(f.getKey()), f.getValue(), join(at, f.getKey()));
          if (problem != null) {
            return problem;
          }
        }
        return null;
      }
      case "string" -> {
        if (!v.isTextual()) {
          return name + " must be a string, not " + kind(v);
        }
        String text = v.textValue();
        int bad = firstUnpairedSurrogate(text);
        if (bad >= 0) {
          return name + " is not valid text (unpaired surrogate at index " + bad + ")";
        }
        int length = text.codePointCount(0, text.length());
        if (s.has("minLength") && length < s.get("minLength").asInt()) {
          return length == 0 ? name + " must not be empty"
              : name + " must be at least " + s.get("minLength").asInt() + " characters";
        }
        if (s.has("maxLength") && length > s.get("maxLength").asInt()) {
          return name + " is " + length + " characters; the limit is " + s.get("maxLength").asInt();
        }
        if (s.has("enum")) {
          for (JsonNode allowed : s.get("enum")) {
            if (allowed.asText().equals(text)) {
              return null;
            }
          }
          StringBuilder allowed = new StringBuilder();
          s.get("enum").forEach(a -> allowed.append(allowed.length() == 0 ? "" : ", ").append(a.asText()));
          return name + " must be one of " + allowed;
        }
        return null;
      }
      case "integer" -> {
        if (!v.isNumber() || !(v.isIntegralNumber() || v.canConvertToExactIntegral())) {
          return name + " must be an integer, not " + kind(v);
        }
        java.math.BigInteger n = v.bigIntegerValue();
        if (s.has("minimum") && n.compareTo(java.math.BigInteger.valueOf(s.get("minimum").asLong())) < 0) {
          return name + " must be at least " + s.get("minimum").asLong();
        }
        if (s.has("maximum") && n.compareTo(java.math.BigInteger.valueOf(s.get("maximum").asLong())) > 0) {
          return name + " must be at most " + s.get("maximum").asLong();
        }
        return null;
      }
      case "array" -> {
        if (!v.isArray()) {
          return name + " must be an array, not " + kind(v);
        }
        if (s.has("minItems") && v.size() < s.get("minItems").asInt()) {
          return name + " must have at least " + s.get("minItems").asInt() + " item(s)";
        }
        if (s.has("maxItems") && v.size() > s.get("maxItems").asInt()) {
          return name + " has " + v.size() + " items; the limit is " + s.get("maxItems").asInt();
        }
        Set<JsonNode> seen = new HashSet<>();
        for (int i = 0; i < v.size(); i++) {
          String problem = validate(s.path("items"), v.get(i), at + "[" + i + "]");
          if (problem != null) {
            return problem;
          }
          if (s.path("uniqueItems").asBoolean() && !seen.add(v.get(i))) {
            return "'" + at + "[" + i + "]' repeats an earlier item";
          }
        }
        return null;
      }
      default -> throw new IllegalStateException("unchecked schema type " + type);
    }
  }

  private static String join(String at, String key) {
    return at.isEmpty() ? key : at + "." + key;
  }

  private static String fieldList(JsonNode props) {
    StringBuilder sb = new StringBuilder();
    for (Iterator<String> it = props.fieldNames(); it.hasNext(); ) {
      sb.append(sb.length() == 0 ? "" : ", ").append(it.next());
    }
    return sb.toString();
  }

  private static String kind(JsonNode v) {
    if (v.isNull()) {
      return "null";
    }
    if (v.isTextual()) {
      return "a string";
    }
    if (v.isBoolean()) {
      return "a boolean";
    }
    if (v.isNumber()) {
      return "a number";
    }
    if (v.isArray()) {
      return "an array";
    }
    return "an object";
  }

  static int firstUnpairedSurrogate(String s) {
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (Character.isHighSurrogate(c)) {
        if (i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
          i++;
        } else {
          return i;
        }
      } else if (Character.isLowSurrogate(c)) {
        return i;
      }
    }
    return -1;
  }
}
