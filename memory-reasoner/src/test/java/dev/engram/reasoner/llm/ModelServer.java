/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.reasoner.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * A loopback server that speaks both wire formats: OpenAI-compatible {@code POST /v1/chat/completions}
 * and Anthropic {@code POST /v1/messages}. Every request is recorded; every answer is scripted. A
 * scripted {@link Reply#answer model answer} (the JSON object the model "returns") is wrapped the way
 * the endpoint that was called wraps it: as {@code choices[0].message.content} for OpenAI, as the
 * input of a {@code tool_use} block named after the requested tool for Anthropic, with a usage
 * object whose input tokens are the request's characters / 4 and output tokens the answer's.
 */
public final class ModelServer implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpServer server;
  private final ExecutorService threads;
  private final CountDownLatch closed = new CountDownLatch(1);
  private final List<Recorded> requests = new CopyOnWriteArrayList<>();
  private final Deque<Function<Recorded, Reply>> queue = new ArrayDeque<>();
  private volatile Function<Recorded, Reply> otherwise =
      r -> Reply.raw(500, "application/json", "{\"error\":{\"message\":\"nothing scripted\"}}");

  private ModelServer() throws IOException {
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    threads = Executors.newCachedThreadPool(r -> {
      Thread t = new Thread(r, "model-server");
      t.setDaemon(true);
      return t;
    });
    server.setExecutor(threads);
    server.createContext("/", this::handle);
    server.start();
  }

  /** A started server on a free loopback port. */
  public static ModelServer start() {
    try {
      return new ModelServer();
    } catch (IOException e) {
      throw new IllegalStateException("cannot start the loopback model server", e);
    }
  }

  /** The OpenAI-compatible base URL, {@code http://127.0.0.1:PORT/v1}. */
  public String openAiBaseUrl() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
  }

  /** The Anthropic base URL, {@code http://127.0.0.1:PORT}. */
  public String anthropicBaseUrl() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** Answers the next request with {@code reply}. */
  public synchronized ModelServer enqueue(Reply reply) {
    queue.add(r -> reply);
    return this;
  }

  /** Answers the next request with what {@code script} makes of it. */
  public synchronized ModelServer enqueue(Function<Recorded, Reply> script) {
    queue.add(script);
    return this;
  }

  /** Answers requests with {@code script} once the queue is empty. */
  public ModelServer otherwise(Function<Recorded, Reply> script) {
    this.otherwise = script;
    return this;
  }

  /** Forgets the queue and the recorded requests. */
  public synchronized ModelServer reset() {
    queue.clear();
    requests.clear();
    return this;
  }

  /** Every request received, oldest first. */
  public List<Recorded> requests() {
    return List.copyOf(requests);
  }

  /** The latest request. */
  public Recorded last() {
    if (requests.isEmpty()) {
      throw new IllegalStateException("no request was received");
    }
    return requests.get(requests.size() - 1);
  }

  @Override
  public void close() {
    closed.countDown();
    server.stop(0);
    threads.shutdownNow();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      byte[] raw = exchange.getRequestBody().readAllBytes();
      Map<String, List<String>> headers = new LinkedHashMap<>();
      exchange.getRequestHeaders().forEach((k, v) -> headers.put(k.toLowerCase(Locale.ROOT), List.copyOf(v)));
      JsonNode body;
      try {
        body = JSON.readTree(raw);
      } catch (IOException e) {
        body = JSON.getNodeFactory().textNode(new String(raw, StandardCharsets.UTF_8));
      }
      Recorded rec = new Recorded(exchange.getRequestMethod(), exchange.getRequestURI().getPath(), headers, body,
          raw.length);
      requests.add(rec);
      Function<Recorded, Reply> script;
      synchronized (this) {
        script = queue.isEmpty() ? otherwise : queue.poll();
      }
      Reply reply = script.apply(rec);
      if (reply.hang()) {
        try {
          closed.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        return;
      }
      byte[] out = reply.render(rec).getBytes(StandardCharsets.UTF_8);
      reply.headers().forEach((k, v) -> exchange.getResponseHeaders().add(k, v));
      exchange.getResponseHeaders().set("Content-Type", reply.contentType());
      exchange.sendResponseHeaders(reply.status(), out.length == 0 ? -1 : out.length);
      if (out.length > 0) {
        try (OutputStream os = exchange.getResponseBody()) {
          os.write(out);
        }
      }
    } catch (RuntimeException e) {
      exchange.sendResponseHeaders(599, -1);
    }
  }

  /** One request as received. Header names are lowercase. */
  public record Recorded(String method, String path, Map<String, List<String>> headers, JsonNode body, int bytes) {

    public @Nullable String header(String name) {
      List<String> v = headers.get(name.toLowerCase(Locale.ROOT));
      return v == null || v.isEmpty() ? null : v.get(0);
    }

    public boolean anthropic() {
      return path.endsWith("/messages");
    }

    /** The system text: OpenAI's system message or Anthropic's {@code system}. */
    public String system() {
      return anthropic() ? body.path("system").asText() : body.path("messages").path(0).path("content").asText();
    }

    /** The user message. */
    public String user() {
      return anthropic()
          ? body.path("messages").path(0).path("content").asText()
          : body.path("messages").path(1).path("content").asText();
    }

    /** The schema the request asks the answer to match (json_schema or the tool's input_schema). */
    public JsonNode schema() {
      return anthropic()
          ? body.path("tools").path(0).path("input_schema")
          : body.path("response_format").path("json_schema").path("schema");
    }

    /** The job: the json_schema name or the forced tool's name. */
    public String job() {
      return anthropic()
          ? body.path("tool_choice").path("name").asText()
          : body.path("response_format").path("json_schema").path("name").asText(
              body.path("response_format").path("type").asText());
    }

    /** Characters of system and user text. */
    public int promptChars() {
      return system().length() + user().length();
    }
  }

  /** A scripted answer. */
  public record Reply(
      int status, String contentType, Map<String, String> headers, @Nullable String body,
      @Nullable JsonNode answer, @Nullable String text, String stop, boolean hang) {

    /** The model answers with {@code value} (wrapped per endpoint), stopping normally. */
    public static Reply answer(JsonNode value) {
      return new Reply(200, "application/json", Map.of(), null, value, null, "stop", false);
    }

    /** The model answers with {@code value} parsed from JSON text. */
    public static Reply answer(String json) {
      try {
        return answer(JSON.readTree(json));
      } catch (IOException e) {
        throw new IllegalArgumentException(e);
      }
    }

    /** The model answers with plain text instead of JSON (OpenAI content / an Anthropic text block). */
    public static Reply text(String text) {
      return new Reply(200, "application/json", Map.of(), null, null, text, "stop", false);
    }

    /** The model's answer was cut at the output limit: half of {@code value}'s text. */
    public static Reply truncated(JsonNode value) {
      String s = value.toString();
      return new Reply(200, "application/json", Map.of(), null, null, s.substring(0, s.length() / 2), "length", false);
    }

    /** The model refuses. */
    public static Reply refusal() {
      return new Reply(200, "application/json", Map.of(), null, null, "I can't help with that.", "refusal", false);
    }

    /** A raw HTTP answer. */
    public static Reply raw(int status, String contentType, String body) {
      return new Reply(status, contentType, Map.of(), body, null, null, "stop", false);
    }

    /** An HTML error page, as a proxy in front of the API sends. */
    public static Reply html(int status) {
      return raw(status, "text/html; charset=utf-8",
          "<!DOCTYPE html><html><head><title>" + status + " Bad Gateway</title></head><body><h1>Bad Gateway</h1>"
              + "</body></html>");
    }

    /** A JSON error in the API's own shape. */
    public static Reply error(int status, String message) {
      return raw(status, "application/json",
          "{\"error\":{\"message\":" + JSON.getNodeFactory().textNode(message) + ",\"type\":\"error\"}}");
    }

    /** Never answers until the server closes. */
    public static Reply hanging() {
      return new Reply(200, "application/json", Map.of(), null, null, null, "stop", true);
    }

    /** The same reply with an extra response header. */
    public Reply withHeader(String name, String value) {
      Map<String, String> h = new LinkedHashMap<>(headers);
      h.put(name, value);
      return new Reply(status, contentType, h, body, answer, text, stop, hang);
    }

    String render(Recorded r) {
      if (body != null) {
        return body;
      }
      long in = r.promptChars() / 4;
      String produced = answer != null ? answer.toString() : text == null ? "" : text;
      long out = Math.max(1, produced.length() / 4);
      ObjectNode root = JSON.createObjectNode();
      if (r.anthropic()) {
        root.put("id", "msg_" + System.nanoTime());
        root.put("type", "message");
        root.put("role", "assistant");
        root.put("model", r.body().path("model").asText());
        var content = root.putArray("content");
        if (answer != null) {
          ObjectNode block = content.addObject();
          block.put("type", "tool_use");
          block.put("id", "toolu_" + System.nanoTime());
          block.put("name", r.body().path("tool_choice").path("name").asText());
          block.set("input", answer);
        } else if (text != null) {
          content.addObject().put("type", "text").put("text", text);
        }
        root.put("stop_reason", switch (stop) {
          case "length" -> "max_tokens";
          case "refusal" -> "refusal";
          default -> answer != null ? "tool_use" : "end_turn";
        });
        root.putNull("stop_sequence");
        root.putObject("usage").put("input_tokens", in).put("output_tokens", out);
      } else {
        root.put("id", "chatcmpl-" + System.nanoTime());
        root.put("object", "chat.completion");
        root.put("created", System.currentTimeMillis() / 1000);
        root.put("model", r.body().path("model").asText());
        ObjectNode choice = root.putArray("choices").addObject();
        choice.put("index", 0);
        ObjectNode message = choice.putObject("message");
        message.put("role", "assistant");
        if (stop.equals("refusal")) {
          message.putNull("content");
          message.put("refusal", text);
          choice.put("finish_reason", "stop");
        } else {
          message.put("content", produced);
          message.putNull("refusal");
          choice.put("finish_reason", stop);
        }
        root.putObject("usage").put("prompt_tokens", in).put("completion_tokens", out).put("total_tokens", in + out);
      }
      return root.toString();
    }
  }
}
