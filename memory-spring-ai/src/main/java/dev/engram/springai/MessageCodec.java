/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.springai;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.ErrorCode;
import dev.engram.InvalidInputException;
import dev.engram.MemoryException;
import dev.engram.agent.ConversationLog.Turn;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.ai.chat.messages.AbstractMessage;
import org.springframework.ai.chat.messages.AssistantMessage;
import org.springframework.ai.chat.messages.Message;
import org.springframework.ai.chat.messages.MessageType;
import org.springframework.ai.chat.messages.SystemMessage;
import org.springframework.ai.chat.messages.ToolResponseMessage;
import org.springframework.ai.chat.messages.UserMessage;
import org.springframework.ai.content.Media;
import org.springframework.util.MimeType;

/**
 * Spring AI messages as conversation turns and back. A user, system or assistant message that is
 * text only (no media, tool calls or metadata) is its text under the role {@code user}, {@code system}
 * or {@code assistant}; every other message (tool responses, tool calls, media, metadata) is one JSON
 * object in the format {@value #FORMAT}, with metadata values in their JSON form.
 */
final class MessageCodec {
  static final String FORMAT = "spring-ai.message.v1";
  private static final ObjectMapper JSON = new ObjectMapper();

  private MessageCodec() {}

  static Turn encode(Message m, int index) {
    String role = switch (m.getMessageType()) {
      case USER -> "user";
      case ASSISTANT -> "assistant";
      case SYSTEM -> "system";
      case TOOL -> "tool";
    };
    Map<String, Object> metadata = new LinkedHashMap<>(m.getMetadata());
    metadata.remove(AbstractMessage.MESSAGE_TYPE);
    String text = m.getText();
    boolean plain = metadata.isEmpty() && text != null && !text.isEmpty() && switch (m.getMessageType()) {
      case USER -> ((UserMessage) m).getMedia().isEmpty();
      case SYSTEM -> true;
      case ASSISTANT -> !((AssistantMessage) m).hasToolCalls() && ((AssistantMessage) m).getMedia().isEmpty();
      case TOOL -> false;
    };
    if (plain) {
      return Turn.of(role, text);
    }
    ObjectNode o = JSON.createObjectNode();
    o.put("type", m.getMessageType().name());
    if (text != null) {
      o.put("text", text);
    }
    if (!metadata.isEmpty()) {
      try {
        o.set("metadata", JSON.valueToTree(metadata));
      } catch (IllegalArgumentException e) {
        throw new InvalidInputException("messages[" + index + "].metadata", "cannot be kept as JSON ("
            + e.getClass().getSimpleName() + ")");
      }
    }
    List<Media> media = m instanceof UserMessage u ? u.getMedia() : m instanceof AssistantMessage a ? a.getMedia() : List.of();
    if (!media.isEmpty()) {
      ArrayNode list = o.putArray("media");
      for (Media md : media) {
        ObjectNode n = list.addObject();
        n.put("mimeType", md.getMimeType().toString());
        if (md.getId() != null) {
          n.put("id", md.getId());
        }
        n.put("name", md.getName());
        if (md.getData() instanceof String url) {
          n.put("url", url);
        } else if (md.getData() instanceof byte[] bytes) {
          n.put("bytes", Base64.getEncoder().encodeToString(bytes));
        } else {
          throw new InvalidInputException("messages[" + index + "].media", "data of type "
              + md.getData().getClass().getName() + " cannot be kept (a URL string or bytes can)");
        }
      }
    }
    if (m instanceof AssistantMessage a && a.hasToolCalls()) {
      ArrayNode calls = o.putArray("toolCalls");
      for (AssistantMessage.ToolCall c : a.getToolCalls()) {
        calls.addObject().put("id", c.id()).put("type", c.type()).put("name", c.name()).put("arguments", c.arguments());
      }
    }
    if (m instanceof ToolResponseMessage t) {
      ArrayNode responses = o.putArray("responses");
      for (ToolResponseMessage.ToolResponse r : t.getResponses()) {
        responses.addObject().put("id", r.id()).put("name", r.name()).put("responseData", r.responseData());
      }
    }
    return new Turn(role, o.toString(), FORMAT);
  }

  static Message decode(Turn t) {
    if (t.format() == null) {
      return switch (t.role()) {
        case "user" -> new UserMessage(t.text());
        case "system" -> new SystemMessage(t.text());
        case "assistant" -> new AssistantMessage(t.text());
        default -> throw unreadable("a plain turn of role " + t.role());
      };
    }
    if (!t.format().equals(FORMAT)) {
      throw unreadable("a turn in format " + t.format());
    }
    JsonNode o;
    try {
      o = JSON.readTree(t.text());
    } catch (JsonProcessingException e) {
      throw unreadable("a turn that is not JSON");
    }
    String text = o.hasNonNull("text") ? o.get("text").asText() : null;
    Map<String, Object> metadata = o.has("metadata")
        ? JSON.convertValue(o.get("metadata"), JSON.getTypeFactory().constructMapType(LinkedHashMap.class, String.class, Object.class))
        : Map.of();
    List<Media> media = new ArrayList<>();
    for (JsonNode n : o.path("media")) {
      Media.Builder b = Media.builder().mimeType(MimeType.valueOf(n.path("mimeType").asText()))
          .data(n.has("url") ? n.get("url").asText() : Base64.getDecoder().decode(n.path("bytes").asText()))
          .name(n.path("name").asText());
      if (n.hasNonNull("id")) {
        b.id(n.get("id").asText());
      }
      media.add(b.build());
    }
    MessageType type;
    try {
      type = MessageType.valueOf(o.path("type").asText());
    } catch (IllegalArgumentException e) {
      throw unreadable("a turn without a message type");
    }
    return switch (type) {
      case USER -> UserMessage.builder().text(text == null ? "" : text).media(media).metadata(metadata).build();
      case SYSTEM -> SystemMessage.builder().text(text == null ? "" : text).metadata(metadata).build();
      case ASSISTANT -> {
        List<AssistantMessage.ToolCall> calls = new ArrayList<>();
        for (JsonNode c : o.path("toolCalls")) {
          calls.add(new AssistantMessage.ToolCall(str(c, "id"), str(c, "type"), str(c, "name"), str(c, "arguments")));
        }
        yield AssistantMessage.builder().content(text).properties(metadata).toolCalls(calls).media(media).build();
      }
      case TOOL -> {
        List<ToolResponseMessage.ToolResponse> responses = new ArrayList<>();
        for (JsonNode r : o.path("responses")) {
          responses.add(new ToolResponseMessage.ToolResponse(str(r, "id"), str(r, "name"), str(r, "responseData")));
        }
        yield ToolResponseMessage.builder().responses(responses).metadata(metadata).build();
      }
    };
  }

  private static @Nullable String str(JsonNode n, String field) {
    return n.hasNonNull(field) ? n.get(field).asText() : null;
  }

  private static MemoryException unreadable(String what) {
    return new MemoryException(ErrorCode.INVALID_INPUT, "the conversation holds " + what
        + ", which is no Spring AI message this repository wrote");
  }
}
