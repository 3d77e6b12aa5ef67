/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.reasoner.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.engram.http.RetryingHttp.Deadline;
import dev.engram.http.RetryingHttp;
import dev.engram.spi.Secrets;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * POSTs JSON through the shared retrying client ({@link RetryingHttp}: per-attempt timeouts, bounded
 * retries of 408, 429, 5xx, connection failures and timeouts with backoff, jitter and the server's
 * {@code Retry-After}, one {@link Deadline} for a whole reasoner operation) and classifies what comes back
 * as {@link LlmException}s. 401/403 and other statuses fail at once. The secret is masked in every message
 * ({@link Secrets#mask}: any long piece of it, also JSON-escaped or URL-encoded).
 */
final class HttpTransport {
  static final Duration MAX_WAIT = RetryingHttp.MAX_WAIT;
  static final int MAX_BODY_BYTES = 4 * 1024 * 1024;
  /** The most bytes of an error answer kept for its message. */
  private static final int MAX_ERROR_BYTES = 64 * 1024;
  private static final int SNIPPET = 240;
  static final ObjectMapper JSON = new ObjectMapper();

  private final RetryingHttp http;
  private final Duration deadline;

  HttpTransport(HttpClient client, Duration timeout, int maxAttempts, Duration backoff, Duration deadline) {
    this.http = new RetryingHttp(client, timeout, maxAttempts, backoff);
    this.deadline = deadline;
  }

  /** A new deadline for one reasoner operation, starting now. */
  Deadline startDeadline() {
    return Deadline.after(deadline);
  }

  /** A 2xx answer: the parsed body and how many requests it took. */
  record Reply(JsonNode body, int attempts) {}

  /**
   * Posts {@code body} until a 2xx answer parses as JSON, or fails.
   *
   * @param secret masked in messages (may be null)
   * @param keyHint what to check on 401/403, e.g. "OPENAI_API_KEY"
   * @param fallback when it accepts a 400 body, {@link FallbackSignal} is thrown so the caller can
   *     repeat with another request (does not count as an attempt)
   */
  Reply post(URI endpoint, Map<String, String> headers, byte[] body, @Nullable String secret, String keyHint,
      @Nullable Predicate<String> fallback, Deadline until) {
    HttpRequest.Builder request = RetryingHttp.postJson(endpoint, body);
    headers.forEach(request::header);
    return http.send(request, MAX_BODY_BYTES, MAX_ERROR_BYTES, until, (answer, attempt) -> {
      int status = answer.status();
      String text = new String(answer.body(), StandardCharsets.UTF_8);
      if (answer.ok()) {
        return new Reply(parse(endpoint, answer, text, secret), attempt);
      }
      String what = "POST " + endpoint + " answered HTTP " + status + describeBody(answer, text, secret);
      if (status == 401 || status == 403) {
        throw new LlmException(LlmException.Kind.UNAUTHORIZED, what + "; check " + keyHint, null);
      }
      if (status == 400 && fallback != null && fallback.test(text)) {
        throw new FallbackSignal(what);
      }
      LlmException failure = new LlmException(
          status == 429 ? LlmException.Kind.RATE_LIMITED : LlmException.Kind.HTTP_ERROR, what + http.attempts(attempt),
          null);
      if (!RetryingHttp.retryable(status)) {
        throw failure;
      }
      throw new RetryingHttp.Retry(failure, RetryingHttp.retryAfter(answer.headers()));
    }, new Failures(endpoint, secret));
  }

  /** The reasoner's exceptions for what goes wrong around an answer. */
  private final class Failures implements RetryingHttp.Failures {
    private final URI endpoint;
    private final @Nullable String secret;

    Failures(URI endpoint, @Nullable String secret) {
      this.endpoint = endpoint;
      this.secret = secret;
    }

    @Override
    public RuntimeException timedOut(int attempt, Duration waited, @Nullable Deadline cutBy, Exception cause) {
      return new LlmException(LlmException.Kind.TIMEOUT, "POST " + endpoint + " did not answer within "
          + (cutBy != null ? cutBy.describe() : waited.toMillis() + " ms") + http.attempts(attempt), cause);
    }

    @Override
    public RuntimeException failed(int attempt, IOException cause) {
      return new LlmException(LlmException.Kind.CONNECTION,
          "POST " + endpoint + " failed" + http.attempts(attempt) + ": " + mask(RetryingHttp.describe(cause), secret),
          cause);
    }

    @Override
    public RuntimeException tooLarge(long limit) {
      return new LlmException(LlmException.Kind.INVALID_ANSWER,
          "POST " + endpoint + " answered with a body over " + limit + " bytes", null);
    }

    @Override
    public RuntimeException interrupted() {
      return new LlmException(LlmException.Kind.CONNECTION, "interrupted while waiting for POST " + endpoint, null);
    }

    @Override
    public RuntimeException notSent(Deadline deadline) {
      return new LlmException(LlmException.Kind.TIMEOUT,
          "POST " + endpoint + " was not sent: " + deadline.describe() + " has passed", null);
    }

    @Override
    public RuntimeException endedAfter(RuntimeException last, String why) {
      LlmException l = (LlmException) last;
      return new LlmException(l.kind(), l.getMessage() + why, l.getCause());
    }
  }

  /** Thrown when a 400 answer says the structured-output request is not supported. */
  static final class FallbackSignal extends RuntimeException {
    private static final long serialVersionUID = 1L;

    FallbackSignal(String message) {
      super(message, null, false, false);
    }
  }

  private static JsonNode parse(URI endpoint, RetryingHttp.Answer response, String text, @Nullable String secret) {
    if (looksLikeHtml(response, text)) {
      throw new LlmException(LlmException.Kind.NOT_JSON, "POST " + endpoint
          + " answered with an HTML page instead of JSON (is the base URL the API's?): " + snippet(text, secret), null);
    }
    try {
      JsonNode root = JSON.readTree(text);
      if (root == null || !root.isObject()) {
        throw new LlmException(LlmException.Kind.NOT_JSON,
            "POST " + endpoint + " answered with something other than a JSON object: " + snippet(text, secret), null);
      }
      return root;
    } catch (IOException e) {
      throw new LlmException(LlmException.Kind.NOT_JSON,
          "POST " + endpoint + " answered with a body that is not JSON: " + snippet(text, secret), null);
    }
  }

  private static boolean looksLikeHtml(RetryingHttp.Answer response, String text) {
    String type = response.headers().firstValue("Content-Type").orElse("").toLowerCase(Locale.ROOT);
    String head = text.stripLeading().toLowerCase(Locale.ROOT);
    return type.contains("text/html") || head.startsWith("<!doctype html") || head.startsWith("<html");
  }

  private static String describeBody(RetryingHttp.Answer response, String text, @Nullable String secret) {
    if (text.isBlank()) {
      return " with an empty body";
    }
    if (looksLikeHtml(response, text)) {
      return " with an HTML page (a proxy or the wrong base URL?)";
    }
    try {
      JsonNode root = JSON.readTree(text);
      JsonNode error = root == null ? null : root.get("error");
      if (error != null) {
        JsonNode message = error.isObject() ? error.get("message") : error;
        if (message != null && message.isTextual()) {
          return ": " + snippet(message.asText(), secret);
        }
      }
    } catch (IOException e) {
      // not JSON: the raw text says more
    }
    return ": " + snippet(text, secret);
  }

  static String snippet(String text, @Nullable String secret) {
    // only the head is ever shown; masking it whole first keeps a key cut by the clip masked too
    String head = text.length() <= SNIPPET * 8 ? text : text.substring(0, SNIPPET * 8);
    String flat = mask(head, secret).replaceAll("\\s+", " ").strip();
    return flat.length() <= SNIPPET ? flat : flat.substring(0, SNIPPET) + "…";
  }

  /** {@code text} with every long piece of the secret, plain, JSON-escaped or URL-encoded, masked. */
  static String mask(String text, @Nullable String secret) {
    return Secrets.mask(text, secret);
  }
}
