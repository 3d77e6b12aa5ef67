/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The console's server under idle, half-open and malformed connections: they are closed after the
 * request timeout or refused, and never keep a normal request from being answered.
 */
class ConsoleLimitsTest {
  /** More than the console has worker threads. */
  private static final int IDLE = 16;

  private Session session;
  private final List<Socket> sockets = new ArrayList<>();
  private Console console;

  @BeforeEach
  void open() {
    Target target = new Target();
    target.store = "memory";
    target.grants(List.of("app/user/u1"));
    target.embedder = "none";
    session = Session.open(target, Map.of(), true, true, UnaryOperator.identity());
  }

  @AfterEach
  void close() throws IOException {
    for (Socket s : sockets) {
      s.close();
    }
    if (console != null) {
      console.close();
    }
    session.close();
  }

  @Test
  void idleConnectionsHoldNoWorkerAndAreClosedAtTheTimeout() throws IOException {
    Duration timeout = Duration.ofSeconds(5);
    console = Console.start(session, 0, timeout);
    assertThat(IDLE).isGreaterThan(ConsoleServer.WORKERS);

    long[] opened = new long[IDLE];
    for (int i = 0; i < IDLE; i++) {
      opened[i] = System.nanoTime();
      idle("GET /style.css HTT");
    }
    String response = get("/style.css");
    long answered = System.nanoTime();
    assertThat(response).startsWith("HTTP/1.1 200").contains("Content-Type: text/css");
    assertThat(Duration.ofNanos(answered - opened[0]))
        .as("answered while every idle connection was still within its timeout").isLessThan(timeout);

    for (int i = 0; i < IDLE; i++) {
      long closed = closedAt(sockets.get(i), Duration.ofSeconds(20));
      Duration after = Duration.ofNanos(closed - opened[i]);
      assertThat(after).as("idle connection %d is closed at the timeout, not before", i)
          .isGreaterThan(timeout.minusMillis(250))
          .isLessThan(timeout.plusSeconds(10));
    }
  }

  @Test
  void connectionsBeyondTheLimitDisplaceTheOldestIdleOnes() throws IOException {
    console = Console.start(session, 0, Duration.ofSeconds(120));
    int extra = 8;
    for (int i = 0; i < ConsoleServer.MAX_CONNECTIONS + extra; i++) {
      idle("GE");
    }
    assertThat(get("/style.css")).startsWith("HTTP/1.1 200");

    // the oldest ones made room for the newer ones and for the request, long before their timeout
    for (int i = 0; i <= extra; i++) {
      closedAt(sockets.get(i), Duration.ofSeconds(20));
    }
    for (int i = sockets.size() - extra; i < sockets.size(); i++) {
      Socket s = sockets.get(i);
      s.setSoTimeout(200);
      try {
        int b = s.getInputStream().read();
        fail("the newest idle connection %d should still be open, read gave %d", i, b);
      } catch (SocketTimeoutException stillOpen) {
        // as it should be
      }
    }
  }

  @Test
  void aRequestSentInPiecesIsServed() throws IOException {
    console = Console.start(session, 0, Duration.ofSeconds(30));
    try (Socket s = new Socket("127.0.0.1", console.url().getPort())) {
      s.setTcpNoDelay(true);
      s.setSoTimeout(10_000);
      OutputStream out = s.getOutputStream();
      for (byte b : request("GET", "/style.css", "").getBytes(StandardCharsets.US_ASCII)) {
        out.write(b);
        out.flush();
      }
      assertThat(new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).startsWith("HTTP/1.1 200");
    }
  }

  @Test
  void theServerRefusesWhatItWillNotRead() throws IOException {
    console = Console.start(session, 0, Duration.ofSeconds(30));
    String host = "127.0.0.1:" + console.url().getPort();

    assertThat(raw("GET /style.css\r\nHost: " + host + "\r\n\r\n")).startsWith("HTTP/1.1 400");
    assertThat(raw("GET /style.css HTTP/2.0\r\nHost: " + host + "\r\n\r\n")).startsWith("HTTP/1.1 505");
    assertThat(raw("GET /style.css HTTP/1.1\r\nHost: " + host + "\r\nX-Big: " + "x".repeat(ConsoleServer.MAX_HEAD)
        + "\r\n\r\n")).startsWith("HTTP/1.1 431");
    assertThat(raw("POST / HTTP/1.1\r\nHost: " + host + "\r\nContent-Length: 1000000\r\n\r\n"))
        .startsWith("HTTP/1.1 413").contains("Content-Security-Policy: ").contains("request body over");
    assertThat(raw("POST / HTTP/1.1\r\nHost: " + host + "\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"))
        .startsWith("HTTP/1.1 411");

    String head = raw(request("HEAD", "/", ""));
    assertThat(head).as("a HEAD response has the length but no body").startsWith("HTTP/1.1 401")
        .containsPattern("Content-Length: [1-9]").endsWith("\r\n\r\n");
    String refused = raw(request("GET", "/?token=wrong", ""));
    assertThat(refused).startsWith("HTTP/1.1 401").contains("frame-ancestors 'none'").contains("needs its access token");
    String form = raw(request("POST", "/retire", "id=x&csrf=wrong"));
    assertThat(form).as("a body is read and the cookie is still required").startsWith("HTTP/1.1 401");
  }

  private String request(String method, String path, String body) {
    return method + " " + path + " HTTP/1.1\r\nHost: 127.0.0.1:" + console.url().getPort()
        + (body.isEmpty() ? "" : "\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: "
            + body.length()) + "\r\n\r\n" + body;
  }

  /** A connection that sends the start of a request and then nothing. */
  private void idle(String start) throws IOException {
    Socket s = new Socket("127.0.0.1", console.url().getPort());
    sockets.add(s);
    s.getOutputStream().write(start.getBytes(StandardCharsets.US_ASCII));
    s.getOutputStream().flush();
  }

  /** A complete GET on its own connection, answered within a generous bound or failing. */
  private String get(String path) throws IOException {
    return raw(request("GET", path, ""));
  }

  private String raw(String request) throws IOException {
    try (Socket s = new Socket("127.0.0.1", console.url().getPort())) {
      s.setSoTimeout(10_000);
      s.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
      s.getOutputStream().flush();
      return new String(s.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    } catch (SocketTimeoutException e) {
      throw new AssertionError("the console did not answer " + request.lines().findFirst().orElse("")
          + " within 10 s", e);
    }
  }

  /** When the server closed the connection: its read ends or is reset, within {@code bound}. */
  private static long closedAt(Socket s, Duration bound) throws IOException {
    s.setSoTimeout((int) bound.toMillis());
    InputStream in = s.getInputStream();
    try {
      while (in.read() >= 0) {
        // an answer to half a request is allowed; the close is what counts
      }
    } catch (SocketTimeoutException e) {
      throw new AssertionError("the connection was still open after " + bound, e);
    } catch (SocketException reset) {
      // a reset closes it too
    }
    return System.nanoTime();
  }
}
