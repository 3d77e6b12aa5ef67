/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.mcp;

import io.modelcontextprotocol.json.McpJsonMapper;
import io.modelcontextprotocol.json.TypeRef;
import io.modelcontextprotocol.spec.McpSchema;
import io.modelcontextprotocol.spec.McpServerSession;
import io.modelcontextprotocol.spec.McpServerTransport;
import io.modelcontextprotocol.spec.McpServerTransportProvider;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

/**
 * MCP over stdio: one JSON-RPC message per line on stdin, one per line on stdout.
 *
 * <ul>
 *   <li>Every line is checked before the SDK sees it ({@link InboundFrame}): a line that is not JSON is
 *       answered with a parse error (-32700, id null), JSON that is no JSON-RPC message with an invalid
 *       request error (-32600), a line longer than the limit with -32600 (its bytes are skipped, never
 *       buffered); blank lines are ignored. Reading goes on after each of them.</li>
 *   <li>{@code initialize} is answered before the next line is read; requests other than {@code ping}
 *       are handled one at a time in the order they arrived, so a {@code memory_search} sent right
 *       after a {@code memory_write} sees that write; notifications, {@code ping} and responses are
 *       handled as they arrive.</li>
 *   <li>When stdin ends, {@link #serve} waits until every request read was answered (at most the grace
 *       period; what is still running then is reported on stderr) and returns.</li>
 * </ul>
 */
final class StdioTransport implements McpServerTransportProvider {
  private static final Logger LOG = LoggerFactory.getLogger(StdioTransport.class);

  private final McpJsonMapper mapper;
  private final InputStream in;
  private final OutputStream out;
  private final int maxLineBytes;
  private final Duration grace;
  private final Object writeLock = new Object();
  private final Object pendingLock = new Object();
  private final ExecutorService inOrder = Executors.newSingleThreadExecutor(r -> {
    Thread t = new Thread(r, "memory-mcp-requests");
    t.setDaemon(true);
    return t;
  });
  private int pending;
  private volatile @Nullable McpServerSession session;
  private volatile boolean outputClosed;

  /**
   * @param maxLineBytes the longest line taken, in bytes without the line end
   * @param grace how long the end of stdin waits for the answers still owed
   */
  StdioTransport(McpJsonMapper mapper, InputStream in, OutputStream out, int maxLineBytes, Duration grace) {
    this.mapper = mapper;
    this.in = in;
    this.out = out;
    this.maxLineBytes = maxLineBytes;
    this.grace = grace;
  }

  @Override
  public void setSessionFactory(McpServerSession.Factory sessionFactory) {
    this.session = sessionFactory.create(new SessionTransport());
  }

  @Override
  public Mono<Void> notifyClients(String method, Object params) {
    McpServerSession s = session;
    return s == null ? Mono.error(new IllegalStateException("no stdio session yet")) : s.sendNotification(method, params);
  }

  @Override
  public Mono<Void> closeGracefully() {
    McpServerSession s = session;
    return s == null ? Mono.empty() : s.closeGracefully();
  }

  /**
   * Reads stdin to its end and returns once every request read was answered or the grace period ran
   * out.
   *
   * @throws IOException when stdin cannot be read
   * @throws InterruptedException when interrupted while waiting for the last answers
   */
  void serve() throws IOException, InterruptedException {
    McpServerSession s = session;
    if (s == null) {
      throw new IllegalStateException("the MCP server was not built over this transport");
    }
    LineReader lines = new LineReader(in, maxLineBytes);
    try {
      for (LineReader.Line line = lines.next(); line != null; line = lines.next()) {
        if (line.oversized()) {
          send(InboundFrame.error(InboundFrame.INVALID_REQUEST,
              "Invalid Request: the line is longer than " + maxLineBytes + " bytes", null));
        } else if (!line.isBlank()) {
          InboundFrame.Checked checked = InboundFrame.check(line.bytes(), mapper);
          if (checked instanceof InboundFrame.Refused refused) {
            send(InboundFrame.error(refused));
          } else {
            dispatch(s, ((InboundFrame.Message) checked).message());
          }
        }
      }
    } finally {
      awaitAnswers();
      inOrder.shutdownNow();
    }
  }

  private void dispatch(McpServerSession s, McpSchema.JSONRPCMessage message) {
    begin();
    if (message instanceof McpSchema.JSONRPCRequest r && !McpSchema.METHOD_PING.equals(r.method())) {
      if (McpSchema.METHOD_INITIALIZE.equals(r.method())) {
        // the client's name and capabilities are known before the next line (its initialized notification) is read
        handle(s, message);
      } else {
        inOrder.execute(() -> handle(s, message));
      }
      return;
    }
    try {
      s.handle(message).doFinally(signal -> end())
          .subscribe(ignored -> { }, e -> LOG.warn("stdio: a message could not be handled: {}", e.toString()));
    } catch (RuntimeException e) {
      end();
      LOG.warn("stdio: a message could not be handled: {}", e.toString());
    }
  }

