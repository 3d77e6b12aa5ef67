/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.reasoner.llm;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Collection;

/**
 * Builders for the JSON schemas of the jobs. They stay within what OpenAI's strict mode accepts:
 * every property required, {@code additionalProperties: false}, nullable values as {@code anyOf} with
 * {@code null}. Array bounds the jobs require are stated as {@code minItems} / {@code maxItems}, so an
 * answer that matches the schema is never refused for its length; other limits (characters, the
 * numbers and names a rewording may use) are stated in descriptions and checked by the jobs.
 */
final class Schemas {
  private Schemas() {}

  /** A closed object whose properties are all required. */
  static ObjectNode object(ObjectNode properties) {
    ObjectNode o = HttpTransport.JSON.createObjectNode();
    o.put("type", "object");
    o.set("properties", properties);
    ArrayNode required = o.putArray("required");
    properties.fieldNames().forEachRemaining(required::add);
    o.put("additionalProperties", false);
    return o;
  }

  static ObjectNode properties() {
    return HttpTransport.JSON.createObjectNode();
  }

  static ObjectNode string(String description) {
    return HttpTransport.JSON.createObjectNode().put("type", "string").put("description", description);
  }

  static ObjectNode bool(String description) {
    return HttpTransport.JSON.createObjectNode().put("type", "boolean").put("description", description);
  }

  static ObjectNode enumeration(Collection<String> values, String description) {
    ObjectNode o = string(description);
    ArrayNode e = o.putArray("enum");
    values.forEach(e::add);
    return o;
  }

  static ObjectNode array(ObjectNode items, String description) {
    ObjectNode o = HttpTransport.JSON.createObjectNode().put("type", "array").put("description", description);
    o.set("items", items);
    return o;
  }

  /** An array of {@code min} to {@code max} items. */
  static ObjectNode array(ObjectNode items, int min, int max, String description) {
    return array(items, description).put("minItems", min).put("maxItems", max);
  }

  /** {@code schema} or null. */
  static ObjectNode nullable(ObjectNode schema) {
    ObjectNode o = HttpTransport.JSON.createObjectNode();
    ArrayNode any = o.putArray("anyOf");
    any.add(schema);
    any.addObject().put("type", "null");
    return o;
  }

  static ObjectNode nullOnly(String description) {
    return HttpTransport.JSON.createObjectNode().put("type", "null").put("description", description);
  }
}
