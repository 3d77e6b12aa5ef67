/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.embeddings.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.InvalidInputException;
import dev.engram.http.RetryingHttp;
import dev.engram.spi.Embedder;
import dev.engram.spi.EmbeddingProfile;
import dev.engram.spi.Secrets;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Embeds texts with any server that speaks the OpenAI {@code POST /v1/embeddings} wire format:
 * OpenAI itself, and the compatible endpoints of Ollama, vLLM, llama.cpp, LM Studio, LocalAI,
 * text-embeddings-inference and most hosted gateways.
 *
 * <pre>{@code
 * Embedder embedder = OpenAiCompatibleEmbedder.builder()
 *     .baseUrl(OpenAiCompatibleEmbedder.OPENAI_BASE_URL)
 *     .apiKey(System.getenv("OPENAI_API_KEY"))
 *     .model("text-embedding-3-small")
 *     .dimension(1536)
 *     .build();
 * }</pre>
 *
 * <p>Texts are sent in batches of {@link Builder#batchSize(int)}, one request at a time. Every answer
 * is treated as untrusted: it must hold exactly one embedding per input, each {@code index} once,
 * each embedding {@link Builder#dimension(int)} finite numbers; anything else fails the call with an
 * {@link EmbeddingException} ({@code INVALID_MODEL_OUTPUT}) saying what was wrong. Results are ordered
 * by {@code index}, not by their position in the answer.
 *
 * <p>Statuses 408, 429 and 5xx, connection failures and timeouts are retried, up to {@link
 * Builder#maxAttempts(int)} requests a batch, waiting {@link Builder#retryBackoff(Duration)} doubled on
 * each retry (plus up to a quarter of random jitter, at most 30 s, at least a {@code Retry-After} the
 * server sent; a server asking for longer ends the retries), the whole call within {@link
 * Builder#deadline(Duration)}: the same retrying client as the LLM reasoner's, with the same option names.
 * Other statuses fail at once. The API key is sent only in the {@code Authorization} header and never
 * appears in a message, even when the server echoes it.
 *
 * <p>Instances are immutable and thread-safe. The class is one job, one wire format: most of its length is
 * the validation of an untrusted answer (every field, with a message naming it) and the builder's checked
 * settings; sending and retrying are the shared client's.
 */
public final class OpenAiCompatibleEmbedder implements Embedder {
  private static final Logger LOG = LoggerFactory.getLogger(OpenAiCompatibleEmbedder.class);

  /** The base URL of OpenAI's API. */
  public static final String OPENAI_BASE_URL = "https://api.openai.com/v1";

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration MAX_RETRY_DELAY = RetryingHttp.MAX_WAIT;
  private static final int ERROR_BODY_LIMIT = 64 * 1024;
  private static final int MESSAGE_SNIPPET = 300;

  private final URI endpoint;
  private final @Nullable String apiKey;
  private final String model;
  private final EmbeddingProfile profile;
  private final boolean requestDimensions;
  private final int batchSize;
  private final Duration deadline;
  private final long maxResponseBytes;
  private final Map<String, String> headers;
  private final RetryingHttp http;

  private OpenAiCompatibleEmbedder(Builder b, URI endpoint, String model) {
    this.endpoint = endpoint;
    this.apiKey = b.apiKey;
    this.model = model;
    this.profile = new EmbeddingProfile(model, b.dimension);
    this.requestDimensions = b.requestDimensions;
    this.batchSize = b.batchSize;
    this.deadline = b.deadline;
    this.maxResponseBytes = b.maxResponseBytes;
    this.headers = Map.copyOf(b.headers);
    HttpClient client =
        b.httpClient != null
            ? b.httpClient
            : HttpClient.newBuilder()
                .connectTimeout(b.timeout)
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
    this.http = new RetryingHttp(client, b.timeout, b.maxAttempts, b.retryBackoff);
  }

  /**
   * @return a builder with nothing required set; {@code baseUrl}, {@code model} and {@code dimension} must be
   *     given before {@link Builder#build()}
   */
  public static Builder builder() {
    return new Builder();
  }

  @Override
  public EmbeddingProfile profile() {
    return profile;
  }

  /** @return the URL requests are posted to: the base URL followed by {@code /embeddings} */
  public URI endpoint() {
    return endpoint;
  }

  /**
   * One vector of {@code profile().dimension()} values per text, in order. The values are returned
   * as the server sent them, not normalized.
   *
   * @throws NullPointerException if {@code texts} or one of its elements is null
   * @throws InvalidInputException if a text is empty
   * @throws EmbeddingException if the server cannot be reached, answers with an error, or answers
   *     with something other than one valid vector per text
   */
  @Override
  public List<float[]> embed(List<String> texts) {
    Objects.requireNonNull(texts, "texts");
    for (int i = 0; i < texts.size(); i++) {
      String text = texts.get(i);
      if (text == null) {
        throw new NullPointerException("texts[" + i + "]");
      }
      if (text.isEmpty()) {
        throw new InvalidInputException("texts", "[" + i + "] is empty; only non-empty texts can be embedded");
      }
    }
    if (texts.isEmpty()) {
      return List.of();
    }
    List<float[]> vectors = new ArrayList<>(texts.size());
    RetryingHttp.Deadline until = RetryingHttp.Deadline.after(deadline);
    for (int from = 0; from < texts.size(); from += batchSize) {
      vectors.addAll(embedBatch(texts.subList(from, Math.min(texts.size(), from + batchSize)), until));
    }
    return List.copyOf(vectors);
  }

  private List<float[]> embedBatch(List<String> batch, RetryingHttp.Deadline until) {
    int expected = batch.size();
    return http.send(request(batch), maxResponseBytes, ERROR_BODY_LIMIT, until, (answer, attempt) -> {
      if (answer.ok()) {
        return parse(answer.body(), expected);
      }
      int status = answer.status();
      boolean retryable = RetryingHttp.retryable(status);
      EmbeddingException failure = EmbeddingException.httpStatus("POST " + endpoint + " answered HTTP " + status
          + (retryable ? http.attempts(attempt) : "") + ": " + serverMessage(answer.body()), status);
      if (!retryable) {
        throw failure;
      }
      throw new RetryingHttp.Retry(failure, RetryingHttp.retryAfter(answer.headers()));
    }, failures);
  }

  /** The embedder's exceptions for what goes wrong around an answer. */
  private final RetryingHttp.Failures failures = new RetryingHttp.Failures() {
    @Override
    public RuntimeException timedOut(int attempt, Duration waited, RetryingHttp.@Nullable Deadline cutBy,
        Exception cause) {
      String within = cutBy != null ? cutBy.describe() : waited.toMillis() + " ms";
      return EmbeddingException.failed("POST " + endpoint + " timed out after " + within + http.attempts(attempt), cause);
    }

    @Override
    public RuntimeException failed(int attempt, IOException cause) {
      return EmbeddingException.failed(
          "POST " + endpoint + " failed" + http.attempts(attempt) + ": " + redact(RetryingHttp.describe(cause)), cause);
    }

    @Override
    public RuntimeException tooLarge(long limit) {
      return EmbeddingException.invalidResponse(
          "POST " + endpoint + " answered with a body over the limit of " + limit + " bytes");
    }

    @Override
    public RuntimeException interrupted() {
      return EmbeddingException.failed("interrupted while waiting for POST " + endpoint, null);
    }

    @Override
    public RuntimeException notSent(RetryingHttp.Deadline until) {
      return EmbeddingException.failed("POST " + endpoint + " was not sent: " + until.describe() + " has passed", null);
    }

    @Override
    public RuntimeException endedAfter(RuntimeException last, String why) {
      EmbeddingException e = (EmbeddingException) last;
      return e.httpStatus().isPresent() ? EmbeddingException.httpStatus(e.getMessage() + why, e.httpStatus().getAsInt())
          : EmbeddingException.failed(e.getMessage() + why, e.getCause());
    }
  };

  private HttpRequest.Builder request(List<String> batch) {
    ObjectNode body = JSON.createObjectNode();
    body.put("model", model);
    ArrayNode input = body.putArray("input");
    batch.forEach(input::add);
    body.put("encoding_format", "float");
    if (requestDimensions) {
      body.put("dimensions", profile.dimension());
    }
    byte[] json;
    try {
      json = JSON.writeValueAsBytes(body);
    } catch (JsonProcessingException e) {
      throw EmbeddingException.failed("could not write the embedding request: " + e.getOriginalMessage(), e);
    }
    HttpRequest.Builder request = RetryingHttp.postJson(endpoint, json);
    headers.forEach(request::setHeader);
    if (apiKey != null) {
      request.header("Authorization", "Bearer " + apiKey);
    }
    return request;
  }

  private List<float[]> parse(byte[] body, int expected) {
    JsonNode root;
    try {
      root = JSON.readTree(body);
    } catch (IOException e) {
      String detail = e instanceof JsonProcessingException ? ((JsonProcessingException) e).getOriginalMessage() : e.getMessage();
      throw invalid("body is not JSON (" + redact(String.valueOf(detail)) + "): " + snippet(body));
    }
    if (root == null || root.isMissingNode()) {
      throw invalid("body is empty");
    }
    if (!root.isObject()) {
      throw invalid("body is " + kind(root) + ", expected an object");
    }
    JsonNode data = root.get("data");
    if (data == null || data.isNull()) {
      if (root.has("error")) {
        throw EmbeddingException.failed(
            "POST " + endpoint + " answered HTTP 2xx with an error: " + errorMessage(root), null);
      }
      throw invalid("body has no \"data\" field");
    }
    if (!data.isArray()) {
      throw invalid("\"data\" is " + kind(data) + ", expected an array");
    }
    if (data.size() != expected) {
      throw invalid("expected " + expected + " embeddings for " + expected + " inputs, got " + data.size());
    }
    int dimension = profile.dimension();
    float[][] vectors = new float[expected][];
    for (int i = 0; i < expected; i++) {
      JsonNode item = data.get(i);
      String at = "data[" + i + "]";
      if (!item.isObject()) {
        throw invalid(at + " is " + kind(item) + ", expected an object");
      }
      JsonNode indexNode = item.get("index");
      if (indexNode == null || indexNode.isNull()) {
        throw invalid(at + ".index is missing");
      }
      if (!indexNode.isIntegralNumber() || !indexNode.canConvertToInt()) {
        throw invalid(at + ".index is not an integer: " + abbreviate(indexNode.toString()));
      }
      int index = indexNode.intValue();
      if (index < 0 || index >= expected) {
        throw invalid(at + ".index " + index + " is outside 0.." + (expected - 1));
      }
      if (vectors[index] != null) {
        throw invalid(at + ".index " + index + " appears twice");
      }
      JsonNode embedding = item.get("embedding");
      if (embedding == null || embedding.isNull()) {
        throw invalid(at + ".embedding is missing");
      }
      if (!embedding.isArray()) {
        throw invalid(at + ".embedding is " + kind(embedding) + ", expected an array of numbers");
      }
      if (embedding.size() != dimension) {
        throw invalid(at + ".embedding has " + embedding.size() + " values, expected " + dimension);
      }
      float[] vector = new float[dimension];
      for (int j = 0; j < dimension; j++) {
        JsonNode value = embedding.get(j);
        if (!value.isNumber()) {
          throw invalid(at + ".embedding[" + j + "] is " + kind(value) + ", expected a number");
        }
        float f = (float) value.doubleValue();
        if (!Float.isFinite(f)) {
          throw invalid(at + ".embedding[" + j + "] is not a finite float: " + abbreviate(value.toString()));
        }
        vector[j] = f;
      }
      vectors[index] = vector;
    }
    return List.of(vectors);
  }

  private EmbeddingException invalid(String problem) {
    return EmbeddingException.invalidResponse("POST " + endpoint + " answered with an unusable body: " + problem);
  }

  private static String kind(JsonNode node) {
    switch (node.getNodeType()) {
      case ARRAY:
        return "an array";
      case OBJECT:
        return "an object";
      case NULL:
        return "null";
      default:
        return "a " + node.getNodeType().name().toLowerCase(Locale.ROOT);
    }
  }

  /** What the server said in an error body: OpenAI's {@code error} object, or the body itself. */
  private String serverMessage(byte[] body) {
    if (body.length == 0) {
      return "(empty body)";
    }
    try {
      JsonNode root = JSON.readTree(body);
      if (root != null && root.isObject()) {
        if (root.has("error")) {
          return errorMessage(root);
        }
        for (String field : List.of("message", "detail")) {
          JsonNode value = root.get(field);
          if (value != null && value.isTextual()) {
            return abbreviate(value.asText());
          }
        }
      }
    } catch (IOException e) {
      // not JSON: the raw text below says more
    }
    return snippet(body);
  }

  private String errorMessage(JsonNode root) {
    JsonNode error = root.get("error");
    if (error.isTextual()) {
      return abbreviate(error.asText());
    }
    if (!error.isObject()) {
      return abbreviate(root.toString());
    }
    StringBuilder text = new StringBuilder();
    JsonNode message = error.get("message");
    text.append(message != null && !message.isNull() ? message.asText() : "(no message)");
    List<String> details = new ArrayList<>();
    for (String field : List.of("type", "code", "param")) {
      JsonNode value = error.get(field);
      if (value != null && value.isValueNode() && !value.isNull()) {
        details.add(field + ": " + value.asText());
      }
    }
    if (!details.isEmpty()) {
      text.append(" (").append(String.join(", ", details)).append(')');
    }
    return abbreviate(text.toString());
  }

  private String snippet(byte[] body) {
    if (body.length == 0) {
      return "(empty body)";
    }
    int length = Math.min(body.length, MESSAGE_SNIPPET * 4);
    return abbreviate(new String(body, 0, length, StandardCharsets.UTF_8));
  }

  /** One line of at most {@value #MESSAGE_SNIPPET} printable characters, with the API key masked. */
  private String abbreviate(String text) {
    String line = redact(text).replaceAll("\\p{Cntrl}+", " ").strip();
    if (line.length() > MESSAGE_SNIPPET) {
      line = line.substring(0, MESSAGE_SNIPPET) + "…";
    }
    return line.isEmpty() ? "(blank)" : line;
  }

  /** {@code text} with every long piece of the API key, plain, JSON-escaped or URL-encoded, masked. */
  private String redact(String text) {
    return Secrets.mask(text, apiKey);
  }

  @Override
  public String toString() {
    return "OpenAiCompatibleEmbedder[endpoint=" + endpoint + ", model=" + model + ", dimension="
        + profile.dimension() + "]";
  }

  /**
   * Settings of an {@link OpenAiCompatibleEmbedder}. {@link #baseUrl}, {@link #model} and {@link
   * #dimension} are required; each setter checks its value and names it when it rejects one. A
   * builder can be reused; each {@link #build()} takes a snapshot.
   */
  public static final class Builder {
    /** The default {@link #deadline}: 5 minutes for one embed call. */
    public static final Duration DEFAULT_DEADLINE = Duration.ofMinutes(5);

    private @Nullable String baseUrl;
    private @Nullable String apiKey;
    private @Nullable String model;
    private int dimension;
    private boolean requestDimensions;
    private Duration timeout = Duration.ofSeconds(60);
    private int batchSize = 64;
    private int maxAttempts = 3;
    private Duration retryBackoff = Duration.ofMillis(500);
    private Duration deadline = DEFAULT_DEADLINE;
    private long maxResponseBytes = 64L * 1024 * 1024;
    private final Map<String, String> headers = new LinkedHashMap<>();
    private @Nullable HttpClient httpClient;

    private Builder() {}

    /**
     * Where the API lives, e.g. {@value OpenAiCompatibleEmbedder#OPENAI_BASE_URL} or {@code
     * http://localhost:11434/v1}; requests go to this URL followed by {@code /embeddings}. Trailing
     * slashes are ignored. Required.
     *
     * @param baseUrl an absolute http or https URL without user info, query or fragment
     * @return this builder
     * @throws NullPointerException if {@code baseUrl} is null
     * @throws InvalidInputException if it is not such a URL
     */
    public Builder baseUrl(String baseUrl) {
      Objects.requireNonNull(baseUrl, "baseUrl");
      this.baseUrl = baseUrl;
      endpointOf(baseUrl);
      return this;
    }

    /**
     * Sent as {@code Authorization: Bearer <apiKey>}. Optional: local servers often need none.
     *
     * @param apiKey the key, or null to send none
     * @return this builder
     * @throws InvalidInputException if the key is blank or contains control characters
     */
    public Builder apiKey(@Nullable String apiKey) {
      if (apiKey != null) {
        if (apiKey.isBlank()) {
          throw new InvalidInputException("apiKey", "must not be blank; leave it unset when the server needs none");
        }
        if (apiKey.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
          throw new InvalidInputException("apiKey", "contains control characters");
        }
      }
      this.apiKey = apiKey;
      return this;
    }

    /**
     * The {@code model} field of each request, and the {@link EmbeddingProfile#modelId()}. Required.
     *
     * @param model the model name, 1..200 characters, not blank
     * @return this builder
     * @throws NullPointerException if {@code model} is null
     * @throws InvalidInputException if it is blank or longer than 200 characters
     */
    public Builder model(String model) {
      Objects.requireNonNull(model, "model");
      if (model.isBlank() || model.length() > 200) {
        throw new InvalidInputException("model", "must be 1..200 non-blank characters");
      }
      this.model = model;
      return this;
    }

    /**
     * The length of every vector the model returns; every answer is checked against it. Required.
     *
     * @param dimension the vector length, 1..8,192
     * @return this builder
     * @throws InvalidInputException if it is out of range
     */
    public Builder dimension(int dimension) {
      if (dimension < 1 || dimension > 8192) {
        throw new InvalidInputException("dimension", "must be between 1 and 8192, was " + dimension);
      }
      this.dimension = dimension;
      return this;
    }

    /**
     * Whether each request asks for {@link #dimension} values with the {@code dimensions} field, for
     * models that can shorten their vectors (OpenAI's {@code text-embedding-3-*}). Default false.
     *
     * @param requestDimensions whether to send the {@code dimensions} field
     * @return this builder
     */
    public Builder requestDimensions(boolean requestDimensions) {
      this.requestDimensions = requestDimensions;
      return this;
    }

    /**
     * The longest one attempt may take, from connecting to the last byte of the answer. Default 60
     * seconds.
     *
     * @param timeout positive
     * @return this builder
     * @throws NullPointerException if {@code timeout} is null
     * @throws InvalidInputException if it is zero or negative
     */
    public Builder timeout(Duration timeout) {
      Objects.requireNonNull(timeout, "timeout");
      if (timeout.isNegative() || timeout.isZero()) {
        throw new InvalidInputException("timeout", "must be positive, was " + timeout);
      }
      this.timeout = timeout;
      return this;
    }

    /**
     * The most texts sent in one request, 1..2048. Default 64.
     *
     * @param batchSize texts per request, 1..2048
     * @return this builder
     * @throws InvalidInputException if it is out of range
     */
    public Builder batchSize(int batchSize) {
      if (batchSize < 1 || batchSize > 2048) {
        throw new InvalidInputException("batchSize", "must be between 1 and 2048, was " + batchSize);
      }
      this.batchSize = batchSize;
      return this;
    }

    /**
     * Requests per batch at most, the first one included, 1..10 (the LLM reasoner's option of the same
     * name). Default 3: two retries after a retryable failure.
     *
     * @param maxAttempts requests per batch, 1..10
     * @return this builder
     * @throws InvalidInputException if it is out of range
     */
    public Builder maxAttempts(int maxAttempts) {
      if (maxAttempts < 1 || maxAttempts > RetryingHttp.MAX_ATTEMPTS) {
        throw new InvalidInputException("maxAttempts", "must be between 1 and 10, was " + maxAttempts);
      }
      this.maxAttempts = maxAttempts;
      return this;
    }

    /**
     * The wait before the first retry, doubled for each further one. Default 500 ms.
     *
     * @param retryBackoff the first wait, between 0 and 30 seconds
     * @return this builder
     * @throws NullPointerException if {@code retryBackoff} is null
     * @throws InvalidInputException if it is negative or longer than 30 seconds
     */
    public Builder retryBackoff(Duration retryBackoff) {
      Objects.requireNonNull(retryBackoff, "retryBackoff");
      if (retryBackoff.isNegative() || retryBackoff.compareTo(MAX_RETRY_DELAY) > 0) {
        throw new InvalidInputException("retryBackoff", "must be between 0 and 30 s, was " + retryBackoff);
      }
      this.retryBackoff = retryBackoff;
      return this;
    }

    /**
     * The longest one {@link OpenAiCompatibleEmbedder#embed} call may take, every batch, attempt and wait
     * included (the LLM reasoner's option of the same name): an attempt waits at most for what is left of
     * it, and a retry that would pass it is not made. Default {@link #DEFAULT_DEADLINE}, 5 minutes; at
     * most 1 hour.
     *
     * @param deadline between 1 ms and 1 hour
     * @return this builder
     * @throws InvalidInputException if it is out of range
     * @throws NullPointerException if {@code deadline} is null
     */
    public Builder deadline(Duration deadline) {
      Objects.requireNonNull(deadline, "deadline");
      if (deadline.isNegative() || deadline.isZero() || deadline.compareTo(Duration.ofHours(1)) > 0) {
        throw new InvalidInputException("deadline", "must be between 1 ms and 1 hour, was " + deadline);
      }
      this.deadline = deadline;
      return this;
    }

    /**
     * The largest successful answer accepted, in bytes (at least 1024). Default 64 MiB.
     *
     * @param maxResponseBytes at least 1024
     * @return this builder
     * @throws InvalidInputException if it is below 1024
     */
    public Builder maxResponseBytes(long maxResponseBytes) {
      if (maxResponseBytes < 1024) {
        throw new InvalidInputException("maxResponseBytes", "must be at least 1024, was " + maxResponseBytes);
      }
      this.maxResponseBytes = maxResponseBytes;
      return this;
    }

    /**
     * An extra header sent with every request, e.g. {@code OpenAI-Organization} or a gateway's own
     * key header. Its value never appears in messages.
     *
     * @param name the header name; {@code Authorization} and {@code Content-Type} are set by the embedder
     * @param value the header value
     * @return this builder
     * @throws NullPointerException if {@code name} or {@code value} is null
     * @throws InvalidInputException if the header is one the embedder sets, or the name or value cannot be
     *     sent over HTTP
     */
    public Builder header(String name, String value) {
      Objects.requireNonNull(name, "header name");
      Objects.requireNonNull(value, "header value");
      if (name.equalsIgnoreCase("Authorization") || name.equalsIgnoreCase("Content-Type")) {
        throw new InvalidInputException("header", name + " is set by the embedder; use apiKey for Authorization");
      }
      try {
        HttpRequest.newBuilder().header(name, value);
      } catch (IllegalArgumentException e) {
        String reason = String.valueOf(e.getMessage());
        throw new InvalidInputException(
            "header", name + " cannot be sent: " + (value.isEmpty() ? reason : reason.replace(value, "[value]")));
      }
      headers.put(name, value);
      return this;
    }

    /**
     * The client to send requests with, e.g. one with a proxy or custom TLS. By default each embedder
     * builds its own, with a connect timeout of {@link #timeout} and no redirects.
     *
     * @param httpClient the client; the embedder never closes it
     * @return this builder
     * @throws NullPointerException if {@code httpClient} is null
     */
    public Builder httpClient(HttpClient httpClient) {
      this.httpClient = Objects.requireNonNull(httpClient, "httpClient");
      return this;
    }

    /**
     * @return a new embedder with a snapshot of the settings
     * @throws IllegalStateException if baseUrl, model or dimension was not set
     */
    public OpenAiCompatibleEmbedder build() {
      if (baseUrl == null) {
        throw new IllegalStateException("baseUrl is not set");
      }
      if (model == null) {
        throw new IllegalStateException("model is not set");
      }
      if (dimension == 0) {
        throw new IllegalStateException("dimension is not set");
      }
      return new OpenAiCompatibleEmbedder(this, endpointOf(baseUrl), model);
    }

    private static URI endpointOf(String baseUrl) {
      String trimmed = baseUrl.strip();
      while (trimmed.endsWith("/")) {
        trimmed = trimmed.substring(0, trimmed.length() - 1);
      }
      URI base;
      try {
        base = new URI(trimmed);
      } catch (URISyntaxException e) {
        throw new InvalidInputException(
            "baseUrl", "is not a valid URL: " + e.getReason() + " at index " + e.getIndex());
      }
      String scheme = base.getScheme();
      if (scheme == null || !(scheme.equalsIgnoreCase("http") || scheme.equalsIgnoreCase("https"))) {
        throw new InvalidInputException("baseUrl", "must be an http:// or https:// URL");
      }
      if (base.getHost() == null) {
        throw new InvalidInputException("baseUrl", "has no host");
      }
      if (base.getRawUserInfo() != null || base.getRawQuery() != null || base.getRawFragment() != null) {
        throw new InvalidInputException("baseUrl", "must not carry user info, a query or a fragment");
      }
      return URI.create(trimmed + "/embeddings");
    }
  }
}
