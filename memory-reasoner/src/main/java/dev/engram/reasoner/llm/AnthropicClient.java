/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.reasoner.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.http.RetryingHttp;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Anthropic's {@code POST {baseUrl}/v1/messages} with {@code x-api-key} and
 * {@code anthropic-version: 2023-06-01}. JSON comes back as the input of the one tool the request
 * defines (its {@code input_schema} is the job's schema) and forces with {@code tool_choice}.
 */
final class AnthropicClient extends HttpModelClient {
  static final String VERSION = "2023-06-01";

  private final URI endpoint;

  AnthropicClient(ModelConfig config, @Nullable String apiKey, HttpTransport transport, ModelUsageListener listener) {
    super(config, apiKey, transport, listener);
    this.endpoint = URI.create(config.baseUrl() + "/v1/messages");
  }

  @Override
  Exchange exchange(Call call, RetryingHttp.Deadline until) {
    Map<String, String> headers = new LinkedHashMap<>();
    if (apiKey != null) {
      headers.put("x-api-key", apiKey);
    }
    headers.put("anthropic-version", VERSION);
    HttpTransport.Reply reply =
        transport.post(endpoint, headers, bytes(body(call)), apiKey, config.apiKeyVariable(), null, until);
    JsonNode root = reply.body();
    String stop = root.path("stop_reason").asText("");
    if (stop.equals("max_tokens")) {
      throw new LlmException(LlmException.Kind.TRUNCATED, call.job() + " answer stopped at the output limit of "
          + config.maxOutputTokens() + " tokens (stop_reason: max_tokens)", null);
    }
    if (stop.equals("refusal")) {
      throw new LlmException(LlmException.Kind.REFUSED, call.job() + " was refused by the model (stop_reason: refusal)",
          null);
    }
    JsonNode input = null;
    for (JsonNode block : root.path("content")) {
      if ("tool_use".equals(block.path("type").asText()) && call.job().equals(block.path("name").asText())) {
        input = block.get("input");
        break;
      }
    }
    if (input == null) {
      StringBuilder text = new StringBuilder();
      for (JsonNode block : root.path("content")) {
        if ("text".equals(block.path("type").asText())) {
          text.append(block.path("text").asText());
        }
      }
      if (text.length() == 0) {
        throw new LlmException(LlmException.Kind.INVALID_ANSWER,
            call.job() + " answer has no " + call.job() + " tool call (stop_reason: " + stop + ")", null);
      }
      input = jsonObject(call.job(), text.toString());
    }
    if (!input.isObject()) {
      throw new LlmException(LlmException.Kind.INVALID_ANSWER, call.job() + " tool input is not a JSON object", null);
    }
    JsonNode usage = root.get("usage");
    return new Exchange(input, tokens(usage, "input_tokens"), tokens(usage, "output_tokens"), reply.attempts());
  }

  private ObjectNode body(Call call) {
    ObjectNode body = HttpTransport.JSON.createObjectNode();
    body.put("model", config.model());
    body.put("max_tokens", config.maxOutputTokens());
    body.put("system", call.system());
    body.putArray("messages").addObject().put("role", "user").put("content", call.user());
    ObjectNode tool = body.putArray("tools").addObject();
    tool.put("name", call.job());
    tool.put("description", "Record the " + call.job() + " answer. Always call this tool exactly once.");
    tool.set("input_schema", call.schema());
    body.putObject("tool_choice").put("type", "tool").put("name", call.job());
    return body;
  }
}
