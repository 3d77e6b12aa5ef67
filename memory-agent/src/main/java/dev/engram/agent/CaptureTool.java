/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.agent;

import static dev.engram.agent.ArgumentSchema.object;
import static dev.engram.agent.ArgumentSchema.oneOf;
import static dev.engram.agent.ArgumentSchema.properties;
import static dev.engram.agent.ArgumentSchema.string;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.CapturedSource;
import dev.engram.Grants;
import dev.engram.SourceRecord;
import java.util.List;

/**
 * {@code memory_capture}: the agent keeps a record of what happened (something the user said, a
 * tool's output, an observation) as a captured source in the grants' first scope, with the tool's
 * actor as session; it writes no memory. Extraction ({@code Engram.flush}) may later turn records into
 * memories, each citing the records it came from.
 */
final class CaptureTool {
  static final String NAME = "memory_capture";
  /**
   * The most characters of a record's text: a code point is at most 4 UTF-8 bytes, so the text always
   * fits a captured record ({@link CapturedSource#MAX_TEXT_BYTES}).
   */
  static final int MAX_TEXT_CHARS = CapturedSource.MAX_TEXT_BYTES / 4;
  static final List<String> SPEAKERS = List.of("user", "assistant", "tool");
  static final String DESCRIPTION = """
      Keep a record of something that happened, as evidence rather than memory: what the user said, a \
      tool's output, an observation. Memory may later be extracted from such records, citing them. For a \
      durable conclusion to remember now, use memory_write instead.""";

  private CaptureTool() {}

  static ObjectNode schema() {
    return object(properties(
        "text", string("What happened, as it was said or produced.", 1, MAX_TEXT_CHARS),
        "speaker", oneOf("Who said or produced it (default: you).", SPEAKERS)),
        "text");
  }

  /** Captures the record; the result names it, without its text. */
  static ObjectNode run(MemoryResource resource, Grants grants, String actor, JsonNode args) {
    String speaker = args.has("speaker") ? args.get("speaker").textValue() : actor;
    CapturedSource stored = resource.engram.capture(grants, SourceRecord.of(actor, speaker, args.get("text").textValue()));
    ObjectNode out = JsonNodeFactory.instance.objectNode();
    out.put("outcome", "captured");
    out.put("record", stored.id());
    out.put("note", "kept as a record of what happened, not as memory");
    return out;
  }
}
