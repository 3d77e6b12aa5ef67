/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.reasoner.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.http.RetryingHttp;
import java.net.URI;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code POST {baseUrl}/chat/completions} with {@code Authorization: Bearer}. JSON comes back through
 * {@code response_format} {@code json_schema} (strict) or, for servers that do not support it,
 * {@code json_object} with the schema spelled out in the system message. In {@link StructuredOutput#AUTO}
 * a 400 answer about the response format switches this client to {@code json_object} for good.
 */
final class OpenAiClient extends HttpModelClient {
  private static final Logger LOG = LoggerFactory.getLogger(LlmReasoner.class);

  private final URI endpoint;
  private final AtomicBoolean jsonObject;

  OpenAiClient(ModelConfig config, @Nullable String apiKey, HttpTransport transport, ModelUsageListener listener) {
    super(config, apiKey, transport, listener);
    this.endpoint = URI.create(config.baseUrl() + "/chat/completions");
    this.jsonObject = new AtomicBoolean(config.structuredOutput() == StructuredOutput.JSON_OBJECT);
  }

  @Override
  Exchange exchange(Call call, RetryingHttp.Deadline until) {
    Map<String, String> headers = new LinkedHashMap<>();
    if (apiKey != null) {
      headers.put("Authorization", "Bearer " + apiKey);
    }
    boolean mayFallBack = config.structuredOutput() == StructuredOutput.AUTO;
    HttpTransport.Reply reply;
    int extra = 0;
    if (!jsonObject.get()) {
      try {
        reply = transport.post(endpoint, headers, bytes(body(call, false)), apiKey, config.apiKeyVariable(),
            mayFallBack ? OpenAiClient::rejectsResponseFormat : null, until);
      } catch (HttpTransport.FallbackSignal signal) {
        if (jsonObject.compareAndSet(false, true)) {
          LOG.info("{} at {} does not accept response_format json_schema; using json_object from now on",
              config.model(), config.baseUrl());
        }
        extra = 1;
        reply = transport.post(endpoint, headers, bytes(body(call, true)), apiKey, config.apiKeyVariable(), null, until);
      }
    } else {
      reply = transport.post(endpoint, headers, bytes(body(call, true)), apiKey, config.apiKeyVariable(), null, until);
    }
    JsonNode root = reply.body();
    JsonNode choice = root.path("choices").path(0);
    if (!choice.isObject()) {
      throw new LlmException(LlmException.Kind.INVALID_ANSWER,
          call.job() + " answer has no choices[0]", null);
    }
    String finish = choice.path("finish_reason").asText("");
    JsonNode message = choice.path("message");
    if (finish.equals("length")) {
      throw new LlmException(LlmException.Kind.TRUNCATED, call.job() + " answer stopped at the output limit of "
          + config.maxOutputTokens() + " tokens (finish_reason: length)", null);
    }
    JsonNode refusal = message.get("refusal");
    if (refusal != null && refusal.isTextual() && !refusal.asText().isBlank()) {
      throw new LlmException(LlmException.Kind.REFUSED, call.job() + " was refused by the model", null);
    }
    if (finish.equals("content_filter")) {
      throw new LlmException(LlmException.Kind.REFUSED,
          call.job() + " answer was stopped by a content filter (finish_reason: content_filter)", null);
    }
    JsonNode content = message.get("content");
    if (content == null || !content.isTextual() || content.asText().isBlank()) {
      throw new LlmException(LlmException.Kind.NOT_JSON, call.job() + " answer has no message content", null);
    }
    JsonNode usage = root.get("usage");
    return new Exchange(jsonObject(call.job(), content.asText()), tokens(usage, "prompt_tokens"),
        tokens(usage, "completion_tokens"), reply.attempts() + extra);
  }

  private ObjectNode body(Call call, boolean asJsonObject) {
    ObjectNode body = HttpTransport.JSON.createObjectNode();
    body.put("model", config.model());
    ArrayNode messages = body.putArray("messages");
    String system = asJsonObject
        ? call.system() + "\n\nAnswer with one JSON object, and nothing else, that matches this JSON Schema:\n"
            + call.schema().toString()
        : call.system();
    messages.addObject().put("role", "system").put("content", system);
    messages.addObject().put("role", "user").put("content", call.user());
    String host = config.baseUrl().getHost().toLowerCase(Locale.ROOT);
    body.put(host.equals("api.openai.com") ? "max_completion_tokens" : "max_tokens", config.maxOutputTokens());
    ObjectNode format = body.putObject("response_format");
    if (asJsonObject) {
      format.put("type", "json_object");
    } else {
      format.put("type", "json_schema");
      ObjectNode js = format.putObject("json_schema");
      js.put("name", call.job());
      js.put("strict", true);
      js.set("schema", call.schema());
    }
    return body;
  }

  /** Whether a 400 body complains about the structured-output request rather than the input. */
  static boolean rejectsResponseFormat(String body) {
    String b = body.toLowerCase(Locale.ROOT);
    return b.contains("response_format") || b.contains("json_schema") || b.contains("structured output")
        || b.contains("response format");
  }
}
