/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.mcp;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.spec.McpSchema;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Everything an HTTP request passes before the SDK's streamable transport sees it, in this order:
 *
 * <ol>
 *   <li>a known bearer token (else 401);</li>
 *   <li>the endpoint and a method of it: {@code POST}, {@code GET}, {@code DELETE} (else 404, 405);</li>
 *   <li>an {@code Mcp-Session-Id}, when given, must name a session opened under the same token (else
 *       404, as for an unknown session); {@code GET} and {@code DELETE} need one (else 400);</li>
 *   <li>{@code POST} and {@code DELETE}: at most a bound of requests of one token at a time (else 429
 *       with {@code Retry-After}); server-sent event streams ({@code GET}) are not counted;</li>
 *   <li>{@code POST}: JSON content type and accept headers (else 415, 406), a body of at most a bound
 *       of bytes (else 413, answered from {@code Content-Length} before reading, or as soon as the read
 *       passes the bound; at most the bound is ever buffered), one JSON-RPC request or notification
 *       ({@link InboundFrame}: else 400 with -32700 or -32600; the server sends no requests, so a
 *       response is refused too), and a session for everything but {@code initialize} (else 400).</li>
 * </ol>
 *
 * Every refusal, and every error status the SDK or the container sets below, is answered with a short
 * JSON-RPC error object ({@link ShortErrorResponse}); an exception below is logged here and answered with
 * a 500 of the same form. Nothing an error answer says comes from an exception.
 */
final class HttpGuard implements Filter {
  static final String TOKEN_ATTRIBUTE = "engram.token";
  private static final Logger LOG = LoggerFactory.getLogger(HttpGuard.class);

  private final BearerTokens tokens;
  private final McpJsonMapper mapper;
  private final String endpoint;
  private final int maxBodyBytes;
  private final int maxConcurrentPerToken;
  private final Map<BearerTokens.Token, Semaphore> inFlight = new ConcurrentHashMap<>();
  private final Map<String, BearerTokens.Token> sessionOwners = new ConcurrentHashMap<>();

  HttpGuard(BearerTokens tokens, McpJsonMapper mapper, String endpoint, int maxBodyBytes, int maxConcurrentPerToken) {
    this.tokens = tokens;
    this.mapper = mapper;
    this.endpoint = endpoint;
    this.maxBodyBytes = maxBodyBytes;
    this.maxConcurrentPerToken = maxConcurrentPerToken;
  }

