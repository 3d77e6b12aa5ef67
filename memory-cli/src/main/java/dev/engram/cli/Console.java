/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.cli;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.engram.ErrorCode;
import dev.engram.MemoryException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The local web console: the JDK's HTTP server on 127.0.0.1, one random access token per start. The
 * token is accepted once in the query and exchanged for an HttpOnly, SameSite=Strict session cookie;
 * no page is served without one of them. Every change is a POST carrying the CSRF token, requests for
 * another Host (DNS rebinding) or from another Origin are refused, and every response carries a
 * content security policy that allows no script and no framing.
 */
final class Console implements AutoCloseable {
  static final String COOKIE = "engram_console";
  private static final Logger LOG = LoggerFactory.getLogger(Console.class);
  private static final int MAX_BODY = 64 * 1024;
  private static final String CSP = "default-src 'none'; style-src 'self'; img-src 'self'; form-action 'self'; "
      + "frame-ancestors 'none'; base-uri 'none'";

  private final HttpServer server;
  private final ExecutorService executor;
  private final String token = secret();
  private final String sessionId = secret();
  private final String csrf = secret();
  private final ConsolePages pages;
  private final int port;

  private Console(Session session, int port) throws IOException {
    this.server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
    this.port = server.getAddress().getPort();
    this.pages = new ConsolePages(session, csrf);
    AtomicInteger n = new AtomicInteger();
    this.executor = Executors.newFixedThreadPool(4, r -> {
      Thread t = new Thread(r, "engram-console-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    server.setExecutor(executor);
    server.createContext("/", this::handle);
  }

  /**
   * Starts a console over an opened session.
   *
   * @param session the store and grants to serve
   * @param port the port on 127.0.0.1, 0 for any free one
   * @return the running console
   * @throws IOException when the port cannot be bound
   */
  static Console start(Session session, int port) throws IOException {
    Console c = new Console(session, port);
    c.server.start();
    return c;
  }

  /** The address to open, with the access token. */
  URI url() {
    return URI.create("http://127.0.0.1:" + port + "/?token=" + token);
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }

  private static String secret() {
    byte[] b = new byte[32];
    new SecureRandom().nextBytes(b);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
  }

  private void handle(HttpExchange ex) throws IOException {
    try (ex) {
      headers(ex);
      String host = ex.getRequestHeaders().getFirst("Host");
      if (host == null || !(host.equals("127.0.0.1:" + port) || host.equals("localhost:" + port))) {
        send(ex, 421, "text/plain; charset=utf-8", "this console answers only to 127.0.0.1:" + port);
        return;
      }
      String path = ex.getRequestURI().getRawPath();
      if (path.equals("/style.css") && ex.getRequestMethod().equals("GET")) {
        send(ex, 200, "text/css; charset=utf-8", ConsolePages.CSS);
        return;
      }
      Map<String, String> query = form(ex.getRequestURI().getRawQuery());
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
        ex.getResponseHeaders().add("Set-Cookie", COOKIE + "=" + sessionId + "; Path=/; HttpOnly; SameSite=Strict");
        redirect(ex, back.toString());
        return;
      }
      if (!same(cookie(ex), sessionId)) {
        refuse(ex);
        return;
      }
      String method = ex.getRequestMethod();
      if (method.equals("GET")) {
        respond(ex, pages.get(path, query));
      } else if (method.equals("POST")) {
        String origin = ex.getRequestHeaders().getFirst("Origin");
        if (origin != null && !origin.equals("http://" + host)) {
          send(ex, 403, "text/plain; charset=utf-8", "cross-origin request refused");
          return;
        }
        Map<String, String> body = form(readBody(ex));
        if (!same(body.get("csrf"), csrf)) {
          send(ex, 403, "text/plain; charset=utf-8", "missing or wrong CSRF token; reload the page and try again");
          return;
        }
        respond(ex, pages.post(path, body));
      } else {
        ex.getResponseHeaders().add("Allow", "GET, POST");
        send(ex, 405, "text/plain; charset=utf-8", "method not allowed");
      }
    } catch (BodyTooLarge e) {
      send(ex, 413, "text/plain; charset=utf-8", e.getMessage());
    } catch (RuntimeException e) {
      LOG.error("console request {} {} failed", ex.getRequestMethod(), ex.getRequestURI().getRawPath(), e);
      send(ex, 500, "text/plain; charset=utf-8", "the console failed on this request; its log says why");
    }
  }

  private void respond(HttpExchange ex, ConsolePages.Response r) throws IOException {
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

  private void refuse(HttpExchange ex) throws IOException {
    send(ex, 401, "text/html; charset=utf-8", ConsolePages.page("No access", new Html()
        .raw("<p>This console needs its access token. Open the address that <code>engram console</code>"
            + " printed when it started.</p>").toString(), null));
  }

  private static void headers(HttpExchange ex) {
    var h = ex.getResponseHeaders();
    h.add("Content-Security-Policy", CSP);
    h.add("X-Content-Type-Options", "nosniff");
    h.add("X-Frame-Options", "DENY");
    h.add("Referrer-Policy", "same-origin");
    h.add("Cache-Control", "no-store");
    h.add("Cross-Origin-Opener-Policy", "same-origin");
    h.add("Cross-Origin-Resource-Policy", "same-origin");
  }

  private static void redirect(HttpExchange ex, String location) throws IOException {
    ex.getResponseHeaders().add("Location", location);
    ex.sendResponseHeaders(303, -1);
  }

  private static void send(HttpExchange ex, int status, String type, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().add("Content-Type", type);
    ex.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(bytes);
    }
  }

  private static @Nullable String cookie(HttpExchange ex) {
    List<String> headers = ex.getRequestHeaders().get("Cookie");
    if (headers == null) {
      return null;
    }
    for (String header : headers) {
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

  private static String readBody(HttpExchange ex) throws IOException {
    try (InputStream in = ex.getRequestBody()) {
      byte[] b = in.readNBytes(MAX_BODY + 1);
      if (b.length > MAX_BODY) {
        throw new BodyTooLarge();
      }
      return new String(b, StandardCharsets.UTF_8);
    }
  }

  /** A form body over {@link #MAX_BODY} bytes. */
  private static final class BodyTooLarge extends RuntimeException {
    private static final long serialVersionUID = 1L;

    BodyTooLarge() {
      super("request body over " + MAX_BODY + " bytes");
    }
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
