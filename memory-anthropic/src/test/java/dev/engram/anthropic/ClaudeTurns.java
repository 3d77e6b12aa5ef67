/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.anthropic;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.reasoner.llm.ModelServer;
import java.util.ArrayList;
import java.util.List;

/**
 * A scripted Claude for the loopback {@link ModelServer}: Messages API answers in Anthropic's wire format
 * that use the memory tool, and the tool results the client sent back.
 */
final class ClaudeTurns {
  static final ObjectMapper JSON = new ObjectMapper();

  private ClaudeTurns() {}

  /** An assistant message that calls the memory tool with {@code input}. */
  static ModelServer.Reply memoryToolUse(int turn, String input) {
    try {
      ObjectNode m = message(turn, "tool_use");
      ObjectNode block = ((ArrayNode) m.get("content")).addObject();
      block.put("type", "tool_use");
      block.put("id", "toolu_" + turn);
      block.put("name", "memory");
      block.set("input", JSON.readTree(input));
      return ModelServer.Reply.raw(200, "application/json", m.toString());
    } catch (java.io.IOException e) {
      throw new IllegalArgumentException(input, e);
    }
  }

  /** A final assistant message with text. */
  static ModelServer.Reply finalText(int turn, String text) {
    ObjectNode m = message(turn, "end_turn");
    ((ArrayNode) m.get("content")).addObject().put("type", "text").put("text", text);
    return ModelServer.Reply.raw(200, "application/json", m.toString());
  }

  private static ObjectNode message(int turn, String stop) {
    ObjectNode m = JSON.createObjectNode();
    m.put("id", "msg_" + turn);
    m.put("type", "message");
    m.put("role", "assistant");
    m.put("model", "claude-scripted");
    m.putArray("content");
    m.put("stop_reason", stop);
    m.putNull("stop_sequence");
    m.putObject("usage").put("input_tokens", 10).put("output_tokens", 5);
    return m;
  }

  /** The tool results of a request: the content of each tool_result block of its last message. */
  static List<JsonNode> toolResults(ModelServer.Recorded request) {
    List<JsonNode> out = new ArrayList<>();
    JsonNode messages = request.body().path("messages");
    JsonNode last = messages.get(messages.size() - 1);
    for (JsonNode block : last.path("content")) {
      if ("tool_result".equals(block.path("type").asText())) {
        out.add(block);
      }
    }
    return out;
  }

  /** The text of a tool_result block (a string, or text blocks). */
  static String text(JsonNode toolResult) {
    JsonNode c = toolResult.path("content");
    if (c.isTextual()) {
      return c.asText();
    }
    StringBuilder sb = new StringBuilder();
    c.forEach(b -> sb.append(b.path("text").asText()));
    return sb.toString();
  }
}
