/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.spi;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.Change;
import dev.engram.InvalidInputException;
import dev.engram.MemoryEntry;
import dev.engram.MemoryEvent;
import dev.engram.Revision;
import dev.engram.json.JsonForms;
import java.util.List;

/**
 * The one JSON form of entries, events, revisions and string lists, shared by the SQL stores (event
 * snapshots, list columns) and by export / import. Field names are stable; instants are ISO-8601 UTC;
 * every written document is one compact JSON object or array on one line. Readers ignore unknown fields
 * and reject malformed documents with {@link InvalidInputException}. Only strings cross this surface, so
 * a store needs no JSON library of its own.
 */
public final class EntryJson {

  private EntryJson() {}

  // ---- string lists

  /**
   * Writes a list of strings as a JSON array.
   *
   * @param values the strings, in order
   * @return a JSON array of strings
   */
  public static String writeStrings(List<String> values) {
    return JsonForms.array(values).toString();
  }

  /**
   * Reads what {@link #writeStrings} wrote.
   *
   * @param json a JSON array of strings
   * @return the strings, in order
   * @throws InvalidInputException if {@code json} is not a JSON array of strings
   */
  public static List<String> readStrings(String json) {
    return JsonForms.strings(JsonForms.parse(json), "list");
  }

  /**
   * Writes a string map (source metadata) as a JSON object.
   *
   * @param values the entries
   * @return a JSON object of strings
   */
  public static String writeStringMap(java.util.Map<String, String> values) {
    ObjectNode o = JsonForms.mapper().createObjectNode();
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
    JsonNode n = JsonForms.parse(json);
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

  // ---- entries, events, revisions

  /**
   * Writes one version of an entry.
   *
   * @param e the version
   * @return a JSON object with every field of {@code e}
   */
  public static String writeEntry(MemoryEntry e) {
    return JsonForms.entryNode(e).toString();
  }

  /**
   * Reads what {@link #writeEntry} wrote.
   *
   * @param json a JSON object
   * @return the version it describes
   * @throws InvalidInputException if {@code json} is not valid JSON or not a well-formed entry
   */
  public static MemoryEntry readEntry(String json) {
    return JsonForms.entry(JsonForms.parse(json));
  }

  /**
   * Writes one history event, with its before / after snapshots.
   *
   * @param e the event
   * @return a JSON object with every field of {@code e}
   */
  public static String writeEvent(MemoryEvent e) {
    return JsonForms.eventNode(e).toString();
  }

  /**
   * Reads what {@link #writeEvent} wrote.
   *
   * @param json a JSON object
   * @return the event it describes
   * @throws InvalidInputException if {@code json} is not valid JSON or not a well-formed event
   */
  public static MemoryEvent readEvent(String json) {
    return JsonForms.event(JsonForms.parse(json));
  }

  /**
   * Writes the change set of a revision.
   *
   * @param changes the changes, in order
   * @return a JSON array of objects
   */
  public static String writeChanges(List<Change> changes) {
    return JsonForms.changesNode(changes).toString();
  }

  /**
   * Reads what {@link #writeChanges} wrote.
   *
   * @param json a JSON array
   * @return the changes, in order
   * @throws InvalidInputException if {@code json} is not valid JSON or not a well-formed change set
   */
  public static List<Change> readChanges(String json) {
    return JsonForms.changes(JsonForms.parse(json));
  }

  /**
   * Writes one revision with its change set.
   *
   * @param r the revision
   * @return a JSON object with every field of {@code r}
   */
  public static String writeRevision(Revision r) {
    return JsonForms.revisionNode(r).toString();
  }

  /**
   * Reads what {@link #writeRevision} wrote.
   *
   * @param json a JSON object
   * @return the revision it describes
   * @throws InvalidInputException if {@code json} is not valid JSON or not a well-formed revision
   */
  public static Revision readRevision(String json) {
    return JsonForms.revision(JsonForms.parse(json));
  }
}
