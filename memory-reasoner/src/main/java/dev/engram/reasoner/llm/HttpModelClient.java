/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.reasoner.llm;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.http.RetryingHttp;
import java.io.IOException;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What both wire formats share: the key check before any request, timing, usage reporting and
 * debug logging (never content), and reading the model's JSON out of a text answer.
 */
abstract class HttpModelClient implements ModelClient {
  private static final Logger LOG = LoggerFactory.getLogger(LlmReasoner.class);

  protected final ModelConfig config;
  protected final @Nullable String apiKey;
  protected final HttpTransport transport;
  private final ModelUsageListener listener;

  HttpModelClient(ModelConfig config, @Nullable String apiKey, HttpTransport transport, ModelUsageListener listener) {
    this.config = config;
    this.apiKey = apiKey;
    this.transport = transport;
    this.listener = listener;
  }

  @Override
  public ModelConfig config() {
    return config;
  }

  /** What a wire format got back: the JSON object, tokens (-1 when unknown) and requests sent. */
  record Exchange(JsonNode value, long inputTokens, long outputTokens, int attempts) {}

  /** Runs the call's requests, all of them done before {@code until}. */
  abstract Exchange exchange(Call call, RetryingHttp.Deadline until);

  @Override
  public final Answer complete(Call call) {
    if (apiKey == null && !config.isLocal()) {
      throw new LlmException(LlmException.Kind.MISSING_KEY, "no API key for " + config.provider() + " model "
          + config.model() + " at " + config.baseUrl() + ": set " + config.apiKeyVariable()
          + " (or point " + config.baseUrlVariable() + " at a local server, which needs no key)", null);
    }
    long start = System.nanoTime();
    RetryingHttp.Deadline until = transport.startDeadline();
    Exchange x;
    try {
      x = exchange(call, until);
    } catch (LlmException e) {
      LOG.debug("{} call to {} {} failed after {} ms: {}", call.job(), config.provider(), config.model(),
          (System.nanoTime() - start) / 1_000_000, e.kind());
      throw e;
    }
    ModelUsage usage = new ModelUsage(call.job(), config.provider(), config.model(), x.inputTokens(),
        x.outputTokens(), Duration.ofNanos(System.nanoTime() - start), x.attempts());
    LOG.debug("{} call to {} {}: {} input / {} output tokens, {} ms, {} attempt(s)", call.job(),
        config.provider(), config.model(), usage.inputTokens(), usage.outputTokens(), usage.latency().toMillis(),
        usage.attempts());
    try {
      listener.onUsage(usage);
    } catch (RuntimeException e) {
      LOG.warn("usage listener failed: {}", e.toString());
    }
    return new Answer(x.value(), usage);
  }

  byte[] bytes(ObjectNode body) {
    try {
      return HttpTransport.JSON.writeValueAsBytes(body);
    } catch (JsonProcessingException e) {
      throw new LlmException(LlmException.Kind.INVALID_ANSWER, "could not write the request: " + e.getOriginalMessage(), e);
    }
  }

  /** The JSON object in a model's text answer; a Markdown code fence around it is tolerated. */
  static JsonNode jsonObject(String job, String text) {
    String t = text.strip();
    if (t.startsWith("```")) {
      int nl = t.indexOf('\n');
      int end = t.lastIndexOf("```");
      if (nl > 0 && end > nl) {
        t = t.substring(nl + 1, end).strip();
      }
    }
    JsonNode node;
    try {
      node = HttpTransport.JSON.readTree(t);
    } catch (IOException e) {
      throw new LlmException(LlmException.Kind.NOT_JSON,
          job + " answer is not JSON (" + text.length() + " characters of text; the model's words are not repeated here)",
          null);
    }
    if (node == null || !node.isObject()) {
      throw new LlmException(LlmException.Kind.NOT_JSON,
          job + " answer is JSON but not an object (" + node.getNodeType().name().toLowerCase(java.util.Locale.ROOT)
              + ")", null);
    }
    return node;
  }

  static long tokens(@Nullable JsonNode usage, String field) {
    JsonNode n = usage == null ? null : usage.get(field);
    return n != null && n.canConvertToLong() && n.asLong() >= 0 ? n.asLong() : -1;
  }
}
