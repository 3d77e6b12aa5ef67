/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.json;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.Change;
import dev.engram.ChangeKind;
import dev.engram.EntryStatus;
import dev.engram.EntryType;
import dev.engram.EventKind;
import dev.engram.InvalidInputException;
import dev.engram.MemoryEntry;
import dev.engram.MemoryEvent;
import dev.engram.Revision;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The one JSON form of entries, events and revisions, as Jackson trees: {@link dev.engram.spi.EntryJson}
 * writes and reads them as strings for the stores, and the engine's export and import put them into and
 * take them from the lines of an export without going through strings. Not exported: the public surface
 * carries no Jackson type.
 */
public final class JsonForms {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private JsonForms() {}

  /** The mapper every JSON form is made with (plain, thread-safe, never reconfigured). */
  public static ObjectMapper mapper() {
    return MAPPER;
  }

  // ---- entries

  /** Every field of one version, as a JSON object. */
  public static ObjectNode entryNode(MemoryEntry e) {
    ObjectNode n = MAPPER.createObjectNode();
    n.put("entryId", e.entryId());
    n.put("versionId", e.versionId());
    n.put("version", e.version());
    n.put("previousVersionId", e.previousVersionId());
    n.put("scope", e.scope());
    n.put("content", e.content());
    n.set("topics", array(e.topics()));
    n.put("type", e.type().wireName());
    n.put("priority", e.priority());
    n.put("disclosure", e.disclosure());
    n.set("glossary", array(e.glossary()));
    n.put("path", e.path());
    n.put("source", e.source());
    n.set("evidence", array(e.evidence()));
    n.put("contentHash", e.contentHash());
    n.put("status", e.status().name());
    n.put("supersededBy", e.supersededBy());
    n.put("occurredAt", e.occurredAt() == null ? null : e.occurredAt().toString());
    n.put("createdAt", e.createdAt().toString());
    n.put("updatedAt", e.updatedAt().toString());
    n.put("createdInRevision", e.createdInRevision());
    return n;
  }

  /** The version {@code n} describes; unknown fields are ignored. Throws {@link InvalidInputException} when malformed. */
  public static MemoryEntry entry(JsonNode n) {
    try {
      return new MemoryEntry(
          text(n, "entryId"), text(n, "versionId"), integer(n, "version"), optText(n, "previousVersionId"),
          text(n, "scope"), text(n, "content"), strings(n.get("topics"), "topics"),
          EntryType.fromWireName(text(n, "type")), integer(n, "priority"), optText(n, "disclosure"),
          strings(n.get("glossary"), "glossary"), optText(n, "path"), optText(n, "source"),
          strings(n.get("evidence"), "evidence"), text(n, "contentHash"),
          EntryStatus.valueOf(text(n, "status")), optText(n, "supersededBy"), optInstant(n, "occurredAt"),
          instant(n, "createdAt"),
          instant(n, "updatedAt"), longValue(n, "createdInRevision"));
    } catch (IllegalArgumentException | NullPointerException e) {
      throw new InvalidInputException("entry", "malformed entry record: " + e.getMessage());
    }
  }

  // ---- events

  /** Every field of one history event, with its snapshots, as a JSON object. */
  public static ObjectNode eventNode(MemoryEvent e) {
    ObjectNode n = MAPPER.createObjectNode();
    n.put("eventId", e.eventId());
    n.put("scope", e.scope());
    n.put("entryId", e.entryId());
    n.put("kind", e.kind().name());
    n.set("before", e.before() == null ? null : entryNode(e.before()));
    n.set("after", e.after() == null ? null : entryNode(e.after()));
    n.put("actor", e.actor());
    n.put("reason", e.reason());
    n.put("revision", e.revision());
    n.put("at", e.at().toString());
    n.put("origin", e.origin());
    return n;
  }

  /** The event {@code n} describes; unknown fields are ignored. Throws {@link InvalidInputException} when malformed. */
  public static MemoryEvent event(JsonNode n) {
    try {
      JsonNode before = n.get("before");
      JsonNode after = n.get("after");
      return new MemoryEvent(
          text(n, "eventId"), text(n, "scope"), text(n, "entryId"), EventKind.valueOf(text(n, "kind")),
          before == null || before.isNull() ? null : entry(before),
          after == null || after.isNull() ? null : entry(after), optText(n, "actor"), optText(n, "reason"),
          longValue(n, "revision"), instant(n, "at"),
          // events written before origins were recorded carry none: infer it from the actor
          optText(n, "origin"));
    } catch (IllegalArgumentException | NullPointerException e) {
      throw new InvalidInputException("event", "malformed event record: " + e.getMessage());
    }
  }

  // ---- revisions

  /** A change set as a JSON array of objects. */
  public static ArrayNode changesNode(List<Change> changes) {
    ArrayNode a = MAPPER.createArrayNode();
    for (Change c : changes) {
      ObjectNode o = a.addObject();
      o.put("kind", c.kind().name());
      o.put("entryId", c.entryId());
      o.put("versionId", c.versionId());
    }
    return a;
  }