  @Override
  public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain) throws IOException {
    HttpServletRequest http = (HttpServletRequest) request;
    BearerTokens.Token token = tokens.tokenFor(http.getHeader("Authorization"));
    ShortErrorResponse out = new ShortErrorResponse((HttpServletResponse) response, id -> {
      if (token != null) {
        sessionOwners.put(id, token);
      }
    });
    try {
      guard(http, out, chain, token);
      out.finish();
    } catch (IOException | ServletException | RuntimeException e) {
      LOG.warn("HTTP {} {} failed", http.getMethod(), http.getRequestURI(), e);
      out.refuse(500, InboundFrame.INTERNAL_ERROR, "internal error", null);
    }
  }

  private void guard(HttpServletRequest http, ShortErrorResponse out, FilterChain chain, BearerTokens.@Nullable Token token)
      throws IOException, ServletException {
    if (token == null) {
      out.setHeader("WWW-Authenticate", "Bearer");
      out.refuse(401, InboundFrame.TRANSPORT_REFUSED, "a known bearer token is required", null);
      return;
    }
    if (!endpoint.equals(http.getRequestURI())) {
      out.refuse(404, InboundFrame.TRANSPORT_REFUSED, "not found; the MCP endpoint is " + endpoint, null);
      return;
    }
    String method = http.getMethod();
    if (!method.equals("POST") && !method.equals("GET") && !method.equals("DELETE")) {
      out.setHeader("Allow", "GET, POST, DELETE");
      out.refuse(405, InboundFrame.TRANSPORT_REFUSED, "method not allowed; use POST, GET or DELETE", null);
      return;
    }
    String session = http.getHeader(ShortErrorResponse.SESSION_HEADER);
    if (session != null && !token.equals(sessionOwners.get(session))) {
      // a session of another token answers exactly as one that does not exist
      out.refuse(404, InboundFrame.TRANSPORT_REFUSED, "session not found; initialize a new one", null);
      return;
    }
    if (method.equals("GET")) {
      if (session == null) {
        out.refuse(400, InboundFrame.TRANSPORT_REFUSED, "a GET needs the Mcp-Session-Id header of an initialized session", null);
      } else if (!accepts(http, "text/event-stream")) {
        out.refuse(406, InboundFrame.TRANSPORT_REFUSED, "a GET must accept text/event-stream", null);
      } else {
        http.setAttribute(TOKEN_ATTRIBUTE, token);
        chain.doFilter(http, out);
      }
      return;
    }
    if (method.equals("DELETE") && session == null) {
      out.refuse(400, InboundFrame.TRANSPORT_REFUSED, "a DELETE needs the Mcp-Session-Id header of the session to end", null);
      return;
    }
    Semaphore permits = inFlight.computeIfAbsent(token, t -> new Semaphore(maxConcurrentPerToken));
    if (!permits.tryAcquire()) {
      out.setHeader("Retry-After", "1");
      out.refuse(429, InboundFrame.TRANSPORT_REFUSED,
          "too many concurrent requests for this token; at most " + maxConcurrentPerToken + " at a time", null);
      return;
    }
    AtomicBoolean released = new AtomicBoolean();
    Runnable release = () -> {
      if (released.compareAndSet(false, true)) {
        permits.release();
      }
    };
    try {
      if (method.equals("DELETE")) {
        http.setAttribute(TOKEN_ATTRIBUTE, token);
        chain.doFilter(http, out);
        if (out.getStatus() < 300) {
          sessionOwners.remove(session);
        }
      } else {
        post(http, out, chain, token, session);
      }
    } finally {
      if (http.isAsyncStarted()) {
        http.getAsyncContext().addListener(new ReleaseOnEnd(release));
      } else {
        release.run();
      }
    }
  }

  private void post(HttpServletRequest http, ShortErrorResponse out, FilterChain chain, BearerTokens.Token token,
      @Nullable String session) throws IOException, ServletException {
    if (!isJsonUtf8(http.getContentType())) {
      out.refuse(415, InboundFrame.TRANSPORT_REFUSED, "Content-Type must be application/json (UTF-8)", null);
      return;
    }
    if (!accepts(http, "application/json") || !accepts(http, "text/event-stream")) {
      out.refuse(406, InboundFrame.TRANSPORT_REFUSED, "a POST must accept application/json and text/event-stream", null);
      return;
    }
    long declared = http.getContentLengthLong();
    if (declared > maxBodyBytes) {
      tooLarge(out);
      return;
    }
    byte[] body;
    try {
      body = readAtMost(http.getInputStream(), maxBodyBytes);
    } catch (IOException e) {
      out.refuse(400, InboundFrame.TRANSPORT_REFUSED, "the request body could not be read to its end", null);
      return;
    }
    if (body == null) {
      tooLarge(out);
      return;
    }
    InboundFrame.Checked checked = InboundFrame.check(body, mapper);
    if (checked instanceof InboundFrame.Refused refused) {
      out.refuse(400, refused.code(), refused.reason(), refused.id());
      return;
    }
    McpSchema.JSONRPCMessage message = ((InboundFrame.Message) checked).message();
    if (message instanceof McpSchema.JSONRPCResponse) {
      out.refuse(400, InboundFrame.INVALID_REQUEST, "Invalid Request: this server sends no requests, so it takes no responses", null);
      return;
    }
    boolean initialize = message instanceof McpSchema.JSONRPCRequest r && McpSchema.METHOD_INITIALIZE.equals(r.method());
    if (!initialize && session == null) {
      Object id = message instanceof McpSchema.JSONRPCRequest r ? r.id() : null;
      out.refuse(400, InboundFrame.TRANSPORT_REFUSED, "an Mcp-Session-Id header is required; send initialize first", id);
      return;
    }
    http.setAttribute(TOKEN_ATTRIBUTE, token);
    chain.doFilter(new BufferedRequest(http, body), out);
  }

  private void tooLarge(ShortErrorResponse out) throws IOException {
    // the rest of the body is not read: the connection closes after this answer
    out.setHeader("Connection", "close");
    out.refuse(413, InboundFrame.TRANSPORT_REFUSED, "the request body is larger than " + maxBodyBytes + " bytes", null);
  }

  /** The stream's bytes, or null when there are more than {@code max}; never reads more than max + 1. */
  static byte @Nullable [] readAtMost(InputStream in, int max) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream(Math.min(max, 16 * 1024));
    byte[] buffer = new byte[8192];
    while (true) {
      int n = in.read(buffer, 0, Math.min(buffer.length, max + 1 - out.size()));
      if (n < 0) {
        return out.toByteArray();
      }
      out.write(buffer, 0, n);
      if (out.size() > max) {
        return null;
      }
    }
  }

  private static boolean isJsonUtf8(@Nullable String contentType) {
    if (contentType == null) {
      return false;
    }
    String[] parts = contentType.split(";");
    if (!parts[0].strip().equalsIgnoreCase("application/json")) {
      return false;
    }
    for (int i = 1; i < parts.length; i++) {
      String p = parts[i].strip().toLowerCase(Locale.ROOT);
      if (p.startsWith("charset=")) {
        String cs = p.substring("charset=".length()).replace("\"", "");
        if (!cs.equals("utf-8") && !cs.equals("utf8")) {
          return false;
        }
      }
    }
    return true;
  }

  private static boolean accepts(HttpServletRequest http, String type) {
    String accept = http.getHeader("Accept");
    return accept != null && accept.toLowerCase(Locale.ROOT).contains(type);
  }

  /** Releases a request's permit when its asynchronous response ends, however it ends. */
  private record ReleaseOnEnd(Runnable release) implements AsyncListener {
    @Override
    public void onComplete(AsyncEvent event) {
      release.run();
    }

    @Override
    public void onTimeout(AsyncEvent event) {
      release.run();
    }

    @Override
    public void onError(AsyncEvent event) {
      release.run();
    }

    @Override
    public void onStartAsync(AsyncEvent event) {
      event.getAsyncContext().addListener(this);
    }
  }
}
