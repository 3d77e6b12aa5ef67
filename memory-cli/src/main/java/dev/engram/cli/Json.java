/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.MemoryEntry;
import dev.engram.MemoryEvent;
import dev.engram.spi.EntryJson;

/** The command line's JSON output: entries and events in the one JSON form of {@link EntryJson}. */
final class Json {
  static final ObjectMapper MAPPER = new ObjectMapper();

  private Json() {}

  static ObjectNode entryNode(MemoryEntry e) {
    return object(EntryJson.writeEntry(e));
  }

  static ObjectNode eventNode(MemoryEvent e) {
    return object(EntryJson.writeEvent(e));
  }

  private static ObjectNode object(String json) {
    try {
      return (ObjectNode) MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("EntryJson wrote invalid JSON", e);
    }
  }
}
