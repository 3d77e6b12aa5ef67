/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.reasoner.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.InvalidInputException;
import dev.engram.spi.TagRequest;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Transport failures and hostile answers, in both formats: each a typed error with a precise message. */
class RobustnessTest {
  private static final String KEY = WireFormatTest.KEY;
  private final ModelServer server = ModelServer.start();
  private final List<ModelUsage> usage = new CopyOnWriteArrayList<>();

  @AfterEach
  void stop() {
    server.close();
  }

  LlmReasoner reasoner(Provider p, int attempts, Duration timeout) {
    ModelConfig c = p == Provider.ANTHROPIC
        ? ModelConfig.anthropic("m").baseUrl(server.anthropicBaseUrl()).apiKey(KEY)
        : ModelConfig.openAiCompatible("m").baseUrl(server.openAiBaseUrl()).apiKey(KEY);
    return LlmReasoner.builder().tagger(c).maxAttempts(attempts).timeout(timeout)
        .retryBackoff(Duration.ofMillis(1)).usageListener(usage::add).environment(Map.of()).build();
  }

  LlmReasoner reasoner(Provider p) {
    return reasoner(p, 3, Duration.ofSeconds(5));
  }

  static TagRequest request() {
    return WireFormatTest.request("Likes jazz.", WireFormatTest.entry("E1", "Enjoys jazz music.", "music"));
  }

  static LlmException failure(LlmReasoner r) {
    try {
      r.tag(request());
    } catch (LlmException e) {
      assertThat(e.getMessage()).doesNotContain(KEY).doesNotContain("SECRET");
      return e;
    }
    throw new AssertionError("tag did not fail");
  }

