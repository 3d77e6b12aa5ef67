/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.embeddings.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;

/**
 * A real HTTP server on 127.0.0.1 that answers {@code POST /v1/embeddings} in the OpenAI wire
 * format. It records every request; scripted answers are used first, one per request, then it
 * answers correctly with {@link #vectorFor} vectors of the requested size.
 */
final class FakeEmbeddingServer implements AutoCloseable {

  static final ObjectMapper JSON = new ObjectMapper();

  /** What the server received. */
  record Received(String method, String path, Map<String, List<String>> headers, @Nullable JsonNode body) {
    @Nullable
    String header(String name) {
      for (Map.Entry<String, List<String>> e : headers.entrySet()) {
        if (e.getKey().equalsIgnoreCase(name)) {
          return e.getValue().get(0);
        }
      }
      return null;
    }

    List<String> input() {
      List<String> input = new ArrayList<>();
      body.get("input").forEach(n -> input.add(n.asText()));
      return input;
    }
  }

  /** One answer to one request. */
  interface Answer {
    void write(Received request, HttpExchange exchange, FakeEmbeddingServer server) throws IOException;
  }

  private final HttpServer server;
  private final ExecutorService executor = Executors.newCachedThreadPool();
  private final List<Received> requests = new CopyOnWriteArrayList<>();
  private final ConcurrentLinkedQueue<Answer> script = new ConcurrentLinkedQueue<>();
  private final CountDownLatch closing = new CountDownLatch(1);
  private final int dimension;

  private FakeEmbeddingServer(int dimension) throws IOException {
    this.dimension = dimension;
    server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.setExecutor(executor);
    server.createContext("/", this::handle);
    server.start();
  }

  static FakeEmbeddingServer start(int dimension) throws IOException {
    return new FakeEmbeddingServer(dimension);
  }

  String baseUrl() {
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
  }

  /** Answers the next requests with these, in order, before falling back to correct answers. */
  FakeEmbeddingServer then(Answer... answers) {
    Collections.addAll(script, answers);
    return this;
  }

  List<Received> requests() {
    return List.copyOf(requests);
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      byte[] raw = exchange.getRequestBody().readAllBytes();
      JsonNode body;
      try {
        body = JSON.readTree(raw);
      } catch (IOException e) {
        body = null;
      }
      Received received =
          new Received(
              exchange.getRequestMethod(),
              exchange.getRequestURI().getPath(),
              Map.copyOf(exchange.getRequestHeaders()),
              body);
      requests.add(received);
      Answer answer = script.poll();
      (answer != null ? answer : correct()).write(received, exchange, this);
    } catch (IOException e) {
      // the client hung up, as the timeout tests make it do
    }
  }

  /** A deterministic vector per text, distinct for distinct texts. */
  static float[] vectorFor(String text, int dimension) {
    float[] v = new float[dimension];
    float seed = (text.hashCode() & 0xffff) / 65536f;
    for (int j = 0; j < dimension; j++) {
      v[j] = seed + j * 0.125f;
    }
    return v;
  }

  static void send(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
    if (bytes.length > 0) {
      exchange.getResponseBody().write(bytes);
    }
  }

  static String successBody(List<String> input, int dimension, boolean reversed) {
    ObjectNode root = JSON.createObjectNode();
    root.put("object", "list");
    ArrayNode data = root.putArray("data");
    for (int k = 0; k < input.size(); k++) {
      int i = reversed ? input.size() - 1 - k : k;
      ObjectNode item = data.addObject();
      item.put("object", "embedding");
      item.put("index", i);
      ArrayNode embedding = item.putArray("embedding");
      for (float x : vectorFor(input.get(i), dimension)) {
        embedding.add(x);
      }
    }
    root.put("model", "fake-embedding-model");
    ObjectNode usage = root.putObject("usage");
    usage.put("prompt_tokens", input.size());
    usage.put("total_tokens", input.size());
    return root.toString();
  }

  private int dimensionOf(Received request) {
    JsonNode dimensions = request.body() == null ? null : request.body().get("dimensions");
    return dimensions != null ? dimensions.intValue() : dimension;
  }

  /** The right answer: one vector per input, in order. */
  static Answer correct() {
    return (request, exchange, server) ->
        send(exchange, 200, successBody(request.input(), server.dimensionOf(request), false));
  }

  /** The right vectors, listed last index first. */
  static Answer reversed() {
    return (request, exchange, server) ->
        send(exchange, 200, successBody(request.input(), server.dimensionOf(request), true));
  }

  static Answer status(int status, String body) {
    return (request, exchange, server) -> send(exchange, status, body);
  }

  static Answer openAiError(int status, String message, String type) {
    ObjectNode root = JSON.createObjectNode();
    ObjectNode error = root.putObject("error");
    error.put("message", message);
    error.put("type", type);
    error.putNull("param");
    error.putNull("code");
    return status(status, root.toString());
  }

  /** Sends nothing until the server closes. */
  static Answer hang() {
    return (request, exchange, server) -> server.awaitClose();
  }

  /** Sends the status line, headers and a first chunk, then nothing until the server closes. */
  static Answer stallAfterHeaders() {
    return (request, exchange, server) -> {
      exchange.sendResponseHeaders(200, 0);
      OutputStream out = exchange.getResponseBody();
      out.write("{\"object\":\"list\",\"data\":[".getBytes(StandardCharsets.UTF_8));
      out.flush();
      server.awaitClose();
    };
  }

  /** A body of {@code size} bytes, with or without a declared length. */
  static Answer huge(int status, int size, boolean declareLength) {
    return (request, exchange, server) -> {
      exchange.sendResponseHeaders(status, declareLength ? size : 0);
      OutputStream out = exchange.getResponseBody();
      byte[] chunk = new byte[8192];
      java.util.Arrays.fill(chunk, (byte) ' ');
      for (int sent = 0; sent < size; sent += chunk.length) {
        out.write(chunk, 0, Math.min(chunk.length, size - sent));
      }
    };
  }

  private void awaitClose() {
    try {
      closing.await(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    closing.countDown();
    server.stop(0);
    executor.shutdownNow();
  }
}
