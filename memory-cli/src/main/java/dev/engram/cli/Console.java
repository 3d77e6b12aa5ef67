/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.cli;

import dev.engram.ErrorCode;
import dev.engram.MemoryException;
import dev.engram.cli.ConsoleServer.Exchange;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The local web console: a {@link ConsoleServer} on 127.0.0.1, one random access token per start. The
 * token is accepted once in the query and exchanged for an HttpOnly, SameSite=Strict session cookie;
 * no page is served without one of them. Every change is a POST carrying the CSRF token, requests for
 * another Host (DNS rebinding) or from another Origin are refused, and every response carries a
 * content security policy that allows no script and no framing. The server bounds how long a
 * connection may take to send its request and how many may be open, so idle or half-open connections
 * cannot lock the console.
 */
final class Console implements AutoCloseable {
  static final String COOKIE = "engram_console";
  private static final Logger LOG = LoggerFactory.getLogger(Console.class);
  private static final int MAX_BODY = 64 * 1024;
  private static final String CSP = "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; "
      + "frame-ancestors 'none'; base-uri 'none'";

  private static final List<String[]> HEADERS = List.of(
      new String[] {"Content-Security-Policy", CSP},
      new String[] {"X-Content-Type-Options", "nosniff"},
      new String[] {"X-Frame-Options", "DENY"},
      new String[] {"Referrer-Policy", "same-origin"},
      new String[] {"Cache-Control", "no-store"},
      new String[] {"Cross-Origin-Opener-Policy", "same-origin"},
      new String[] {"Cross-Origin-Resource-Policy", "same-origin"});

  private final ConsoleServer server;
  private final String token = secret();
  private final String sessionId = secret();
  private final String csrf = secret();
  private final ConsolePages pages;
  private final int port;

