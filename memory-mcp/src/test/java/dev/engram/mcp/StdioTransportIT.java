/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.mcp;

import static dev.engram.mcp.MemoryMcpServerIT.command;
import static dev.engram.mcp.MemoryMcpServerIT.parse;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The packaged jar over stdio, driven line by line as a hostile or careless client would. */
class StdioTransportIT {
  static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
      + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";
  static final String INITIALIZED = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}";
  @TempDir Path dir;
  private final List<Process> started = new ArrayList<>();

  @AfterEach
  void stop() throws InterruptedException {
    for (Process p : started) {
      p.destroy();
      p.waitFor(20, TimeUnit.SECONDS);
    }
  }

  /** A server process whose stdout lines arrive in a queue. */
  record Server(Process process, OutputStream stdin, BlockingQueue<String> stdout) {
    void send(String line) throws IOException {
      stdin.write((line + "\n").getBytes(StandardCharsets.UTF_8));
      stdin.flush();
    }

    JsonNode next() throws InterruptedException {
      String line = stdout.poll(60, TimeUnit.SECONDS);
      assertThat(line).as("an answer on stdout within 60 s").isNotNull();
      return parse(line);
    }
  }

  Server start(String... args) throws IOException {
    Process p = new ProcessBuilder(command(args)).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    started.add(p);
    BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    Thread reader = new Thread(() -> {
      try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
        for (String line = r.readLine(); line != null; line = r.readLine()) {
          lines.add(line);
        }
      } catch (IOException e) {
        // the process ended
      }
    }, "stdout-reader");
    reader.setDaemon(true);
    reader.start();
    return new Server(p, p.getOutputStream(), lines);
  }

  static String toolCall(int id, String tool, String argumentsJson) {
    return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool
        + "\",\"arguments\":" + argumentsJson + "}}";
  }

  static JsonNode toolJson(JsonNode response) {
    return parse(response.path("result").path("content").get(0).path("text").asText());
  }

  @Test
  void aMalformedLineGetsAParseErrorAndTheServerKeepsAnsweringThenExitsAtTheEndOfInput() throws Exception {
    Server s = start("--store", "memory", "--grant", "app/user/a", "--max-request-bytes", "4096");
    s.send(INITIALIZE);
    assertThat(s.next().path("result").path("serverInfo").path("name").asText()).isEqualTo("engram-memory");
    s.send(INITIALIZED);

    s.send("2026-01-01 12:00:00 INFO wrapper: starting the memory server");
    JsonNode parseError = s.next();
    assertThat(parseError.path("error").path("code").asInt()).isEqualTo(-32700);
    assertThat(parseError.has("id")).isTrue();
    assertThat(parseError.path("id").isNull()).isTrue();

    s.send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/li");
    assertThat(s.next().path("error").path("code").asInt()).isEqualTo(-32700);
    s.send("null");
    assertThat(s.next().path("error").path("code").asInt()).isEqualTo(-32600);
    s.send("{\"jsonrpc\":\"2.0\",\"id\":7}");
    JsonNode invalid = s.next();
    assertThat(invalid.path("error").path("code").asInt()).isEqualTo(-32600);
    assertThat(invalid.path("id").asInt()).isEqualTo(7);
    s.send("{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tools/call\",\"params\":{\"name\":\"memory_write\",\"arguments\":"
        + "{\"content\":\"" + "x".repeat(5000) + "\"}}}");
    JsonNode tooLong = s.next();
    assertThat(tooLong.path("error").path("code").asInt()).isEqualTo(-32600);
    assertThat(tooLong.path("error").path("message").asText()).contains("4096 bytes");

    s.send("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/list\"}");
    JsonNode tools = s.next();
    assertThat(tools.path("id").asInt()).isEqualTo(3);
    assertThat(tools.path("result").path("tools")).hasSize(16);
    s.send(toolCall(4, "memory_write", "{\"content\":\"Prefers metric units.\"}"));
    assertThat(toolJson(s.next()).path("outcome").asText()).isEqualTo("remembered");

    s.stdin().close();
    assertThat(s.process().waitFor(60, TimeUnit.SECONDS)).as("the server exits after the end of stdin").isTrue();
    assertThat(s.process().exitValue()).isZero();
    assertThat(s.stdout()).isEmpty();
  }

  @Test
  void aSearchPipedRightAfterAWriteSeesTheWriteAndAnswersComeInArrivalOrder() throws Exception {
    Server s = start("--store", "sqlite:" + dir.resolve("memory.db"), "--grant", "app/user/a");
    String[] words = {"kumquat", "tamarind", "rambutan", "mangosteen", "durian", "lychee", "longan", "soursop", "feijoa",
        "cherimoya"};
    StringBuilder piped = new StringBuilder(INITIALIZE + "\n" + INITIALIZED + "\n");
    int id = 10;
    for (String w : words) {
      piped.append(toolCall(id++, "memory_write", "{\"content\":\"The codeword of this round is " + w + ".\"}")).append('\n');
      piped.append(toolCall(id++, "memory_search", "{\"query\":\"" + w + "\"}")).append('\n');
    }
    s.stdin().write(piped.toString().getBytes(StandardCharsets.UTF_8));
    s.stdin().close();

    assertThat(s.next().path("id").asInt()).isEqualTo(1);
    List<Integer> order = new ArrayList<>();
    Map<Integer, JsonNode> byId = new HashMap<>();
    for (int i = 0; i < 2 * words.length; i++) {
      JsonNode r = s.next();
      order.add(r.path("id").asInt());
      byId.put(r.path("id").asInt(), r);
    }
    List<Integer> sent = new ArrayList<>();
    for (int i = 10; i < id; i++) {
      sent.add(i);
    }
    assertThat(order).as("tool calls are answered in the order they arrived").isEqualTo(sent);
    for (int i = 0; i < words.length; i++) {
      JsonNode write = toolJson(byId.get(10 + 2 * i));
      JsonNode search = toolJson(byId.get(11 + 2 * i));
      assertThat(search.path("results").findValuesAsText("ref")).as("the search for " + words[i])
          .contains(write.path("entry").path("ref").asText());
    }
    assertThat(s.process().waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(s.process().exitValue()).isZero();
  }
}
