/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.mcp;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * One inbound JSON-RPC message (a stdio line, an HTTP body), checked before the SDK sees it: it is
 * valid UTF-8 JSON, one object, and a request, a notification or a response. A frame that is not is
 * {@link Refused} with the JSON-RPC error to answer (-32700 for text that is not JSON, -32600 for JSON
 * that is no JSON-RPC message), so the SDK only ever receives messages it can dispatch.
 */
final class InboundFrame {
  static final int PARSE_ERROR = -32700;
  static final int INVALID_REQUEST = -32600;
  static final int INTERNAL_ERROR = -32603;
  /** The implementation-defined code of a refusal by the transport (size, rate, session, token). */
  static final int TRANSPORT_REFUSED = -32000;

  private static final ObjectMapper STRICT = JsonMapper.builder()
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
      .build();

  static {
    STRICT.getFactory().setStreamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(64).build());
  }

  private InboundFrame() {}

  /** What a frame turned out to be. */
  sealed interface Checked permits Message, Refused {}

  /** A message the SDK can dispatch. */
  record Message(McpSchema.JSONRPCMessage message) implements Checked {}

  /** A frame answered with a JSON-RPC error; {@code id} is the request's id when it had a usable one. */
  record Refused(int code, String reason, @Nullable Object id) implements Checked {}

  static Checked check(byte[] frame, McpJsonMapper mapper) {
    JsonNode node;
    try {
      node = STRICT.readTree(frame);
    } catch (IOException e) {
      return new Refused(PARSE_ERROR, "Parse error: the message is not valid JSON", null);
    }
    if (node == null || node.isMissingNode()) {
      return new Refused(PARSE_ERROR, "Parse error: the message is empty", null);
    }
    if (node.isArray()) {
      return new Refused(INVALID_REQUEST, "Invalid Request: batches (JSON arrays) are not supported; send one object", null);
    }
    if (!node.isObject()) {
      return new Refused(INVALID_REQUEST, "Invalid Request: expected a JSON-RPC object, got " + kind(node), null);
    }
    JsonNode id = node.get("id");
    Object usableId = id != null && (id.isTextual() || id.isIntegralNumber()) ? (id.isTextual() ? id.asText() : id.numberValue()) : null;
    JsonNode method = node.get("method");
    if (method != null) {
      if (!method.isTextual() || method.asText().isEmpty()) {
        return new Refused(INVALID_REQUEST, "Invalid Request: 'method' must be a non-empty string", usableId);
      }
      if (id != null && usableId == null) {
        return new Refused(INVALID_REQUEST, "Invalid Request: 'id' must be a string or an integer", null);
      }
    } else if (id == null || usableId == null || !(node.has("result") || node.has("error"))) {
      return new Refused(INVALID_REQUEST,
          "Invalid Request: expected a request (method and id), a notification (method) or a response (id and result or error)",
          usableId);
    }
    try {
      return new Message(McpSchema.deserializeJsonRpcMessage(mapper, new String(frame, StandardCharsets.UTF_8)));
    } catch (IOException | RuntimeException e) {
      return new Refused(INVALID_REQUEST, "Invalid Request: the message does not have the shape of a JSON-RPC message", usableId);
    }
  }

  private static String kind(JsonNode node) {
    return switch (node.getNodeType()) {
      case NULL -> "null";
      case STRING -> "a string";
      case NUMBER -> "a number";
      case BOOLEAN -> "a boolean";
      default -> "a " + node.getNodeType().name().toLowerCase(Locale.ROOT);
    };
  }

  /** A JSON-RPC error response: {@code {"jsonrpc":"2.0","id":…,"error":{"code":…,"message":…}}}, id null when unknown. */
  static String error(int code, String message, @Nullable Object id) {
    ObjectNode out = STRICT.createObjectNode().put("jsonrpc", "2.0");
    if (id instanceof String s) {
      out.put("id", s);
    } else if (id instanceof BigInteger b) {
      out.put("id", b);
    } else if (id instanceof Number n) {
      out.put("id", n.longValue());
    } else {
      out.putNull("id");
    }
    out.putObject("error").put("code", code).put("message", message);
    try {
      return STRICT.writeValueAsString(out);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a JSON-RPC error object could not be written", e);
    }
  }

  static String error(Refused refused) {
    return error(refused.code(), refused.reason(), refused.id());
  }
}
