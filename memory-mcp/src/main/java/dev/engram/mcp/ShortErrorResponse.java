/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.mcp;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpServletResponseWrapper;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * A response whose every error is a short JSON-RPC error object: an error status set below (by the SDK
 * or the container) keeps its status, but its body (which may be a serialized exception) is discarded
 * and replaced by {@link InboundFrame#error} with a fixed message for the status; {@code sendError}
 * never renders the container's error page. It also reports the {@code Mcp-Session-Id} a response
 * assigns, before anything is written, so the session is bound before its client can use it.
 */
final class ShortErrorResponse extends HttpServletResponseWrapper {
  static final String SESSION_HEADER = "Mcp-Session-Id";

  private final Consumer<String> sessionAssigned;
  private int errorStatus;
  private boolean errorWritten;

  ShortErrorResponse(HttpServletResponse response, Consumer<String> sessionAssigned) {
    super(response);
    this.sessionAssigned = sessionAssigned;
  }

  /** Answers with this status and a JSON-RPC error; does nothing once the response is committed. */
  void refuse(int status, int code, String message, @Nullable Object id) throws IOException {
    HttpServletResponse r = (HttpServletResponse) getResponse();
    if (r.isCommitted() || errorWritten) {
      return;
    }
    errorStatus = status;
    errorWritten = true;
    r.resetBuffer();
    r.setStatus(status);
    r.setContentType("application/json");
    r.setCharacterEncoding("UTF-8");
    String json = InboundFrame.error(code, message, id);
    byte[] body = json.getBytes(StandardCharsets.UTF_8);
    r.setContentLength(body.length);
    try {
      r.getOutputStream().write(body);
    } catch (IllegalStateException writerInUse) {
      r.getWriter().write(json);
    }
  }

  /** Writes the short error for an error status set below whose body was discarded. */
  void finish() throws IOException {
    if (errorStatus > 0 && !errorWritten) {
      refuse(errorStatus, errorStatus >= 500 ? InboundFrame.INTERNAL_ERROR : InboundFrame.TRANSPORT_REFUSED,
          reasonFor(errorStatus), null);
    }
  }

  static String reasonFor(int status) {
    return switch (status) {
      case 400 -> "bad request";
      case 401 -> "a known bearer token is required";
      case 403 -> "forbidden";
      case 404 -> "not found";
      case 405 -> "method not allowed";
      case 406 -> "not acceptable";
      case 413 -> "the request body is too large";
      case 415 -> "Content-Type must be application/json";
      case 429 -> "too many concurrent requests";
      case 503 -> "the server is shutting down";
      default -> status >= 500 ? "internal error" : "request refused";
    };
  }

  @Override
  public void setStatus(int sc) {
    super.setStatus(sc);
    if (sc >= 400 && !errorWritten) {
      errorStatus = sc;
    }
  }

  @Override
  public void sendError(int sc) throws IOException {
    errorStatus = sc;
    finish();
  }

  @Override
  public void sendError(int sc, String msg) throws IOException {
    sendError(sc);
  }

  @Override
  public void setHeader(String name, String value) {
    noteSession(name, value);
    super.setHeader(name, value);
  }

  @Override
  public void addHeader(String name, String value) {
    noteSession(name, value);
    super.addHeader(name, value);
  }

  private void noteSession(String name, @Nullable String value) {
    if (value != null && SESSION_HEADER.equalsIgnoreCase(name)) {
      sessionAssigned.accept(value);
    }
  }

  @Override
  public PrintWriter getWriter() throws IOException {
    return discarding() ? new PrintWriter(Writer.nullWriter()) : super.getWriter();
  }

  @Override
  public ServletOutputStream getOutputStream() throws IOException {
    if (!discarding()) {
      return super.getOutputStream();
    }
    OutputStream sink = OutputStream.nullOutputStream();
    return new ServletOutputStream() {
      @Override
      public boolean isReady() {
        return true;
      }

      @Override
      public void setWriteListener(WriteListener listener) {
        try {
          listener.onWritePossible();
        } catch (IOException e) {
          listener.onError(e);
        }
      }

      @Override
      public void write(int b) throws IOException {
        sink.write(b);
      }
    };
  }

  @Override
  public void flushBuffer() throws IOException {
    if (!discarding()) {
      super.flushBuffer();
    }
  }

  private boolean discarding() {
    return errorStatus > 0 && !errorWritten;
  }
}
