/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.mcp;

import static dev.engram.mcp.MemoryMcpServerIT.awaitListening;
import static dev.engram.mcp.MemoryMcpServerIT.command;
import static dev.engram.mcp.MemoryMcpServerIT.freePort;
import static dev.engram.mcp.MemoryMcpServerIT.parse;
import static dev.engram.mcp.StdioTransportIT.toolCall;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged jar over HTTP, driven with raw requests as a hostile tenant would: oversized and
 * truncated bodies, too many requests at once, another token's session, bodies that are no JSON-RPC
 * request. One server for the class: a 64 KiB body limit, two concurrent requests per token.
 */
class HttpGuardIT {
  static final String TOKEN_A = "token-a-0123456789abcdef";
  static final String TOKEN_B = "token-b-0123456789abcdef";
  static final String TOKEN_CAROL = "token-carol-0123456789abc";
  static final String TOKEN_TEAM = "token-team-0123456789abcd";
  static final int LIMIT = 65536;
  static final String INIT = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
      + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}";
  static final String TOOLS_LIST = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}";
  @TempDir static Path dir;
  static Process server;
  static int port;
  static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(30)).build();

  @BeforeAll
  static void startServer() throws Exception {
    Path tokens = dir.resolve("tokens.txt");
    Files.writeString(tokens, """
        # operator tokens
        %s app/user/a
        %s app/user/b   # bob
        %s app/user/carol # not team/blue
        %s team/blue
        """.formatted(TOKEN_A, TOKEN_B, TOKEN_CAROL, TOKEN_TEAM));
    port = freePort();
    server = new ProcessBuilder(command("--store", "memory", "--http", String.valueOf(port), "--tokens", tokens.toString(),
        "--max-request-bytes", String.valueOf(LIMIT), "--max-concurrent-per-token", "2"))
        .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.INHERIT).start();
    awaitListening(port, server);
  }

  @AfterAll
  static void stopServer() throws InterruptedException {
    server.destroy();
    server.waitFor(20, TimeUnit.SECONDS);
  }

  static URI endpoint() {
    return URI.create("http://127.0.0.1:" + port + "/mcp");
  }

  static HttpRequest.Builder post(String token, String body) {
    return HttpRequest.newBuilder(endpoint()).timeout(Duration.ofSeconds(60))
        .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
        .header("Accept", "application/json, text/event-stream").POST(HttpRequest.BodyPublishers.ofString(body));
  }

  static HttpResponse<String> send(HttpRequest.Builder request) throws Exception {
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }

  /** Opens a session under the token: initialize, then the initialized notification; returns its id. */
  static String session(String token) throws Exception {
    HttpResponse<String> init = send(post(token, INIT));
    assertThat(init.statusCode()).isEqualTo(200);
    String id = init.headers().firstValue("Mcp-Session-Id").orElseThrow();
    assertThat(send(post(token, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}")
        .header("Mcp-Session-Id", id)).statusCode()).isEqualTo(202);
    return id;
  }

  /** The JSON-RPC object in a response body, plain or as the data of a server-sent event. */
  static JsonNode rpc(String body) {
    int data = body.indexOf("data:");
    return parse(data < 0 ? body : body.substring(data + 5, body.indexOf('\n', data) < 0 ? body.length() : body.indexOf('\n', data)).strip());
  }

  /** An error answer that is short, a JSON-RPC error object, and says nothing of the server's insides. */
  static JsonNode assertShortError(String what, int status, int expectedStatus, String body) {
    assertThat(status).as(what + ": " + body).isEqualTo(expectedStatus);
    assertThat(body.length()).as(what + ": a short answer").isLessThan(400);
    assertThat(body.toLowerCase(Locale.ROOT)).as(what).doesNotContain("exception", "stacktrace", "at io.", "at org.", "jetty",
        "modelcontextprotocol", "<html");
    JsonNode error = parse(body);
    assertThat(error.path("jsonrpc").asText()).as(what).isEqualTo("2.0");
    assertThat(error.path("error").path("code").isInt()).as(what).isTrue();
    assertThat(error.path("error").path("message").asText()).as(what).isNotBlank();
    return error;
  }

  /** A raw HTTP/1.1 exchange on one connection, for what java.net.http does not let a caller send. */
  static final class Raw implements AutoCloseable {
    final Socket socket;
    final OutputStream out;
    final InputStream in;

    Raw() throws IOException {
      socket = new Socket("127.0.0.1", port);
      socket.setSoTimeout(60_000);
      out = socket.getOutputStream();
      in = socket.getInputStream();
    }

    void head(String method, String token, Map<String, String> headers) throws IOException {
      StringBuilder h = new StringBuilder(method + " /mcp HTTP/1.1\r\nHost: 127.0.0.1:" + port + "\r\n"
          + "Authorization: Bearer " + token + "\r\nContent-Type: application/json\r\n"
          + "Accept: application/json, text/event-stream\r\n");
      headers.forEach((k, v) -> h.append(k).append(": ").append(v).append("\r\n"));
      out.write(h.append("\r\n").toString().getBytes(StandardCharsets.US_ASCII));
      out.flush();
    }

    /** The status line and headers of the next response (a 100 Continue counts). */
    String readHead() throws IOException {
      ByteArrayOutputStream head = new ByteArrayOutputStream();
      while (!head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
        int b = in.read();
        if (b < 0) {
          throw new IOException("the connection closed after: " + head.toString(StandardCharsets.US_ASCII));
        }
        head.write(b);
      }
      return head.toString(StandardCharsets.US_ASCII);
    }

    /** The body of a response whose head said its Content-Length. */
    String readBody(String head) throws IOException {
      String lower = head.toLowerCase(Locale.ROOT);
      int at = lower.indexOf("content-length:");
      assertThat(at).as("a Content-Length in " + head).isPositive();
      int length = Integer.parseInt(lower.substring(at + 15, lower.indexOf("\r\n", at)).strip());
      return new String(in.readNBytes(length), StandardCharsets.UTF_8);
    }

    static int status(String head) {
      return Integer.parseInt(head.substring(9, 12));
    }

    @Override
    public void close() throws IOException {
      socket.close();
    }
  }

  @Test
  void aBodyOverTheLimitIs413BeforeItIsReadAndOneUnderItIsServed() throws Exception {
    String session = session(TOKEN_A);
    // declared too large: answered from the headers, while the client has sent no byte of the body
    try (Raw raw = new Raw()) {
      raw.head("POST", TOKEN_A, Map.of("Mcp-Session-Id", session, "Content-Length", String.valueOf(16 * 1024 * 1024)));
      String head = raw.readHead();
      assertShortError("declared 16 MiB", Raw.status(head), 413, raw.readBody(head));
    }
    // no declared length: refused as soon as the read passes the limit
    try (Raw raw = new Raw()) {
      raw.head("POST", TOKEN_A, Map.of("Mcp-Session-Id", session, "Transfer-Encoding", "chunked"));
      byte[] chunk = "x".repeat(8192).getBytes(StandardCharsets.US_ASCII);
      for (int sent = 0; sent <= LIMIT; sent += chunk.length) {
        raw.out.write(("2000\r\n").getBytes(StandardCharsets.US_ASCII));
        raw.out.write(chunk);
        raw.out.write("\r\n".getBytes(StandardCharsets.US_ASCII));
      }
      raw.out.flush();
      String head = raw.readHead();
      assertShortError("chunked past the limit", Raw.status(head), 413, raw.readBody(head));
    }
    // java.net.http with a known length just over the limit
    String over = "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":\"memory_write\",\"arguments\":"
        + "{\"content\":\"" + "y".repeat(LIMIT) + "\"}}}";
    HttpResponse<String> refused = send(post(TOKEN_A, over).header("Mcp-Session-Id", session));
    assertShortError("just over the limit", refused.statusCode(), 413, refused.body());

    // under the limit the request reaches the tool, which applies its own content limit
    String under = "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/call\",\"params\":{\"name\":\"memory_write\",\"arguments\":"
        + "{\"content\":\"" + "y".repeat(LIMIT - 200) + "\"}}}";
    HttpResponse<String> served = send(post(TOKEN_A, under).header("Mcp-Session-Id", session));
    assertThat(served.statusCode()).isEqualTo(200);
    JsonNode result = rpc(served.body()).path("result");
    assertThat(result.path("isError").asBoolean()).isTrue();
    assertThat(result.path("content").get(0).path("text").asText()).contains("invalid_arguments");
  }

  @Test
  void oneTokenHasAtMostTwoRequestsAtATimeAndOtherTokensAreNotHeldUp() throws Exception {
    String sessionA = session(TOKEN_A);
    String sessionB = session(TOKEN_B);
    Raw first = new Raw();
    Raw second = new Raw();
    try {
      // each holds a permit: the server asked for the body (100 Continue), which the client never sends
      for (Raw r : new Raw[] {first, second}) {
        r.head("POST", TOKEN_A, Map.of("Mcp-Session-Id", sessionA, "Expect", "100-continue", "Content-Length", "64"));
        assertThat(r.readHead()).startsWith("HTTP/1.1 100");
      }
      HttpResponse<String> third = send(post(TOKEN_A, TOOLS_LIST).header("Mcp-Session-Id", sessionA));
      assertShortError("a third request of the token", third.statusCode(), 429, third.body());
      assertThat(third.headers().firstValue("Retry-After")).isPresent();

      HttpResponse<String> other = send(post(TOKEN_B, TOOLS_LIST).header("Mcp-Session-Id", sessionB));
      assertThat(other.statusCode()).as("another token is not held up").isEqualTo(200);
      assertThat(rpc(other.body()).path("result").path("tools")).hasSize(16);
    } finally {
      first.close();
      second.close();
    }
    // the permits come back when the held requests end; the token is served again
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    int status;
    do {
      status = send(post(TOKEN_A, TOOLS_LIST).header("Mcp-Session-Id", sessionA)).statusCode();
    } while (status == 429 && System.nanoTime() < deadline);
    assertThat(status).isEqualTo(200);
  }

  @Test
  void aSessionOpenedUnderAnotherTokenIsNotFoundForEveryMethod() throws Exception {
    String alice = session(TOKEN_A);
    HttpResponse<String> post = send(post(TOKEN_B, TOOLS_LIST).header("Mcp-Session-Id", alice));
    assertShortError("POST with another token's session", post.statusCode(), 404, post.body());
    HttpResponse<String> get = send(HttpRequest.newBuilder(endpoint()).timeout(Duration.ofSeconds(60))
        .header("Authorization", "Bearer " + TOKEN_B).header("Accept", "text/event-stream").header("Mcp-Session-Id", alice)
        .GET());
    assertShortError("GET (event stream) with another token's session", get.statusCode(), 404, get.body());
    HttpResponse<String> delete = send(HttpRequest.newBuilder(endpoint()).timeout(Duration.ofSeconds(60))
        .header("Authorization", "Bearer " + TOKEN_B).header("Mcp-Session-Id", alice).DELETE());
    assertShortError("DELETE of another token's session", delete.statusCode(), 404, delete.body());

    // her session is untouched, and ends only when she ends it
    HttpResponse<String> own = send(post(TOKEN_A, TOOLS_LIST).header("Mcp-Session-Id", alice));
    assertThat(own.statusCode()).isEqualTo(200);
    assertThat(rpc(own.body()).path("result").path("tools")).hasSize(16);
    assertThat(send(HttpRequest.newBuilder(endpoint()).timeout(Duration.ofSeconds(60))
        .header("Authorization", "Bearer " + TOKEN_A).header("Mcp-Session-Id", alice).DELETE()).statusCode()).isEqualTo(200);
    HttpResponse<String> ended = send(post(TOKEN_A, TOOLS_LIST).header("Mcp-Session-Id", alice));
    assertShortError("POST to an ended session", ended.statusCode(), 404, ended.body());
  }

  @Test
  void transportErrorsAreShortJsonRpcErrors() throws Exception {
    String session = session(TOKEN_A);
    Map<String, Object[]> bodies = new LinkedHashMap<>();
    bodies.put("a body of null", new Object[] {"null", 400, -32600});
    bodies.put("a truncated object", new Object[] {"{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/li", 400, -32700});
    bodies.put("text that is not JSON", new Object[] {"hello", 400, -32700});
    bodies.put("a JSON-RPC response", new Object[] {"{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{}}", 400, -32600});
    bodies.put("a batch", new Object[] {"[" + TOOLS_LIST + "]", 400, -32600});
    bodies.put("an empty object", new Object[] {"{}", 400, -32600});
    for (Map.Entry<String, Object[]> e : bodies.entrySet()) {
      HttpResponse<String> r = send(post(TOKEN_A, (String) e.getValue()[0]).header("Mcp-Session-Id", session));
      JsonNode error = assertShortError(e.getKey(), r.statusCode(), (Integer) e.getValue()[1], r.body());
      assertThat(error.path("error").path("code").asInt()).as(e.getKey()).isEqualTo(e.getValue()[2]);
    }

    HttpResponse<String> noSession = send(post(TOKEN_A, TOOLS_LIST));
    assertShortError("a request without a session", noSession.statusCode(), 400, noSession.body());
    HttpResponse<String> unknown = send(post(TOKEN_A, TOOLS_LIST).header("Mcp-Session-Id", "no-such-session"));
    assertShortError("an unknown session", unknown.statusCode(), 404, unknown.body());
    HttpResponse<String> get = send(HttpRequest.newBuilder(endpoint()).timeout(Duration.ofSeconds(60))
        .header("Authorization", "Bearer " + TOKEN_A).header("Accept", "text/event-stream").GET());
    assertShortError("GET without a session", get.statusCode(), 400, get.body());
    HttpResponse<String> text = send(post(TOKEN_A, TOOLS_LIST).header("Mcp-Session-Id", session)
        .setHeader("Content-Type", "text/plain"));
    assertShortError("a body that is not declared JSON", text.statusCode(), 415, text.body());
    HttpResponse<String> put = send(HttpRequest.newBuilder(endpoint()).timeout(Duration.ofSeconds(60))
        .header("Authorization", "Bearer " + TOKEN_A).PUT(HttpRequest.BodyPublishers.ofString(TOOLS_LIST)));
    assertShortError("PUT", put.statusCode(), 405, put.body());
    HttpResponse<String> noToken = send(HttpRequest.newBuilder(endpoint()).timeout(Duration.ofSeconds(60))
        .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(INIT)));
    assertShortError("no token", noToken.statusCode(), 401, noToken.body());

    // a body that ends before its declared length
    try (Raw raw = new Raw()) {
      raw.head("POST", TOKEN_A, Map.of("Mcp-Session-Id", session, "Content-Length", "400"));
      raw.out.write("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/list\"".getBytes(StandardCharsets.US_ASCII));
      raw.out.flush();
      raw.socket.shutdownOutput();
      String head = raw.readHead();
      assertShortError("a body cut short", Raw.status(head), 400, raw.readBody(head));
    }
    // the session still works after all of it
    assertThat(send(post(TOKEN_A, TOOLS_LIST).header("Mcp-Session-Id", session)).statusCode()).isEqualTo(200);
  }

  @Test
  void aCommentInTheTokensFileGrantsNothing() throws Exception {
    String team = session(TOKEN_TEAM);
    HttpResponse<String> write = send(post(TOKEN_TEAM, toolCall(3, "memory_write",
        "{\"content\":\"The blue team's launch code is 0000.\"}")).header("Mcp-Session-Id", team));
    assertThat(rpc(write.body()).path("result").path("isError").asBoolean()).isFalse();

    String carol = session(TOKEN_CAROL);
    HttpResponse<String> search = send(post(TOKEN_CAROL, toolCall(4, "memory_search",
        "{\"query\":\"launch code\"}")).header("Mcp-Session-Id", carol));
    String text = rpc(search.body()).path("result").path("content").get(0).path("text").asText();
    assertThat(parse(text).path("results")).as("carol's comment '# not team/blue' is no grant").isEmpty();
    HttpResponse<String> bob = send(post(TOKEN_B, toolCall(5, "memory_search",
        "{\"query\":\"launch code\"}")).header("Mcp-Session-Id", session(TOKEN_B)));
    assertThat(parse(rpc(bob.body()).path("result").path("content").get(0).path("text").asText()).path("results")).isEmpty();
  }
}