  /** The change set {@code node} describes. Throws {@link InvalidInputException} unless it is a well-formed array. */
  public static List<Change> changes(@Nullable JsonNode node) {
    if (node == null || !node.isArray()) {
      throw new InvalidInputException("changes", "expected a JSON array");
    }
    List<Change> out = new ArrayList<>();
    for (JsonNode o : node) {
      try {
        out.add(new Change(ChangeKind.valueOf(text(o, "kind")), text(o, "entryId"), optText(o, "versionId")));
      } catch (IllegalArgumentException | NullPointerException e) {
        throw new InvalidInputException("changes", "malformed change: " + e.getMessage());
      }
    }
    return out;
  }

  /** Every field of one revision, with its change set, as a JSON object. */
  public static ObjectNode revisionNode(Revision r) {
    ObjectNode n = MAPPER.createObjectNode();
    n.put("scope", r.scope());
    n.put("revision", r.revision());
    n.set("changes", changesNode(r.changes()));
    n.put("at", r.at().toString());
    return n;
  }

  /** The revision {@code n} describes; unknown fields are ignored. Throws {@link InvalidInputException} when malformed. */
  public static Revision revision(JsonNode n) {
    try {
      return new Revision(text(n, "scope"), longValue(n, "revision"), changes(n.get("changes")), instant(n, "at"));
    } catch (IllegalArgumentException | NullPointerException e) {
      throw new InvalidInputException("revision", "malformed revision record: " + e.getMessage());
    }
  }

  // ---- helpers

  /** {@code json} as a tree. Throws {@link InvalidInputException} when it is not valid JSON. */
  public static JsonNode parse(String json) {
    try {
      return MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      throw new InvalidInputException("json", "not valid JSON: " + e.getOriginalMessage());
    }
  }

  /** {@code values} as a JSON array of strings. */
  public static ArrayNode array(List<String> values) {
    ArrayNode a = MAPPER.createArrayNode();
    values.forEach(a::add);
    return a;
  }

  /** The strings of a JSON array of strings. Throws {@link InvalidInputException} naming {@code field} otherwise. */
  public static List<String> strings(@Nullable JsonNode node, String field) {
    if (node == null || !node.isArray()) {
      throw new InvalidInputException(field, "expected a JSON array of strings");
    }
    List<String> out = new ArrayList<>(node.size());
    for (JsonNode v : node) {
      if (!v.isTextual()) {
        throw new InvalidInputException(field, "expected a JSON array of strings");
      }
      out.add(v.asText());
    }
    return out;
  }

  /**
   * @param n a record
   * @param field the field's name
   * @return the string field {@code field} of {@code n}
   * @throws IllegalArgumentException when the field is missing or of another type
   */
  public static String text(JsonNode n, String field) {
    JsonNode v = n.get(field);
    if (v == null || !v.isTextual()) {
      throw new IllegalArgumentException("field '" + field + "' must be a string");
    }
    return v.asText();
  }

  /**
   * @param n a record
   * @param field the field's name
   * @return the string field {@code field} of {@code n}, or null when absent or null
   * @throws IllegalArgumentException when the field is missing or of another type
   */
  public static @Nullable String optText(JsonNode n, String field) {
    JsonNode v = n.get(field);
    if (v == null || v.isNull()) {
      return null;
    }
    if (!v.isTextual()) {
      throw new IllegalArgumentException("field '" + field + "' must be a string or null");
    }
    return v.asText();
  }

  /**
   * @param n a record
   * @param field the field's name
   * @return the int field {@code field} of {@code n}
   * @throws IllegalArgumentException when the field is missing or of another type
   */
  public static int integer(JsonNode n, String field) {
    JsonNode v = n.get(field);
    if (v == null || !v.isIntegralNumber() || !v.canConvertToInt()) {
      throw new IllegalArgumentException("field '" + field + "' must be an integer");
    }
    return v.asInt();
  }

  /**
   * @param n a record
   * @param field the field's name
   * @return the long field {@code field} of {@code n}
   * @throws IllegalArgumentException when the field is missing or of another type
   */
  public static long longValue(JsonNode n, String field) {
    JsonNode v = n.get(field);
    if (v == null || !v.isIntegralNumber() || !v.canConvertToLong()) {
      throw new IllegalArgumentException("field '" + field + "' must be an integer");
    }
    return v.asLong();
  }

  /**
   * @param n a record
   * @param field the field's name
   * @return the ISO-8601 instant field {@code field} of {@code n}, or null when absent or null
   * @throws IllegalArgumentException when the field is missing or of another type
   */
  public static @Nullable Instant optInstant(JsonNode n, String field) {
    JsonNode v = n.get(field);
    return v == null || v.isNull() ? null : instant(n, field);
  }

  /**
   * @param n a record
   * @param field the field's name
   * @return the ISO-8601 instant field {@code field} of {@code n}
   * @throws IllegalArgumentException when the field is missing or of another type
   */
  public static Instant instant(JsonNode n, String field) {
    try {
      return Instant.parse(text(n, field));
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException("field '" + field + "' must be an ISO-8601 instant");
    }
  }
}
