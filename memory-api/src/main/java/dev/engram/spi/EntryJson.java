/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.spi;

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
 * The one JSON form of entries, events, revisions and string lists, shared by the SQL stores (event
 * snapshots, list columns) and by export / import. Field names are stable; instants are ISO-8601 UTC;
 * every written document is one compact JSON object or array on one line. Readers ignore unknown fields
 * and reject malformed documents with {@link InvalidInputException}. Only strings cross this surface, so
 * a store needs no JSON library of its own.
 */
public final class EntryJson {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private EntryJson() {}

  // ---- string lists

  /**
   * Writes a list of strings as a JSON array.
   *
   * @param values the strings, in order
   * @return a JSON array of strings
   */
  public static String writeStrings(List<String> values) {
    ArrayNode a = MAPPER.createArrayNode();
    values.forEach(a::add);
    return a.toString();
  }

  /**
   * Reads what {@link #writeStrings} wrote.
   *
   * @param json a JSON array of strings
   * @return the strings, in order
   * @throws InvalidInputException if {@code json} is not a JSON array of strings
   */
  public static List<String> readStrings(String json) {
    return strings(parse(json), "list");
  }

  /**
   * Writes a string map (source metadata) as a JSON object.
   *
   * @param values the entries
   * @return a JSON object of strings
   */
  public static String writeStringMap(java.util.Map<String, String> values) {
    ObjectNode o = MAPPER.createObjectNode();
    values.forEach(o::put);
    return o.toString();
  }

  /**
   * Reads what {@link #writeStringMap} wrote.
   *
   * @param json a JSON object of strings
   * @return the entries, sorted by key
   * @throws InvalidInputException if {@code json} is not a JSON object of strings
   */
  public static java.util.Map<String, String> readStringMap(String json) {
    JsonNode n = parse(json);
    if (!n.isObject()) {
      throw new InvalidInputException("map", "must be a JSON object of strings");
    }
    java.util.Map<String, String> out = new java.util.TreeMap<>();
    n.fields().forEachRemaining(e -> {
      if (!e.getValue().isTextual()) {
        throw new InvalidInputException("map", "value of '" + e.getKey() + "' must be a string");
      }
      out.put(e.getKey(), e.getValue().asText());
    });
    return out;
  }

  // ---- entries

  private static ObjectNode entryNode(MemoryEntry e) {
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

  /**
   * Writes one version of an entry.
   *
   * @param e the version
   * @return a JSON object with every field of {@code e}
   */
  public static String writeEntry(MemoryEntry e) {
    return entryNode(e).toString();
  }

  /**
   * Reads what {@link #writeEntry} wrote.
   *
   * @param json a JSON object
   * @return the version it describes
   * @throws InvalidInputException if {@code json} is not valid JSON or not a well-formed entry
   */
  public static MemoryEntry readEntry(String json) {
    return entry(parse(json));
  }

  private static MemoryEntry entry(JsonNode n) {
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

  private static ObjectNode eventNode(MemoryEvent e) {
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

  /**
   * Writes one history event, with its before / after snapshots.
   *
   * @param e the event
   * @return a JSON object with every field of {@code e}
   */
  public static String writeEvent(MemoryEvent e) {
    return eventNode(e).toString();
  }

  /**
   * Reads what {@link #writeEvent} wrote.
   *
   * @param json a JSON object
   * @return the event it describes
   * @throws InvalidInputException if {@code json} is not valid JSON or not a well-formed event
   */
  public static MemoryEvent readEvent(String json) {
    return event(parse(json));
  }

  private static MemoryEvent event(JsonNode n) {
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

  /**
   * Writes the change set of a revision.
   *
   * @param changes the changes, in order
   * @return a JSON array of objects
   */
  public static String writeChanges(List<Change> changes) {
    return changesNode(changes).toString();
  }

  private static ArrayNode changesNode(List<Change> changes) {
    ArrayNode a = MAPPER.createArrayNode();
    for (Change c : changes) {
      ObjectNode o = a.addObject();
      o.put("kind", c.kind().name());
      o.put("entryId", c.entryId());
      o.put("versionId", c.versionId());
    }
    return a;
  }

  /**
   * Reads what {@link #writeChanges} wrote.
   *
   * @param json a JSON array
   * @return the changes, in order
   * @throws InvalidInputException if {@code json} is not valid JSON or not a well-formed change set
   */
  public static List<Change> readChanges(String json) {
    return changes(parse(json));
  }

  private static List<Change> changes(@Nullable JsonNode node) {
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

  /**
   * Writes one revision with its change set.
   *
   * @param r the revision
   * @return a JSON object with every field of {@code r}
   */
  public static String writeRevision(Revision r) {
    return revisionNode(r).toString();
  }

  /**
   * Reads what {@link #writeRevision} wrote.
   *
   * @param json a JSON object
   * @return the revision it describes
   * @throws InvalidInputException if {@code json} is not valid JSON or not a well-formed revision
   */
  public static Revision readRevision(String json) {
    return revision(parse(json));
  }

  private static ObjectNode revisionNode(Revision r) {
    ObjectNode n = MAPPER.createObjectNode();
    n.put("scope", r.scope());
    n.put("revision", r.revision());
    n.set("changes", changesNode(r.changes()));
    n.put("at", r.at().toString());
    return n;
  }

  private static Revision revision(JsonNode n) {
    try {
      return new Revision(text(n, "scope"), longValue(n, "revision"), changes(n.get("changes")), instant(n, "at"));
    } catch (IllegalArgumentException | NullPointerException e) {
      throw new InvalidInputException("revision", "malformed revision record: " + e.getMessage());
    }
  }

  // ---- helpers

  private static JsonNode parse(String json) {
    try {
      return MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      throw new InvalidInputException("json", "not valid JSON: " + e.getOriginalMessage());
    }
  }

  private static ArrayNode array(List<String> values) {
    ArrayNode a = MAPPER.createArrayNode();
    values.forEach(a::add);
    return a;
  }

  private static List<String> strings(@Nullable JsonNode node, String field) {
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

  private static String text(JsonNode n, String field) {
    JsonNode v = n.get(field);
    if (v == null || !v.isTextual()) {
      throw new IllegalArgumentException("field '" + field + "' must be a string");
    }
    return v.asText();
  }

  private static @Nullable String optText(JsonNode n, String field) {
    JsonNode v = n.get(field);
    if (v == null || v.isNull()) {
      return null;
    }
    if (!v.isTextual()) {
      throw new IllegalArgumentException("field '" + field + "' must be a string or null");
    }
    return v.asText();
  }

  private static int integer(JsonNode n, String field) {
    JsonNode v = n.get(field);
    if (v == null || !v.canConvertToInt()) {
      throw new IllegalArgumentException("field '" + field + "' must be an integer");
    }
    return v.asInt();
  }

  private static long longValue(JsonNode n, String field) {
    JsonNode v = n.get(field);
    if (v == null || !v.canConvertToLong()) {
      throw new IllegalArgumentException("field '" + field + "' must be an integer");
    }
    return v.asLong();
  }

  private static @Nullable Instant optInstant(JsonNode n, String field) {
    JsonNode v = n.get(field);
    return v == null || v.isNull() ? null : instant(n, field);
  }

  private static Instant instant(JsonNode n, String field) {
    try {
      return Instant.parse(text(n, field));
    } catch (DateTimeParseException e) {
      throw new IllegalArgumentException("field '" + field + "' must be an ISO-8601 instant");
    }
  }
}