  @ParameterizedTest
  @EnumSource(Provider.class)
  void rateLimitedThenOkIsRetriedHonouringRetryAfterAndCountsAttempts(Provider p) {
    server.enqueue(ModelServer.Reply.error(429, "slow down").withHeader("Retry-After", "0.2"));
    server.enqueue(ModelServer.Reply.answer(WireFormatTest.tagAnswer("app/user/u1", "Likes jazz.", "null")));
    long start = System.nanoTime();
    assertThat(reasoner(p).tag(request()).content()).isEqualTo("Likes jazz.");
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(200));
    assertThat(server.requests()).hasSize(2);
    assertThat(usage).singleElement().satisfies(u -> assertThat(u.attempts()).isEqualTo(2));
  }

  @ParameterizedTest
  @EnumSource(Provider.class)
  void serverErrorsStopAfterMaxAttempts(Provider p) {
    server.otherwise(r -> ModelServer.Reply.error(503, "overloaded"));
    LlmException e = failure(reasoner(p, 3, Duration.ofSeconds(5)));
    assertThat(e.kind()).isEqualTo(LlmException.Kind.HTTP_ERROR);
    assertThat(e.getMessage()).contains("HTTP 503").contains("overloaded").contains("attempt 3 of 3");
    assertThat(server.requests()).hasSize(3);
    assertThat(usage).isEmpty();
  }

  @ParameterizedTest
  @EnumSource(Provider.class)
  void aRetryAfterBeyondTheCapEndsTheRetries(Provider p) {
    server.otherwise(r -> ModelServer.Reply.error(429, "quota").withHeader("Retry-After", "3600"));
    LlmException e = failure(reasoner(p));
    assertThat(e.kind()).isEqualTo(LlmException.Kind.RATE_LIMITED);
    assertThat(e.getMessage()).contains("asked to wait 3600 s");
    assertThat(server.requests()).hasSize(1);
  }

  @ParameterizedTest
  @EnumSource(Provider.class)
  void unauthorizedIsNotRetriedAndNeverShowsTheKey(Provider p) {
    server.otherwise(r -> ModelServer.Reply.error(401, "Incorrect API key provided: " + KEY));
    LlmException e = failure(reasoner(p));
    assertThat(e.kind()).isEqualTo(LlmException.Kind.UNAUTHORIZED);
    assertThat(e.getMessage()).contains("HTTP 401").contains("***")
        .contains(p == Provider.ANTHROPIC ? "ANTHROPIC_API_KEY" : "OPENAI_API_KEY");
    assertThat(server.requests()).hasSize(1);
  }

  /** A key with characters that JSON escaping and URL encoding spell differently. */
  private static final String SLASHED_KEY = "sk-proj-AbCd/EfGh+IjKl=MnOp/QrSt0123456789";

  enum Echo {
    PREFIX, JSON_ESCAPED, URL_ENCODED
  }

  @ParameterizedTest
  @EnumSource(Echo.class)
  void noLongPieceOfTheKeyReachesAMessageInAnySpelling(Echo echo) {
    String k = SLASHED_KEY;
    for (Provider p : Provider.values()) {
      server.reset().otherwise(r -> switch (echo) {
        case PREFIX -> ModelServer.Reply.error(401, "Invalid key: " + k.substring(0, 32) + "…");
        case JSON_ESCAPED -> ModelServer.Reply.raw(401, "text/plain", "proxy refused {\"key\": \"" + k.replace("/", "\\/") + "\"");
        case URL_ENCODED -> ModelServer.Reply.raw(502, "text/plain", "upstream /v1?api_key="
            + java.net.URLEncoder.encode(k, java.nio.charset.StandardCharsets.UTF_8) + " failed");
      });
      ModelConfig c = p == Provider.ANTHROPIC
          ? ModelConfig.anthropic("m").baseUrl(server.anthropicBaseUrl()).apiKey(k)
          : ModelConfig.openAiCompatible("m").baseUrl(server.openAiBaseUrl()).apiKey(k);
      LlmReasoner r = LlmReasoner.builder().tagger(c).maxAttempts(1).environment(Map.of()).build();
      String message = assertThrowsLlm(() -> r.tag(request())).getMessage();
      assertThat(message).as(p + " " + echo).contains("***");
      for (int i = 0; i + 8 <= k.length(); i++) {
        String piece = k.substring(i, i + 8);
        assertThat(message).as(p + " " + echo).doesNotContain(piece).doesNotContain(piece.replace("/", "\\/"))
            .doesNotContain(java.net.URLEncoder.encode(piece, java.nio.charset.StandardCharsets.UTF_8));
      }
    }
  }

  @ParameterizedTest
  @EnumSource(Provider.class)
  void forbiddenIsUnauthorized(Provider p) {
    server.otherwise(r -> ModelServer.Reply.error(403, "no access to model"));
    assertThat(failure(reasoner(p)).kind()).isEqualTo(LlmException.Kind.UNAUTHORIZED);
  }

  @ParameterizedTest
  @EnumSource(Provider.class)
  void anHtmlBadGatewayPageIsRetriedThenReported(Provider p) {
    server.otherwise(r -> ModelServer.Reply.html(502));
    LlmException e = failure(reasoner(p, 2, Duration.ofSeconds(5)));
    assertThat(e.kind()).isEqualTo(LlmException.Kind.HTTP_ERROR);
    assertThat(e.getMessage()).contains("HTTP 502").contains("HTML page").doesNotContain("<html");
    assertThat(server.requests()).hasSize(2);
  }

  @ParameterizedTest
  @EnumSource(Provider.class)
  void anHtmlPageWithStatus200IsNotJson(Provider p) {
    server.otherwise(r -> ModelServer.Reply.html(200));
    LlmException e = failure(reasoner(p));
    assertThat(e.kind()).isEqualTo(LlmException.Kind.NOT_JSON);
    assertThat(e.getMessage()).contains("HTML page instead of JSON");
  }

  @ParameterizedTest
  @EnumSource(Provider.class)
  void truncatedOutputIsTruncated(Provider p) {
    server.enqueue(ModelServer.Reply.truncated(
        json(WireFormatTest.tagAnswer("app/user/u1", "Likes jazz.", "null"))));
    LlmException e = failure(reasoner(p));
    assertThat(e.kind()).isEqualTo(LlmException.Kind.TRUNCATED);
    assertThat(e.getMessage()).contains(p == Provider.ANTHROPIC ? "max_tokens" : "finish_reason: length");
  }

  @ParameterizedTest
  @EnumSource(Provider.class)
  void aRefusalIsRefused(Provider p) {
    server.enqueue(ModelServer.Reply.refusal());
    assertThat(failure(reasoner(p)).kind()).isEqualTo(LlmException.Kind.REFUSED);
  }

  @ParameterizedTest
  @EnumSource(Provider.class)
  void proseInsteadOfJsonIsNotJson(Provider p) {
    server.enqueue(ModelServer.Reply.text("Sure! I filed it under music."));
    LlmException e = failure(reasoner(p));
    assertThat(e.kind()).isEqualTo(LlmException.Kind.NOT_JSON);
    assertThat(e.getMessage()).contains("not JSON");
  }

  @ParameterizedTest
  @EnumSource(Provider.class)
  void aHangingServerTimesOutOnEveryAttempt(Provider p) {
    server.otherwise(r -> ModelServer.Reply.hanging());
    long start = System.nanoTime();
    LlmException e = failure(reasoner(p, 2, Duration.ofMillis(300)));
    assertThat(e.kind()).isEqualTo(LlmException.Kind.TIMEOUT);
    assertThat(e.getMessage()).contains("within 300 ms").contains("attempt 2 of 2");
    assertThat(server.requests()).hasSize(2);
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
  }

  @ParameterizedTest
  @EnumSource(Provider.class)
  void oneDeadlineBoundsEveryAttemptOfAnOperation(Provider p) {
    server.otherwise(r -> ModelServer.Reply.hanging());
    ModelConfig c = p == Provider.ANTHROPIC
        ? ModelConfig.anthropic("m").baseUrl(server.anthropicBaseUrl()).apiKey(KEY)
        : ModelConfig.openAiCompatible("m").baseUrl(server.openAiBaseUrl()).apiKey(KEY);
    // three attempts of 10 s each would take 30 s; the operation's deadline is 600 ms
    LlmReasoner r = LlmReasoner.builder().tagger(c).timeout(Duration.ofSeconds(10)).maxAttempts(3)
        .retryBackoff(Duration.ofMillis(1)).deadline(Duration.ofMillis(600)).environment(Map.of()).build();
    long start = System.nanoTime();
    LlmException e = failure(r);
    Duration took = Duration.ofNanos(System.nanoTime() - start);
    assertThat(e.kind()).isEqualTo(LlmException.Kind.TIMEOUT);
    assertThat(e.getMessage()).contains("deadline of 600 ms");
    assertThat(took).isGreaterThanOrEqualTo(Duration.ofMillis(500)).isLessThan(Duration.ofSeconds(4));
  }

  @ParameterizedTest
  @EnumSource(Provider.class)
  void aRetryWhoseWaitWouldPassTheDeadlineIsNotMade(Provider p) {
    server.otherwise(r -> ModelServer.Reply.error(503, "overloaded"));
    ModelConfig c = p == Provider.ANTHROPIC
        ? ModelConfig.anthropic("m").baseUrl(server.anthropicBaseUrl()).apiKey(KEY)
        : ModelConfig.openAiCompatible("m").baseUrl(server.openAiBaseUrl()).apiKey(KEY);
    LlmReasoner r = LlmReasoner.builder().tagger(c).maxAttempts(3).retryBackoff(Duration.ofSeconds(5))
        .deadline(Duration.ofSeconds(2)).environment(Map.of()).build();
    long start = System.nanoTime();
    LlmException e = failure(r);
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(2));
    assertThat(e.kind()).isEqualTo(LlmException.Kind.HTTP_ERROR);
    assertThat(e.getMessage()).contains("HTTP 503").contains("would pass the deadline of 2000 ms");
    assertThat(server.requests()).hasSize(1);
  }

  @Test
  void theDefaultDeadlineIsWellUnderAMinuteAndInvalidOnesAreRefused() {
    assertThat(LlmReasoner.DEFAULT_DEADLINE).isEqualTo(Duration.ofSeconds(20));
    assertThatThrownBy(() -> LlmReasoner.builder().deadline(Duration.ZERO))
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("deadline");
    assertThatThrownBy(() -> LlmReasoner.builder().deadline(Duration.ofMinutes(11)))
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("deadline");
  }

  @Test
  void connectionResetsAreRetriedAndReported() throws IOException {
    AtomicInteger accepted = new AtomicInteger();
    try (ServerSocket socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
      Thread acceptor = new Thread(() -> {
        while (!socket.isClosed()) {
          try (Socket s = socket.accept()) {
            accepted.incrementAndGet();
            s.setSoLinger(true, 0);
          } catch (IOException e) {
            return;
          }
        }
      });
      acceptor.setDaemon(true);
      acceptor.start();
      LlmReasoner r = LlmReasoner.builder()
          .tagger(ModelConfig.openAiCompatible("m").baseUrl("http://127.0.0.1:" + socket.getLocalPort() + "/v1"))
          .maxAttempts(3).retryBackoff(Duration.ofMillis(1)).environment(Map.of()).build();
      LlmException e = failure(r);
      assertThat(e.kind()).isEqualTo(LlmException.Kind.CONNECTION);
      assertThat(e.getMessage()).contains("attempt 3 of 3");
      assertThat(accepted.get()).as("the JDK client may retry a reset itself").isGreaterThanOrEqualTo(3);
    }
  }

  // ---- hostile answers to tag

  @ParameterizedTest
  @EnumSource(Provider.class)
  void aNamespaceOutsideTheGrantsIsRejected(Provider p) {
    server.enqueue(ModelServer.Reply.answer(WireFormatTest.tagAnswer("app/admin", "Likes jazz.", "null")));
    LlmException e = failure(reasoner(p));
    assertThat(e.kind()).isEqualTo(LlmException.Kind.INVALID_ANSWER);
    assertThat(e.getMessage()).contains("namespace 'app/admin' is not one of the 2 granted namespaces");
  }

  @ParameterizedTest
  @EnumSource(Provider.class)
  void aDuplicateThatWasNotShownIsRejected(Provider p) {
    server.enqueue(ModelServer.Reply.answer(WireFormatTest.tagAnswer("app/user/u1", "Likes jazz.", "\"E1\"")));
    LlmException e = failure(reasoner(p));
    assertThat(e.getMessage()).contains("duplicate_of 'E1' is not one of the 1 candidates shown");
  }

  @ParameterizedTest
  @EnumSource(Provider.class)
  void tenThousandTopicsAreRejected(Provider p) {
    ObjectNode a = json(WireFormatTest.tagAnswer("app/user/u1", "Likes jazz.", "null"));
    ArrayNode topics = a.putArray("topics");
    for (int i = 0; i < 10_000; i++) {
      topics.add("t" + i);
    }
    server.enqueue(ModelServer.Reply.answer(a));
    assertThat(failure(reasoner(p)).getMessage()).contains("10000 topics; the limit is 8");
  }

  @ParameterizedTest
  @EnumSource(Provider.class)
  void aWrongEnumIsRejected(Provider p) {
    ObjectNode a = json(WireFormatTest.tagAnswer("app/user/u1", "Likes jazz.", "null"));
    a.put("type", "opinion");
    server.enqueue(ModelServer.Reply.answer(a));
    assertThat(failure(reasoner(p)).getMessage()).contains("type 'opinion' is not one of");
  }

  @ParameterizedTest
  @EnumSource(Provider.class)
  void inventedFactsAreRejected(Provider p) {
    server.enqueue(ModelServer.Reply.answer(WireFormatTest.tagAnswer("app/user/u1", "Likes jazz since 1998.", "null")));
    server.enqueue(ModelServer.Reply.answer(WireFormatTest.tagAnswer("app/user/u1", "Likes jazz, like Miles.", "null")));
    server.enqueue(ModelServer.Reply.answer(WireFormatTest.tagAnswer("app/user/u1",
        "Likes jazz. " + "They also like many other kinds of music and go to concerts every week. ".repeat(2), "null")));
    LlmReasoner r = reasoner(p);
    assertThat(failure(r).getMessage()).contains("adds the number 1998");
    assertThat(failure(r).getMessage()).contains("adds the name 'Miles'");
    assertThat(failure(r).getMessage()).contains("a rewording of its source may take");
  }

  @ParameterizedTest
  @EnumSource(Provider.class)
  void missingFieldsAndWrongTypesAreRejected(Provider p) {
    server.enqueue(ModelServer.Reply.answer("{\"namespace\":\"app/user/u1\",\"topics\":\"music\",\"type\":\"fact\","
        + "\"content\":\"Likes jazz.\",\"duplicate_of\":null}"));
    server.enqueue(ModelServer.Reply.answer("{\"namespace\":\"app/user/u1\",\"topics\":[\"music\"],\"type\":\"fact\"}"));
    LlmReasoner r = reasoner(p);
    assertThat(failure(r).getMessage()).contains("\"topics\" is string, expected an array");
    assertThat(failure(r).getMessage()).contains("\"content\" is missing");
  }

  // ---- keys and configuration

  @Test
  void withoutAKeyBuildingSucceedsAndTheFirstCallNamesTheVariable() {
    LlmReasoner r = LlmReasoner.fromEnvironment(Map.of());
    LlmException e = assertThrowsLlm(() -> r.tag(request()));
    assertThat(e.kind()).isEqualTo(LlmException.Kind.MISSING_KEY);
    assertThat(e.getMessage()).contains("set OPENAI_API_KEY");

    LlmReasoner a = LlmReasoner.fromEnvironment(Map.of("ENGRAM_LLM_PROVIDER", "anthropic"));
    assertThat(assertThrowsLlm(() -> a.tag(request())).getMessage()).contains("set ANTHROPIC_API_KEY");
  }

  @Test
  void aLocalBaseUrlNeedsNoKeyAndSendsNone() {
    server.enqueue(ModelServer.Reply.answer(WireFormatTest.tagAnswer("app/user/u1", "Likes jazz.", "null")));
    LlmReasoner r = LlmReasoner.fromEnvironment(Map.of("OPENAI_BASE_URL", server.openAiBaseUrl(),
        "ENGRAM_LLM_MODEL", "llama3.1"));
    assertThat(r.tag(request()).content()).isEqualTo("Likes jazz.");
    assertThat(server.last().header("Authorization")).isNull();
    assertThat(server.last().body().path("model").asText()).isEqualTo("llama3.1");
  }

  @Test
  void fromEnvironmentPicksTheProviderWhoseKeyIsSet() {
    server.otherwise(r -> ModelServer.Reply.answer(WireFormatTest.tagAnswer("app/user/u1", "Likes jazz.", "null")));
    LlmReasoner a = LlmReasoner.fromEnvironment(Map.of("ANTHROPIC_API_KEY", KEY,
        "ANTHROPIC_BASE_URL", server.anthropicBaseUrl()));
    a.tag(request());
    assertThat(server.last().path()).isEqualTo("/v1/messages");
    assertThat(server.last().header("x-api-key")).isEqualTo(KEY);
    assertThat(server.last().body().path("model").asText()).isEqualTo(LlmReasoner.DEFAULT_ANTHROPIC_MODEL);

    LlmReasoner o = LlmReasoner.fromEnvironment(Map.of("ANTHROPIC_API_KEY", "other", "OPENAI_API_KEY", KEY,
        "OPENAI_BASE_URL", server.openAiBaseUrl()));
    o.tag(request());
    assertThat(server.last().path()).isEqualTo("/v1/chat/completions");
    assertThat(server.last().body().path("model").asText()).isEqualTo(LlmReasoner.DEFAULT_OPENAI_MODEL);
  }

  @Test
  void invalidSettingsFailFastNamingTheSetting() {
    assertThatThrownBy(() -> LlmReasoner.fromEnvironment(Map.of("ENGRAM_LLM_PROVIDER", "gemini")))
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("ENGRAM_LLM_PROVIDER");
    assertThatThrownBy(() -> LlmReasoner.fromEnvironment(Map.of("OPENAI_BASE_URL", "ftp://x")))
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("OPENAI_BASE_URL");
    assertThatThrownBy(() -> LlmReasoner.builder().build())
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("tagger");
    assertThatThrownBy(() -> LlmReasoner.builder().maxAttempts(0))
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("maxAttempts");
    assertThatThrownBy(() -> LlmReasoner.builder().timeout(Duration.ZERO))
        .isInstanceOf(InvalidInputException.class).hasMessageContaining("timeout");
  }

  @Test
  void localAddressesAreRecognisedWithoutResolvingNames() {
    assertThat(ModelConfig.openAiCompatible("m").baseUrl("http://localhost:11434/v1").isLocal()).isTrue();
    assertThat(ModelConfig.openAiCompatible("m").baseUrl("http://127.0.0.1:8000/v1").isLocal()).isTrue();
    assertThat(ModelConfig.openAiCompatible("m").baseUrl("http://192.168.1.20:1234/v1").isLocal()).isTrue();
    assertThat(ModelConfig.openAiCompatible("m").baseUrl("http://[::1]:8080/v1").isLocal()).isTrue();
    assertThat(ModelConfig.openAiCompatible("m").isLocal()).isFalse();
    assertThat(ModelConfig.openAiCompatible("m").baseUrl("https://openrouter.ai/api/v1").isLocal()).isFalse();
  }

  private static LlmException assertThrowsLlm(Runnable r) {
    try {
      r.run();
    } catch (LlmException e) {
      return e;
    }
    throw new AssertionError("no LlmException");
  }

  private static ObjectNode json(String s) {
    try {
      return (ObjectNode) new ObjectMapper().readTree(s);
    } catch (IOException e) {
      throw new IllegalArgumentException(e);
    }
  }
}