  private Console(Session session, int port, Duration timeout) throws IOException {
    this.pages = new ConsolePages(session, csrf);
    this.server = new ConsoleServer(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), timeout,
        MAX_BODY, HEADERS, this::handle);
    this.port = server.port();
  }

  /**
   * Starts a console over an opened session.
   *
   * @param session the store and grants to serve
   * @param port the port on 127.0.0.1, 0 for any free one
   * @param timeout how long a connection may take to send its whole request, and again to take its
   *     response, before it is closed
   * @return the running console
   * @throws IOException when the port cannot be bound
   */
  static Console start(Session session, int port, Duration timeout) throws IOException {
    return new Console(session, port, timeout);
  }

  /** The address to open, with the access token. */
  URI url() {
    return URI.create("http://127.0.0.1:" + port + "/?token=" + token);
  }

  @Override
  public void close() {
    server.close();
  }

  private static String secret() {
    byte[] b = new byte[32];
    new SecureRandom().nextBytes(b);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
  }

  private void handle(Exchange ex) {
    try {
      String host = ex.header("Host");
      if (host == null || !(host.equals("127.0.0.1:" + port) || host.equals("localhost:" + port))) {
        send(ex, 421, "text/plain; charset=utf-8", "this console answers only to 127.0.0.1:" + port);
        return;
      }
      String path = ex.uri().getRawPath();
      if (path.equals("/style.css") && ex.method().equals("GET")) {
        send(ex, 200, "text/css; charset=utf-8", ConsolePages.CSS);
        return;
      }
      Map<String, String> query = form(ex.uri().getRawQuery());
      String given = query.get("token");
      if (given != null) {
        if (!same(given, token)) {
          refuse(ex);
          return;
        }
        StringBuilder back = new StringBuilder(path);
        String sep = "?";
        for (Map.Entry<String, String> q : query.entrySet()) {
          if (!q.getKey().equals("token")) {
            back.append(sep).append(Html.url(q.getKey())).append('=').append(Html.url(q.getValue()));
            sep = "&";
          }
        }
        ex.addHeader("Set-Cookie", COOKIE + "=" + sessionId + "; Path=/; HttpOnly; SameSite=Strict");
        redirect(ex, back.toString());
        return;
      }
      if (!same(cookie(ex), sessionId)) {
        refuse(ex);
        return;
      }
      String method = ex.method();
      if (method.equals("GET")) {
        respond(ex, pages.get(path, query));
      } else if (method.equals("POST")) {
        String origin = ex.header("Origin");
        if (origin != null && !origin.equals("http://" + host)) {
          send(ex, 403, "text/plain; charset=utf-8", "cross-origin request refused");
          return;
        }
        Map<String, String> body = form(new String(ex.body(), StandardCharsets.UTF_8));
        if (!same(body.get("csrf"), csrf)) {
          send(ex, 403, "text/plain; charset=utf-8", "missing or wrong CSRF token; reload the page and try again");
          return;
        }
        respond(ex, pages.post(path, body));
      } else {
        ex.addHeader("Allow", "GET, POST");
        send(ex, 405, "text/plain; charset=utf-8", "method not allowed");
      }
    } catch (RuntimeException e) {
      LOG.error("console request {} {} failed", ex.method(), ex.uri().getRawPath(), e);
      send(ex, 500, "text/plain; charset=utf-8", "the console failed on this request; its log says why");
    }
  }

  private void respond(Exchange ex, ConsolePages.Response r) {
    if (r.redirect() != null) {
      redirect(ex, r.redirect());
    } else {
      send(ex, r.status(), "text/html; charset=utf-8", r.body());
    }
  }

  /** HTTP status for a failure the page shows. */
  static int status(MemoryException e) {
    if (e.code() == ErrorCode.NOT_FOUND) {
      return 404;
    }
    if (e.code() == ErrorCode.INVALID_INPUT || e.code() == ErrorCode.INVALID_GRANT) {
      return 400;
    }
    if (e.code() == ErrorCode.SCOPE_VIOLATION) {
      return 403;
    }
    if (e.code() == ErrorCode.STORE_UNAVAILABLE || e.code() == ErrorCode.STORE_INCOMPATIBLE) {
      return 503;
    }
    return 409;
  }

  private void refuse(Exchange ex) {
    send(ex, 401, "text/html; charset=utf-8", ConsolePages.page("No access", new Html()
        .raw("<p>This console needs its access token. Open the address that <code>engram console</code>"
            + " printed when it started.</p>").toString(), null));
  }

  private static void redirect(Exchange ex, String location) {
    ex.addHeader("Location", location);
    ex.respond(303, new byte[0]);
  }

  private static void send(Exchange ex, int status, String type, String body) {
    ex.addHeader("Content-Type", type);
    ex.respond(status, body.getBytes(StandardCharsets.UTF_8));
  }

  private static @Nullable String cookie(Exchange ex) {
    for (String header : ex.headers("Cookie")) {
      for (String part : header.split(";")) {
        String p = part.strip();
        if (p.startsWith(COOKIE + "=")) {
          return p.substring(COOKIE.length() + 1);
        }
      }
    }
    return null;
  }

  private static boolean same(@Nullable String given, String expected) {
    return given != null && MessageDigest.isEqual(
        given.getBytes(StandardCharsets.UTF_8), expected.getBytes(StandardCharsets.UTF_8));
  }

  /** Decodes a query string or urlencoded form; the first value of a repeated name wins. */
  static Map<String, String> form(@Nullable String raw) {
    Map<String, String> out = new LinkedHashMap<>();
    if (raw == null || raw.isEmpty()) {
      return out;
    }
    for (String pair : raw.split("&")) {
      int eq = pair.indexOf('=');
      String k = eq < 0 ? pair : pair.substring(0, eq);
      String v = eq < 0 ? "" : pair.substring(eq + 1);
      try {
        out.putIfAbsent(URLDecoder.decode(k, StandardCharsets.UTF_8), URLDecoder.decode(v, StandardCharsets.UTF_8));
      } catch (IllegalArgumentException malformed) {
        // a malformed escape drops that pair, as browsers never send one
      }
    }
    return out;
  }
}
