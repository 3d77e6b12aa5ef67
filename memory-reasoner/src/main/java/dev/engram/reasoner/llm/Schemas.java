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
 * {@code null}; size limits are stated in descriptions and checked by the jobs, not by keywords
 * strict mode rejects.
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