  private void handle(McpServerSession s, McpSchema.JSONRPCMessage message) {
    try {
      s.handle(message).block();
    } catch (RuntimeException e) {
      LOG.warn("stdio: a request could not be answered: {}", e.toString());
    } finally {
      end();
    }
  }

  private void begin() {
    synchronized (pendingLock) {
      pending++;
    }
  }

  private void end() {
    synchronized (pendingLock) {
      pending--;
      pendingLock.notifyAll();
    }
  }

  private void awaitAnswers() throws InterruptedException {
    long deadline = System.nanoTime() + grace.toNanos();
    synchronized (pendingLock) {
      while (pending > 0) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          LOG.warn("stdin ended; {} request(s) still running after {} s are left unanswered", pending, grace.toSeconds());
          return;
        }
        TimeUnit.NANOSECONDS.timedWait(pendingLock, left);
      }
    }
  }

  private void send(String json) {
    byte[] bytes = (json + "\n").getBytes(StandardCharsets.UTF_8);
    synchronized (writeLock) {
      if (outputClosed) {
        throw new UncheckedIOException(new IOException("stdout is closed"));
      }
      try {
        out.write(bytes);
        out.flush();
      } catch (IOException e) {
        outputClosed = true;
        LOG.warn("stdout cannot be written ({}); no further answers can reach the client", e.toString());
        throw new UncheckedIOException(e);
      }
    }
  }

  /** The one session of the stdio connection; its messages go to stdout, one line each. */
  private final class SessionTransport implements McpServerTransport {
    @Override
    public Mono<Void> sendMessage(McpSchema.JSONRPCMessage message) {
      return Mono.fromRunnable(() -> {
        String json;
        try {
          json = mapper.writeValueAsString(message);
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
        send(json);
      });
    }

    @Override
    public <T> T unmarshalFrom(Object data, TypeRef<T> typeRef) {
      return mapper.convertValue(data, typeRef);
    }

    @Override
    public Mono<Void> closeGracefully() {
      return Mono.empty();
    }

    @Override
    public void close() {
      // stdout stays open until the process exits: answers still owed must reach the client
    }
  }

  /** Splits a stream into lines at {@code \n} (a {@code \r} before it is dropped), at most a bound of bytes each. */
  static final class LineReader {
    private final InputStream in;
    private final int maxBytes;
    private final byte[] buffer = new byte[8192];
    private int pos;
    private int len;

    LineReader(InputStream in, int maxBytes) {
      this.in = in;
      this.maxBytes = maxBytes;
    }

    /** A line; when {@code oversized}, its bytes were skipped and {@code bytes} is empty. */
    record Line(byte[] bytes, boolean oversized) {
      boolean isBlank() {
        for (byte b : bytes) {
          if (b != ' ' && b != '\t') {
            return false;
          }
        }
        return true;
      }
    }

    /** The next line, or null at the end of the stream (a last line without a line end counts). */
    @Nullable Line next() throws IOException {
      ByteArrayOutputStream line = new ByteArrayOutputStream();
      boolean oversized = false;
      boolean any = false;
      while (true) {
        if (pos == len) {
          int n = in.read(buffer);
          if (n < 0) {
            len = 0;
            pos = 0;
            return any ? finish(line, oversized) : null;
          }
          pos = 0;
          len = n;
          continue;
        }
        any = true;
        int start = pos;
        while (pos < len && buffer[pos] != '\n') {
          pos++;
        }
        int n = pos - start;
        if (!oversized) {
          if (line.size() + n > maxBytes + 1) {
            oversized = true;
            line = new ByteArrayOutputStream();
          } else {
            line.write(buffer, start, n);
          }
        }
        if (pos < len) {
          pos++;
          return finish(line, oversized);
        }
      }
    }

    private Line finish(ByteArrayOutputStream line, boolean oversized) {
      if (oversized) {
        return new Line(new byte[0], true);
      }
      byte[] bytes = line.toByteArray();
      int n = bytes.length;
      if (n > 0 && bytes[n - 1] == '\r') {
        n--;
      }
      if (n > maxBytes) {
        return new Line(new byte[0], true);
      }
      return new Line(n == bytes.length ? bytes : Arrays.copyOf(bytes, n), false);
    }
  }
}
