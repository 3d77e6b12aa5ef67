/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.embeddings.http;

import static dev.engram.embeddings.http.FakeEmbeddingServer.correct;
import static dev.engram.embeddings.http.FakeEmbeddingServer.hang;
import static dev.engram.embeddings.http.FakeEmbeddingServer.huge;
import static dev.engram.embeddings.http.FakeEmbeddingServer.openAiError;
import static dev.engram.embeddings.http.FakeEmbeddingServer.reversed;
import static dev.engram.embeddings.http.FakeEmbeddingServer.stallAfterHeaders;
import static dev.engram.embeddings.http.FakeEmbeddingServer.status;
import static dev.engram.embeddings.http.FakeEmbeddingServer.vectorFor;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import dev.engram.ErrorCode;
import dev.engram.InvalidInputException;
import dev.engram.MemoryException;
import dev.engram.embeddings.http.FakeEmbeddingServer.Received;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class OpenAiCompatibleEmbedderTest {

  private static final String KEY = "sk-test-0123456789abcdef";
  private static final int DIM = 4;

  private FakeEmbeddingServer server;

  @BeforeEach
  void startServer() throws IOException {
    server = FakeEmbeddingServer.start(DIM);
  }

  @AfterEach
  void stopServer() {
    server.close();
  }

  private OpenAiCompatibleEmbedder.Builder builder() {
    return OpenAiCompatibleEmbedder.builder()
        .baseUrl(server.baseUrl())
        .apiKey(KEY)
        .model("text-embedding-3-small")
        .dimension(DIM)
        .retryBackoff(Duration.ofMillis(1))
        .timeout(Duration.ofSeconds(5));
  }

  private static EmbeddingException failure(ThrowingCallable call) {
    EmbeddingException e = catchThrowableOfType(EmbeddingException.class, call);
    assertThat(e).as("an EmbeddingException").isNotNull();
    return e;
  }

  private static void assertVectors(List<float[]> vectors, List<String> texts) {
    assertThat(vectors).hasSameSizeAs(texts);
    for (int i = 0; i < texts.size(); i++) {
      assertThat(vectors.get(i)).as("vector %d", i).containsExactly(vectorFor(texts.get(i), DIM));
    }
  }

  // success

  @Test
  void postsTheOpenAiRequestAndReturnsOneVectorPerText() {
    OpenAiCompatibleEmbedder embedder = builder().build();
    List<String> texts = List.of("Prefers metric units.", "Lives in Berlin.");

    List<float[]> vectors = embedder.embed(texts);

    assertVectors(vectors, texts);
    assertThat(server.requests()).hasSize(1);
    Received request = server.requests().get(0);
    assertThat(request.method()).isEqualTo("POST");
    assertThat(request.path()).isEqualTo("/v1/embeddings");
    assertThat(request.header("Authorization")).isEqualTo("Bearer " + KEY);
    assertThat(request.header("Content-Type")).isEqualTo("application/json");
    JsonNode body = request.body();
    assertThat(body).isNotNull();
    assertThat(body.get("model").asText()).isEqualTo("text-embedding-3-small");
    assertThat(request.input()).isEqualTo(texts);
    assertThat(body.get("encoding_format").asText()).isEqualTo("float");
    assertThat(body.has("dimensions")).isFalse();
    assertThat(embedder.profile().id()).isEqualTo("text-embedding-3-small@4");
    assertThat(embedder.endpoint()).hasToString(server.baseUrl() + "/embeddings");
  }

  @Test
  void toleratesTrailingSlashesAndSendsNoAuthorizationWithoutKey() {
    OpenAiCompatibleEmbedder embedder =
        OpenAiCompatibleEmbedder.builder().baseUrl(server.baseUrl() + "//").model("nomic-embed-text").dimension(DIM).build();

    assertVectors(embedder.embed(List.of("hello")), List.of("hello"));

    Received request = server.requests().get(0);
    assertThat(request.path()).isEqualTo("/v1/embeddings");
    assertThat(request.header("Authorization")).isNull();
  }

  @Test
  void asksForTheDimensionWhenTold() {
    OpenAiCompatibleEmbedder embedder = builder().requestDimensions(true).build();

    embedder.embed(List.of("hello"));

    assertThat(server.requests().get(0).body().get("dimensions").asInt()).isEqualTo(DIM);
  }

  @Test
  void sendsExtraHeaders() {
    builder().header("OpenAI-Organization", "org-42").build().embed(List.of("hello"));

    assertThat(server.requests().get(0).header("OpenAI-Organization")).isEqualTo("org-42");
  }

  @Test
  void splitsTextsIntoBatchesAndKeepsTheirOrder() {
    List<String> texts = List.of("a", "b", "c", "d", "e");

    List<float[]> vectors = builder().batchSize(2).build().embed(texts);

    assertVectors(vectors, texts);
    assertThat(server.requests()).extracting(Received::input)
        .containsExactly(List.of("a", "b"), List.of("c", "d"), List.of("e"));
  }

  @Test
  void ordersVectorsByIndexNotByPosition() {
    server.then(reversed());
    List<String> texts = List.of("first", "second", "third");

    assertVectors(builder().build().embed(texts), texts);
  }

  @Test
  void emptyListSendsNothing() {
    assertThat(builder().build().embed(List.of())).isEmpty();
    assertThat(server.requests()).isEmpty();
  }

  @Test
  void rejectsNullAndEmptyTextsBeforeSending() {
    OpenAiCompatibleEmbedder embedder = builder().build();

    assertThatThrownBy(() -> embedder.embed(null)).isInstanceOf(NullPointerException.class);
    assertThatThrownBy(() -> embedder.embed(Arrays.asList("a", null)))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("texts[1]");
    assertThatThrownBy(() -> embedder.embed(List.of("a", "")))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageContaining("texts: [1] is empty");
    assertThat(server.requests()).isEmpty();
  }

  @Test
  void concurrentCallersEachGetTheirOwnVectors() throws Exception {
    OpenAiCompatibleEmbedder embedder = builder().batchSize(3).build();
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<?>> calls = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        List<String> texts = List.of("t" + t + "a", "t" + t + "b", "t" + t + "c", "t" + t + "d");
        calls.add(pool.submit(() -> assertVectors(embedder.embed(texts), texts)));
      }
      for (Future<?> call : calls) {
        call.get();
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(server.requests()).hasSize(16);
  }

  // error statuses and retries

  @Test
  void errorStatusCarriesTheServersMessageAndIsNotRetried() {
    server.then(openAiError(400, "'$.input' is invalid.", "invalid_request_error"));

    EmbeddingException e =
        failure(() -> builder().build().embed(List.of("a")));

    assertThat(e.code()).isEqualTo(ErrorCode.REASONER_FAILED);
    assertThat(e.httpStatus()).hasValue(400);
    assertThat(e).hasMessage(
        "POST " + server.baseUrl() + "/embeddings answered HTTP 400: '$.input' is invalid. (type: invalid_request_error)");
    assertThat(server.requests()).hasSize(1);
  }

  @Test
  void theApiKeyNeverAppearsInMessagesEvenWhenTheServerEchoesIt() {
    server.then(openAiError(401, "Incorrect API key provided: " + KEY + ".", "invalid_request_error"));
    OpenAiCompatibleEmbedder embedder = builder().build();

    EmbeddingException e = failure(() -> embedder.embed(List.of("a")));

    assertThat(e.httpStatus()).hasValue(401);
    assertThat(e.getMessage()).contains("Incorrect API key provided: ***.").doesNotContain(KEY);
    assertThat(embedder.toString()).doesNotContain(KEY);
  }

  /** A key with characters that JSON escaping and URL encoding spell differently. */
  private static final String SLASHED_KEY = "sk-proj-AbCd/EfGh+IjKl=MnOp/QrSt0123456789";

  static Stream<Arguments> keyEchoes() {
    String k = SLASHED_KEY;
    return Stream.of(
        Arguments.of("a 32-character prefix",
            openAiError(401, "Invalid key: " + k.substring(0, 32) + "…", "invalid_request_error")),
        Arguments.of("the key JSON-escaped in a body that is not JSON",
            status(401, "proxy refused {\"key\": \"" + k.replace("/", "\\/") + "\"")),
        Arguments.of("the key URL-encoded",
            status(403, "<html>denied: /v1/embeddings?api_key="
                + java.net.URLEncoder.encode(k, java.nio.charset.StandardCharsets.UTF_8) + "</html>")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("keyEchoes")
  void noLongPieceOfTheKeyReachesAMessageInAnySpelling(String echo, FakeEmbeddingServer.Answer answer) {
    server.then(answer);
    EmbeddingException e = failure(() -> builder().apiKey(SLASHED_KEY).maxAttempts(1).build().embed(List.of("a")));
    assertThat(e.getMessage()).contains("***");
    for (int i = 0; i + 8 <= SLASHED_KEY.length(); i++) {
      String piece = SLASHED_KEY.substring(i, i + 8);
      assertThat(e.getMessage()).as(echo).doesNotContain(piece).doesNotContain(piece.replace("/", "\\/"))
          .doesNotContain(java.net.URLEncoder.encode(piece, java.nio.charset.StandardCharsets.UTF_8));
    }
  }

  @Test
  void nonJsonErrorBodyIsQuotedOnOneLine() {
    server.then(status(502, "<html>\n<h1>502 Bad Gateway</h1>\n</html>"));

    EmbeddingException e =
        failure(() -> builder().maxAttempts(1).build().embed(List.of("a")));

    assertThat(e.httpStatus()).hasValue(502);
    assertThat(e.getMessage()).endsWith("answered HTTP 502: <html> <h1>502 Bad Gateway</h1> </html>");
  }

  @Test
  void hugeErrorBodyIsCutShort() {
    server.then(huge(500, 2_000_000, false));

    EmbeddingException e =
        failure(() -> builder().maxAttempts(1).build().embed(List.of("a")));

    assertThat(e.httpStatus()).hasValue(500);
    assertThat(e.getMessage()).hasSizeLessThan(500);
  }

  @Test
  void retriesRateLimitsAndServerErrorsThenSucceeds() {
    server.then(
        openAiError(429, "Rate limit reached", "requests"),
        status(503, ""),
        correct());

    assertVectors(builder().maxAttempts(3).build().embed(List.of("a")), List.of("a"));
    assertThat(server.requests()).hasSize(3);
  }

  @Test
  void waitsAsLongAsRetryAfterAsks() {
    server.then((request, exchange, srv) -> {
      exchange.getResponseHeaders().set("Retry-After", "1");
      FakeEmbeddingServer.send(exchange, 429, "{\"error\":{\"message\":\"slow down\"}}");
    });

    long start = System.nanoTime();
    assertVectors(builder().maxAttempts(2).build().embed(List.of("a")), List.of("a"));

    assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofSeconds(1));
    assertThat(server.requests()).hasSize(2);
  }

  /** A retry whose wait would pass the deadline of the call is not made: one request, and the message says why. */
  @Test
  void aRetryThatWouldPassTheDeadlineIsNotMade() {
    server.then(status(503, "{\"error\":\"overloaded\"}"), correct());

    EmbeddingException e = failure(() -> builder().maxAttempts(3).retryBackoff(Duration.ofSeconds(2))
        .deadline(Duration.ofMillis(500)).build().embed(List.of("a")));

    assertThat(e.httpStatus()).hasValue(503);
    assertThat(e.getMessage()).contains("answered HTTP 503 (attempt 1 of 3): overloaded")
        .contains("would pass the deadline of 500 ms for the whole call");
    assertThat(server.requests()).hasSize(1);
  }

  /** A server asking for a longer wait than the client's bound ends the retries instead of being retried early. */
  @Test
  void aRetryAfterBeyondThirtySecondsEndsTheRetries() {
    server.then((request, exchange, srv) -> {
      exchange.getResponseHeaders().set("Retry-After", "120");
      FakeEmbeddingServer.send(exchange, 429, "{\"error\":{\"message\":\"slow down\"}}");
    }, correct());

    EmbeddingException e = failure(() -> builder().maxAttempts(3).build().embed(List.of("a")));

    assertThat(e.httpStatus()).hasValue(429);
    assertThat(e.getMessage()).contains("the server asked to wait 120 s, more than the 30 s this client waits");
    assertThat(server.requests()).hasSize(1);
  }

  @Test
  void givesUpAfterMaxAttempts() {
    server.then(status(503, "{}"), status(503, "{}"), status(503, "{\"error\":\"overloaded\"}"), correct());

    EmbeddingException e =
        failure(() -> builder().maxAttempts(3).build().embed(List.of("a")));

    assertThat(e.httpStatus()).hasValue(503);
    assertThat(e.getMessage()).contains("answered HTTP 503 (attempt 3 of 3): overloaded");
    assertThat(server.requests()).hasSize(3);
  }

  @Test
  void serverErrorInsideASuccessfulStatusIsReported() {
    server.then(status(200, "{\"error\":{\"message\":\"model not loaded\",\"type\":\"server_error\"}}"));

    EmbeddingException e = failure(() -> builder().build().embed(List.of("a")));

    assertThat(e.code()).isEqualTo(ErrorCode.REASONER_FAILED);
    assertThat(e.getMessage()).endsWith("answered HTTP 2xx with an error: model not loaded (type: server_error)");
  }

  // malformed and hostile answers

  static Stream<Arguments> malformedAnswers() {
    String a = item(0, "[0.1,0.2,0.3,0.4]");
    String b = item(1, "[0.5,0.6,0.7,0.8]");
    return Stream.of(
        Arguments.of("not JSON", "embeddings coming soon", "body is not JSON"),
        Arguments.of("empty body", "", "body is empty"),
        Arguments.of("top-level array", "[[0.1,0.2,0.3,0.4]]", "body is an array, expected an object"),
        Arguments.of("no data", "{\"object\":\"list\"}", "body has no \"data\" field"),
        Arguments.of("data not an array", "{\"data\":{}}", "\"data\" is an object, expected an array"),
        Arguments.of("too few vectors", list(a), "expected 2 embeddings for 2 inputs, got 1"),
        Arguments.of("too many vectors", list(a, b, item(2, "[1,1,1,1]")), "expected 2 embeddings for 2 inputs, got 3"),
        Arguments.of("item not an object", list(a, "7"), "data[1] is a number, expected an object"),
        Arguments.of("missing index", list(a, "{\"embedding\":[1,2,3,4]}"), "data[1].index is missing"),
        Arguments.of("index as string", list(a, "{\"index\":\"1\",\"embedding\":[1,2,3,4]}"), "data[1].index is not an integer: \"1\""),
        Arguments.of("fractional index", list(a, "{\"index\":1.5,\"embedding\":[1,2,3,4]}"), "data[1].index is not an integer: 1.5"),
        Arguments.of("index out of range", list(a, item(2, "[1,2,3,4]")), "data[1].index 2 is outside 0..1"),
        Arguments.of("negative index", list(item(-1, "[1,2,3,4]"), b), "data[0].index -1 is outside 0..1"),
        Arguments.of("duplicate index", list(a, item(0, "[1,2,3,4]")), "data[1].index 0 appears twice"),
        Arguments.of("missing embedding", list(a, "{\"index\":1}"), "data[1].embedding is missing"),
        Arguments.of("base64 embedding", list(a, "{\"index\":1,\"embedding\":\"AAAAAA==\"}"), "data[1].embedding is a string, expected an array of numbers"),
        Arguments.of("wrong dimension", list(a, item(1, "[1,2,3]")), "data[1].embedding has 3 values, expected 4"),
        Arguments.of("NaN as string", list(a, item(1, "[1,\"NaN\",3,4]")), "data[1].embedding[1] is a string, expected a number"),
        Arguments.of("NaN literal", list(a, item(1, "[1,NaN,3,4]")), "body is not JSON"),
        Arguments.of("null value", list(a, item(1, "[1,2,null,4]")), "data[1].embedding[2] is null, expected a number"),
        Arguments.of("boolean value", list(a, item(1, "[1,2,3,true]")), "data[1].embedding[3] is a boolean, expected a number"),
        Arguments.of("overflows a float", list(a, item(1, "[1,2,3,1e39]")), "data[1].embedding[3] is not a finite float: 1.0E39"),
        Arguments.of("overflows a double", list(a, item(1, "[1e400,2,3,4]")), "data[1].embedding[0] is not a finite float"),
        Arguments.of("truncated JSON", "{\"data\":[" + a + ",{\"index\":1,\"embedding\":[0.1,", "body is not JSON"));
  }

  private static String item(int index, String embedding) {
    return "{\"object\":\"embedding\",\"index\":" + index + ",\"embedding\":" + embedding + "}";
  }

  private static String list(String... items) {
    return "{\"object\":\"list\",\"data\":[" + String.join(",", items) + "],\"model\":\"m\"}";
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("malformedAnswers")
  void rejectsMalformedAnswersWithAPreciseMessage(String name, String body, String expected) {
    server.then(status(200, body));

    EmbeddingException e =
        failure(() -> builder().build().embed(List.of("a", "b")));

    assertThat(e).isInstanceOf(MemoryException.class);
    assertThat(e.code()).isEqualTo(ErrorCode.INVALID_MODEL_OUTPUT);
    assertThat(e.getMessage())
        .startsWith("POST " + server.baseUrl() + "/embeddings answered with an unusable body: ")
        .contains(expected);
    assertThat(e.httpStatus()).isEmpty();
    assertThat(server.requests()).as("malformed answers are not retried").hasSize(1);
  }

  @Test
  void rejectsBodiesOverTheLimitWhetherDeclaredOrStreamed() {
    OpenAiCompatibleEmbedder embedder = builder().maxResponseBytes(64 * 1024).build();
    server.then(huge(200, 10_000_000, true), huge(200, 10_000_000, false));

    for (int i = 0; i < 2; i++) {
      EmbeddingException e = failure(() -> embedder.embed(List.of("a")));
      assertThat(e.code()).isEqualTo(ErrorCode.INVALID_MODEL_OUTPUT);
      assertThat(e.getMessage()).endsWith("answered with a body over the limit of 65536 bytes");
    }
    assertThat(server.requests()).hasSize(2);
  }

  // timeouts and connection failures

  @Test
  void timesOutWhenTheServerSendsNothing() {
    server.then(hang());
    OpenAiCompatibleEmbedder embedder = builder().timeout(Duration.ofMillis(300)).maxAttempts(1).build();

    long start = System.nanoTime();
    EmbeddingException e = failure(() -> embedder.embed(List.of("a")));

    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(3));
    assertThat(e.code()).isEqualTo(ErrorCode.REASONER_FAILED);
    assertThat(e.getMessage()).isEqualTo("POST " + server.baseUrl() + "/embeddings timed out after 300 ms");
  }

  @Test
  void timesOutWhenTheBodyStalls() {
    server.then(stallAfterHeaders());
    OpenAiCompatibleEmbedder embedder = builder().timeout(Duration.ofMillis(300)).maxAttempts(1).build();

    long start = System.nanoTime();
    EmbeddingException e = failure(() -> embedder.embed(List.of("a")));

    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(3));
    assertThat(e.getMessage()).contains("timed out after 300 ms");
  }

  @Test
  void retriesAfterATimeout() {
    server.then(hang(), correct());

    List<float[]> vectors = builder().timeout(Duration.ofMillis(300)).maxAttempts(2).build().embed(List.of("a"));

    assertVectors(vectors, List.of("a"));
    assertThat(server.requests()).hasSize(2);
  }

  @Test
  void reportsAConnectionFailureAfterRetrying() throws IOException {
    String deadUrl;
    try (FakeEmbeddingServer gone = FakeEmbeddingServer.start(DIM)) {
      deadUrl = gone.baseUrl();
    }
    OpenAiCompatibleEmbedder embedder = builder().baseUrl(deadUrl).maxAttempts(2).build();

    EmbeddingException e = failure(() -> embedder.embed(List.of("a")));

    assertThat(e.code()).isEqualTo(ErrorCode.REASONER_FAILED);
    assertThat(e.getMessage()).startsWith("POST " + deadUrl + "/embeddings failed (attempt 2 of 2): ");
    assertThat(e.getCause()).isInstanceOf(IOException.class);
  }

  // builder

  @Test
  void builderNamesMissingSettings() {
    assertThatThrownBy(() -> OpenAiCompatibleEmbedder.builder().model("m").dimension(4).build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("baseUrl is not set");
    assertThatThrownBy(() -> OpenAiCompatibleEmbedder.builder().baseUrl("http://localhost/v1").dimension(4).build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("model is not set");
    assertThatThrownBy(() -> OpenAiCompatibleEmbedder.builder().baseUrl("http://localhost/v1").model("m").build())
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("dimension is not set");
  }

  @Test
  void builderRejectsBadValuesNamingTheSetting() {
    OpenAiCompatibleEmbedder.Builder b = OpenAiCompatibleEmbedder.builder();
    assertThatThrownBy(() -> b.baseUrl("ftp://example.com")).hasMessageStartingWith("baseUrl");
    assertThatThrownBy(() -> b.baseUrl("https://example.com/v1?key=x")).hasMessageStartingWith("baseUrl");
    assertThatThrownBy(() -> b.baseUrl("https://user:secret@example.com/v1"))
        .hasMessageStartingWith("baseUrl")
        .hasMessageNotContaining("secret");
    assertThatThrownBy(() -> b.baseUrl("not a url")).hasMessageStartingWith("baseUrl");
    assertThatThrownBy(() -> b.model(" ")).hasMessageStartingWith("model");
    assertThatThrownBy(() -> b.dimension(0)).hasMessageStartingWith("dimension");
    assertThatThrownBy(() -> b.batchSize(0)).hasMessageStartingWith("batchSize");
    assertThatThrownBy(() -> b.maxAttempts(0)).hasMessageStartingWith("maxAttempts");
    assertThatThrownBy(() -> b.maxAttempts(11)).hasMessageStartingWith("maxAttempts");
    assertThatThrownBy(() -> b.deadline(Duration.ZERO)).hasMessageStartingWith("deadline");
    assertThatThrownBy(() -> b.timeout(Duration.ZERO)).hasMessageStartingWith("timeout");
    assertThatThrownBy(() -> b.retryBackoff(Duration.ofMillis(-1))).hasMessageStartingWith("retryBackoff");
    assertThatThrownBy(() -> b.maxResponseBytes(10)).hasMessageStartingWith("maxResponseBytes");
    assertThatThrownBy(() -> b.apiKey(" ")).hasMessageStartingWith("apiKey");
    assertThatThrownBy(() -> b.apiKey(KEY + "\r\nX-Evil: 1"))
        .isInstanceOf(InvalidInputException.class)
        .hasMessageStartingWith("apiKey")
        .hasMessageNotContaining(KEY);
    assertThatThrownBy(() -> b.header("Authorization", "Bearer x")).hasMessageStartingWith("header: Authorization");
    assertThatThrownBy(() -> b.header("X-Key", "v\nInjected: 1"))
        .hasMessageStartingWith("header: X-Key")
        .hasMessageNotContaining("Injected");
  }
}
