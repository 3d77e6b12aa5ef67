/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.reasoner.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.engram.spi.Secrets;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Flow;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * POSTs JSON with timeouts and bounded retries, and classifies failures. Statuses 408, 429 and 5xx,
 * connection failures and timeouts are retried: the wait doubles from the configured backoff, gets
 * up to a quarter of random jitter, is at least the server's {@code Retry-After} and at most
 * {@link #MAX_WAIT}; a server asking for a longer wait ends the retries. One {@link Deadline} bounds a
 * whole reasoner operation: each attempt waits at most for what is left of it, and a retry whose wait
 * would pass it is not made. 401/403 and other statuses
 * fail at once. The secret is masked in every message ({@link Secrets#mask}: any long piece of it, also
 * JSON-escaped or URL-encoded).
 */
final class HttpTransport {
  static final Duration MAX_WAIT = Duration.ofSeconds(30);
  static final int MAX_BODY_BYTES = 4 * 1024 * 1024;
  private static final int SNIPPET = 240;
  static final ObjectMapper JSON = new ObjectMapper();

  private final HttpClient client;
  private final Duration timeout;
  private final int maxAttempts;
  private final Duration backoff;
  private final Duration deadline;

  HttpTransport(HttpClient client, Duration timeout, int maxAttempts, Duration backoff, Duration deadline) {
    this.client = client;
    this.timeout = timeout;
    this.maxAttempts = maxAttempts;
    this.backoff = backoff;
    this.deadline = deadline;
  }

  /** A new deadline for one reasoner operation, starting now. */
  Deadline startDeadline() {
    return new Deadline(System.nanoTime() + deadline.toNanos(), deadline);
  }

  /**
   * When one reasoner operation (all its requests, retries and waits) must be done.
   *
   * @param atNanos the {@link System#nanoTime()} it passes at
   * @param budget the whole time the operation was given
   */
  record Deadline(long atNanos, Duration budget) {
    Duration remaining() {
      return Duration.ofNanos(Math.max(0, atNanos - System.nanoTime()));
    }

    String describe() {
      return "the deadline of " + budget.toMillis() + " ms for the whole call";
    }
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
    int attempt = 0;
    while (true) {
      attempt++;
      LlmException failure;
      Duration retryAfter = Duration.ZERO;
      Duration left = until.remaining();
      if (left.isZero()) {
        throw new LlmException(LlmException.Kind.TIMEOUT,
            "POST " + endpoint + " was not sent: " + until.describe() + " has passed", null);
      }
      Duration attemptTimeout = left.compareTo(timeout) < 0 ? left : timeout;
      try {
        HttpResponse<byte[]> response = send(endpoint, headers, body, attemptTimeout);
        int status = response.statusCode();
        String text = new String(response.body(), StandardCharsets.UTF_8);
        if (status >= 200 && status < 300) {
          return new Reply(parse(endpoint, response, text, secret), attempt);
        }
        String what = "POST " + endpoint + " answered HTTP " + status + describeBody(response, text, secret);
        if (status == 401 || status == 403) {
          throw new LlmException(LlmException.Kind.UNAUTHORIZED,
              what + "; check " + keyHint, null);
        }
        if (status == 400 && fallback != null && fallback.test(text)) {
          throw new FallbackSignal(what);
        }
        boolean retryable = status == 408 || status == 429 || status >= 500;
        failure = new LlmException(status == 429 ? LlmException.Kind.RATE_LIMITED : LlmException.Kind.HTTP_ERROR,
            what + attempts(attempt), null);
        if (!retryable) {
          throw failure;
        }
        retryAfter = retryAfter(response);
        if (retryAfter.compareTo(MAX_WAIT) > 0) {
          throw new LlmException(failure.kind(), failure.getMessage() + "; the server asked to wait "
              + retryAfter.toSeconds() + " s, more than the " + MAX_WAIT.toSeconds() + " s this client waits", null);
        }
      } catch (TimeoutException e) {
        if (attemptTimeout.compareTo(timeout) < 0) {
          throw new LlmException(LlmException.Kind.TIMEOUT,
              "POST " + endpoint + " did not answer within " + until.describe() + attempts(attempt), e);
        }
        failure = new LlmException(LlmException.Kind.TIMEOUT,
            "POST " + endpoint + " did not answer within " + timeout.toMillis() + " ms" + attempts(attempt), e);
      } catch (IOException e) {
        failure = new LlmException(LlmException.Kind.CONNECTION,
            "POST " + endpoint + " failed" + attempts(attempt) + ": " + mask(describe(e), secret), e);
      }
      if (attempt >= maxAttempts) {
        throw failure;
      }
      Duration wait = wait(attempt, retryAfter);
      if (wait.compareTo(until.remaining()) >= 0) {
        throw new LlmException(failure.kind(), failure.getMessage() + "; a retry after " + wait.toMillis()
            + " ms would pass " + until.describe(), failure.getCause());
      }
      pause(wait, failure);
    }
  }

  /** Thrown when a 400 answer says the structured-output request is not supported. */
  static final class FallbackSignal extends RuntimeException {
    private static final long serialVersionUID = 1L;

    FallbackSignal(String message) {
      super(message, null, false, false);
    }
  }

  private String attempts(int attempt) {
    return maxAttempts > 1 ? " (attempt " + attempt + " of " + maxAttempts + ")" : "";
  }

  private HttpResponse<byte[]> send(URI endpoint, Map<String, String> headers, byte[] body, Duration timeout)
      throws IOException, TimeoutException {
    HttpRequest.Builder request = HttpRequest.newBuilder(endpoint)
        .timeout(timeout)
        .header("Content-Type", "application/json")
        .header("Accept", "application/json")
        .POST(HttpRequest.BodyPublishers.ofByteArray(body));
    if ("http".equalsIgnoreCase(endpoint.getScheme())) {
      // plain-text servers often mishandle the h2c upgrade of a request with a body
      request.version(HttpClient.Version.HTTP_1_1);
    }
    headers.forEach(request::header);
    CompletableFuture<HttpResponse<byte[]>> exchange = client.sendAsync(request.build(), info -> new Limited());
    try {
      return exchange.get(timeout.toNanos(), TimeUnit.NANOSECONDS);
    } catch (TimeoutException e) {
      exchange.cancel(true);
      throw e;
    } catch (InterruptedException e) {
      exchange.cancel(true);
      Thread.currentThread().interrupt();
      throw new LlmException(LlmException.Kind.CONNECTION, "interrupted while waiting for POST " + endpoint, e);
    } catch (ExecutionException e) {
      for (Throwable c = e.getCause(); c != null; c = c.getCause()) {
        if (c instanceof TooLarge) {
          throw new LlmException(LlmException.Kind.INVALID_ANSWER,
              "POST " + endpoint + " answered with a body over " + MAX_BODY_BYTES + " bytes", null);
        }
        if (c instanceof HttpTimeoutException) {
          TimeoutException t = new TimeoutException(c.getMessage());
          t.initCause(c);
          throw t;
        }
      }
      Throwable cause = e.getCause() != null ? e.getCause() : e;
      if (cause instanceof IOException io) {
        throw io;
      }
      throw new IOException(describe(cause), cause);
    }
  }

  private static JsonNode parse(URI endpoint, HttpResponse<byte[]> response, String text, @Nullable String secret) {
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

  private static boolean looksLikeHtml(HttpResponse<byte[]> response, String text) {
    String type = response.headers().firstValue("Content-Type").orElse("").toLowerCase(Locale.ROOT);
    String head = text.stripLeading().toLowerCase(Locale.ROOT);
    return type.contains("text/html") || head.startsWith("<!doctype html") || head.startsWith("<html");
  }

  private static String describeBody(HttpResponse<byte[]> response, String text, @Nullable String secret) {
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

  private static String describe(Throwable e) {
    String message = e.getMessage();
    return e.getClass().getSimpleName() + (message == null ? "" : ": " + message);
  }

  private Duration wait(int attempt, Duration retryAfter) {
    long base = backoff.toMillis() << Math.min(attempt - 1, 16);
    long jitter = base <= 0 ? 0 : ThreadLocalRandom.current().nextLong(base / 4 + 1);
    long millis = Math.min(MAX_WAIT.toMillis(), base + jitter);
    return Duration.ofMillis(Math.max(millis, retryAfter.toMillis()));
  }

  private static void pause(Duration wait, LlmException failure) {
    try {
      Thread.sleep(wait.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw failure;
    }
  }

  /** {@code Retry-After} as seconds or an HTTP date; zero when absent or unreadable. */
  static Duration retryAfter(HttpResponse<?> response) {
    String value = response.headers().firstValue("Retry-After").orElse(null);
    if (value == null) {
      value = response.headers().firstValue("retry-after-ms").map(ms -> "ms:" + ms).orElse(null);
    }
    if (value == null) {
      return Duration.ZERO;
    }
    String v = value.strip();
    try {
      if (v.startsWith("ms:")) {
        return Duration.ofMillis(Math.max(0, (long) Double.parseDouble(v.substring(3))));
      }
      return Duration.ofMillis(Math.max(0, (long) (Double.parseDouble(v) * 1000)));
    } catch (NumberFormatException e) {
      try {
        ZonedDateTime at = ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME);
        Duration d = Duration.between(ZonedDateTime.now(at.getZone()), at);
        return d.isNegative() ? Duration.ZERO : d;
      } catch (DateTimeParseException ignored) {
        return Duration.ZERO;
      }
    }
  }

  /** A body subscriber that gives up beyond {@link #MAX_BODY_BYTES}. */
  private static final class Limited implements HttpResponse.BodySubscriber<byte[]> {
    private final CompletableFuture<byte[]> result = new CompletableFuture<>();
    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private Flow.@Nullable Subscription subscription;

    @Override
    public CompletionStage<byte[]> getBody() {
      return result;
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
      subscription = s;
      s.request(Long.MAX_VALUE);
    }

    @Override
    public void onNext(List<ByteBuffer> items) {
      for (ByteBuffer b : items) {
        if (bytes.size() + b.remaining() > MAX_BODY_BYTES) {
          if (subscription != null) {
            subscription.cancel();
          }
          result.completeExceptionally(new TooLarge());
          return;
        }
        byte[] chunk = new byte[b.remaining()];
        b.get(chunk);
        bytes.write(chunk, 0, chunk.length);
      }
    }

    @Override
    public void onError(Throwable t) {
      result.completeExceptionally(t);
    }

    @Override
    public void onComplete() {
      result.complete(bytes.toByteArray());
    }
  }

  private static final class TooLarge extends IOException {
    private static final long serialVersionUID = 1L;
  }
}
