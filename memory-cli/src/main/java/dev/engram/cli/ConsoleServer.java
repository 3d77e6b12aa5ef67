/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.cli;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The console's HTTP/1.1 server, bounded so that slow or idle clients cannot lock it.
 *
 * <p>One I/O thread owns every socket. It accepts, reads each request (head and body) without
 * blocking, and writes each response without blocking; a connection that has not delivered its whole
 * request within the timeout of being accepted, or not taken its whole response within the timeout of
 * it being ready, is closed. Only complete requests reach the worker threads, which never touch a
 * socket, so connections that send nothing, or half a request line, hold no worker. At most
 * {@link #MAX_CONNECTIONS} connections are open at once; a new one beyond that displaces the oldest
 * connection still sending its request, or is closed when every open connection has a complete
 * request. Every response closes its connection ({@code Connection: close}); request bodies need a
 * {@code Content-Length}.
 */
final class ConsoleServer implements AutoCloseable {
  /** Threads that run the handler; they only ever see complete requests. */
  static final int WORKERS = 4;
  /** Connections open at once, in every state. */
  static final int MAX_CONNECTIONS = 128;
  /** Bytes of request line and header fields together. */
  static final int MAX_HEAD = 16 * 1024;
  /** Header fields in one request. */
  static final int MAX_HEADERS = 100;

  private static final Logger LOG = LoggerFactory.getLogger(ConsoleServer.class);
  private static final DateTimeFormatter DATE = DateTimeFormatter.RFC_1123_DATE_TIME;

  /** Turns a complete request into a response by calling one of the exchange's {@code respond} methods. */
  @FunctionalInterface
  interface Handler {
    void handle(Exchange exchange);
  }

  private final ServerSocketChannel listener;
  private final Selector selector;
  private final Handler handler;
  private final List<String[]> always;
  private final long timeoutNanos;
  private final int maxBody;
  private final ExecutorService workers;
  private final Thread io;
  /** Connections whose response a worker has finished; the I/O thread takes them up. */
  private final Queue<Connection> answered = new ConcurrentLinkedQueue<>();
  /** Every open connection in the order it was accepted; the I/O thread's alone. */
  private final Set<Connection> open = new LinkedHashSet<>();
  private final int port;
  private volatile boolean running = true;

  /**
   * Binds and starts serving.
   *
   * @param address where to listen
   * @param timeout how long a connection may take to send its request and, once answered, to take its response
   * @param maxBody the largest request body accepted, in bytes
   * @param always header fields every response carries, the server's own refusals included, as name-value pairs
   * @param handler what answers complete requests, on one of {@link #WORKERS} threads
   * @throws IOException when the address cannot be bound
   */
  ConsoleServer(InetSocketAddress address, Duration timeout, int maxBody, List<String[]> always, Handler handler)
      throws IOException {
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("the console's timeout must be positive, was " + timeout);
    }
    this.timeoutNanos = timeout.toNanos();
    this.maxBody = maxBody;
    this.always = List.copyOf(always);
    this.handler = handler;
    this.selector = Selector.open();
    this.listener = ServerSocketChannel.open();
    try {
      listener.bind(address, 64);
      listener.configureBlocking(false);
      listener.register(selector, SelectionKey.OP_ACCEPT);
    } catch (IOException | RuntimeException e) {
      listener.close();
      selector.close();
      throw e;
    }
    this.port = ((InetSocketAddress) listener.getLocalAddress()).getPort();
    AtomicInteger n = new AtomicInteger();
    this.workers = Executors.newFixedThreadPool(WORKERS, r -> {
      Thread t = new Thread(r, "engram-console-" + n.incrementAndGet());
      t.setDaemon(true);
      return t;
    });
    this.io = new Thread(this::serve, "engram-console-io");
    io.setDaemon(true);
    io.start();
  }

  /** The port listened on. */
  int port() {
    return port;
  }

  @Override
  public void close() {
    running = false;
    selector.wakeup();
    try {
      io.join(TimeUnit.SECONDS.toMillis(5));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    workers.shutdownNow();
  }

  // ---------------------------------------------------------------- the I/O thread

  private void serve() {
    try {
      while (running) {
        selector.select(Math.max(1, TimeUnit.NANOSECONDS.toMillis(untilNextDeadline())));
        for (Connection c; (c = answered.poll()) != null; ) {
          startWriting(c);
        }
        Iterator<SelectionKey> keys = selector.selectedKeys().iterator();
        while (keys.hasNext()) {
          SelectionKey key = keys.next();
          keys.remove();
          if (key.channel() == listener) {
            accept();
          } else if (key.isValid() && key.attachment() instanceof Connection c) {
            step(c, key);
          }
        }
        expire();
      }
    } catch (IOException | RuntimeException e) {
      LOG.error("the console's server stopped", e);
    } finally {
      for (Connection c : List.copyOf(open)) {
        drop(c);
      }
      quietly(listener);
      quietly(selector);
    }
  }

  private long untilNextDeadline() {
    long now = System.nanoTime();
    long wait = TimeUnit.SECONDS.toNanos(1);
    for (Connection c : open) {
      if (c.state != State.HANDLING) {
        wait = Math.min(wait, c.deadline - now);
      }
    }
    return wait;
  }

  private void accept() throws IOException {
    for (SocketChannel ch; (ch = listener.accept()) != null; ) {
      if (open.size() >= MAX_CONNECTIONS && !displaceOldestReader()) {
        LOG.debug("console: {} connections open, all with a complete request; refusing one", open.size());
        quietly(ch);
        continue;
      }
      try {
        ch.configureBlocking(false);
        ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
        SelectionKey key = ch.register(selector, SelectionKey.OP_READ);
        Connection c = new Connection(ch, key, System.nanoTime() + timeoutNanos);
        key.attach(c);
        open.add(c);
      } catch (IOException e) {
        quietly(ch);
      }
    }
  }

  private boolean displaceOldestReader() {
    for (Connection c : open) {
      if (c.state == State.READING) {
        LOG.debug("console: {} connections open; closing the oldest one still sending its request", open.size());
        drop(c);
        return true;
      }
    }
    return false;
  }

  private void expire() {
    long now = System.nanoTime();
    List<Connection> late = new ArrayList<>();
    for (Connection c : open) {
      if (c.state != State.HANDLING && now - c.deadline >= 0) {
        late.add(c);
      }
    }
    for (Connection c : late) {
      LOG.debug("console: closing a connection that was still {} at its deadline", c.state);
      drop(c);
    }
  }

  private void step(Connection c, SelectionKey key) {
    try {
      if (c.state == State.READING && key.isReadable()) {
        read(c);
      } else if (c.state == State.WRITING && key.isWritable()) {
        write(c);
      }
    } catch (IOException | RuntimeException e) {
      LOG.debug("console: connection failed", e);
      drop(c);
    }
  }

  private void read(Connection c) throws IOException {
    if (!c.in.hasRemaining()) {
      int limit = c.headEnd < 0 ? MAX_HEAD : c.headEnd + c.bodyLength;
      if (c.in.capacity() >= limit) {
        refuse(c, 431, "the request line and header fields are over " + MAX_HEAD + " bytes");
        return;
      }
      c.in = ByteBuffer.allocate(Math.min(limit, c.in.capacity() * 2)).put(c.in.flip());
    }
    if (c.channel.read(c.in) < 0) {
      drop(c);
      return;
    }
    if (c.headEnd < 0) {
      c.headEnd = headEnd(c.in, c.scanned);
      if (c.headEnd < 0) {
        c.scanned = Math.max(0, c.in.position() - 3);
        if (c.in.position() >= MAX_HEAD) {
          refuse(c, 431, "the request line and header fields are over " + MAX_HEAD + " bytes");
        }
        return;
      }
      if (c.headEnd > MAX_HEAD) {
        refuse(c, 431, "the request line and header fields are over " + MAX_HEAD + " bytes");
        return;
      }
      try {
        c.exchange = parse(new String(c.in.array(), 0, c.headEnd, StandardCharsets.ISO_8859_1));
        c.bodyLength = bodyLength(c.exchange);
      } catch (BadRequest e) {
        refuse(c, e.status, e.getMessage());
        return;
      }
    }
    if (c.in.position() >= c.headEnd + c.bodyLength) {
      Exchange ex = c.exchange;
      ex.body = Arrays.copyOfRange(c.in.array(), c.headEnd, c.headEnd + c.bodyLength);
      c.in = ByteBuffer.allocate(0);
      c.state = State.HANDLING;
      c.key.interestOps(0);
      workers.execute(() -> handle(c));
    }
  }

  /** Where the head ends (just past its empty line), or -1 while it has not ended. */
  private static int headEnd(ByteBuffer in, int from) {
    byte[] b = in.array();
    int end = in.position();
    for (int i = from; i < end; i++) {
      if (b[i] == '\n') {
        if (i + 1 < end && b[i + 1] == '\n') {
          return i + 2;
        }
        if (i + 2 < end && b[i + 1] == '\r' && b[i + 2] == '\n') {
          return i + 3;
        }
      }
    }
    return -1;
  }

  private void refuse(Connection c, int status, String message) {
    Exchange ex = new Exchange("GET", URI.create("/"), new TreeMap<>(String.CASE_INSENSITIVE_ORDER));
    ex.addHeader("Content-Type", "text/plain; charset=utf-8");
    ex.respond(status, message.getBytes(StandardCharsets.UTF_8));
    c.exchange = ex;
    c.in = ByteBuffer.allocate(0);
    startWriting(c);
  }

  private void startWriting(Connection c) {
    if (!c.channel.isOpen()) {
      return;
    }
    try {
      c.out = ByteBuffer.wrap(render(c.exchange));
      c.state = State.WRITING;
      c.deadline = System.nanoTime() + timeoutNanos;
      c.key.interestOps(SelectionKey.OP_WRITE);
      write(c);
    } catch (IOException | RuntimeException e) {
      LOG.debug("console: writing a response failed", e);
      drop(c);
    }
  }

  private void write(Connection c) throws IOException {
    c.channel.write(c.out);
    if (!c.out.hasRemaining()) {
      c.channel.shutdownOutput();
      drop(c);
    }
  }

  private void drop(Connection c) {
    open.remove(c);
    c.key.cancel();
    quietly(c.channel);
  }

  private static void quietly(java.io.Closeable c) {
    try {
      c.close();
    } catch (IOException ignored) {
      // closing is all that is left to do with it
    }
  }

  // ---------------------------------------------------------------- a worker

  private void handle(Connection c) {
    Exchange ex = c.exchange;
    try {
      handler.handle(ex);
    } catch (RuntimeException e) {
      LOG.error("console request {} {} failed", ex.method, ex.uri.getRawPath(), e);
    } finally {
      if (ex.status == 0) {
        ex.responseHeaders.clear();
        ex.addHeader("Content-Type", "text/plain; charset=utf-8");
        ex.respond(500, "the console failed on this request; its log says why".getBytes(StandardCharsets.UTF_8));
      }
      answered.add(c);
      selector.wakeup();
    }
  }

  // ---------------------------------------------------------------- HTTP/1.1

  private static Exchange parse(String head) throws BadRequest {
    String[] lines = head.split("\n", -1);
    String requestLine = strip(lines[0]);
    String[] parts = requestLine.split(" ", -1);
    if (parts.length != 3 || !token(parts[0]) || parts[1].isEmpty()) {
      throw new BadRequest(400, "malformed request line");
    }
    if (!parts[2].equals("HTTP/1.1") && !parts[2].equals("HTTP/1.0")) {
      throw new BadRequest(parts[2].startsWith("HTTP/") ? 505 : 400, "this console speaks HTTP/1.1");
    }
    if (!parts[1].startsWith("/")) {
      throw new BadRequest(400, "the request target must be a path");
    }
    URI uri;
    try {
      uri = new URI(parts[1]);
    } catch (URISyntaxException e) {
      throw new BadRequest(400, "malformed request target");
    }
    Map<String, List<String>> headers = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    int count = 0;
    for (int i = 1; i < lines.length; i++) {
      String line = strip(lines[i]);
      if (line.isEmpty()) {
        continue;
      }
      if (++count > MAX_HEADERS) {
        throw new BadRequest(431, "more than " + MAX_HEADERS + " header fields");
      }
      int colon = line.indexOf(':');
      if (colon <= 0 || !token(line.substring(0, colon))) {
        throw new BadRequest(400, "malformed header field");
      }
      String value = line.substring(colon + 1).strip();
      if (value.indexOf('\r') >= 0) {
        throw new BadRequest(400, "malformed header field");
      }
      headers.computeIfAbsent(line.substring(0, colon), k -> new ArrayList<>()).add(value);
    }
    return new Exchange(parts[0], uri, headers);
  }

  private int bodyLength(Exchange ex) throws BadRequest {
    if (ex.requestHeaders.containsKey("Transfer-Encoding")) {
      throw new BadRequest(411, "a request body needs a Content-Length");
    }
    List<String> lengths = ex.requestHeaders.get("Content-Length");
    if (lengths == null) {
      return 0;
    }
    String first = lengths.get(0);
    for (String l : lengths) {
      if (!l.equals(first)) {
        throw new BadRequest(400, "conflicting Content-Length");
      }
    }
    if (first.isEmpty() || first.length() > 18 || !first.chars().allMatch(ch -> ch >= '0' && ch <= '9')) {
      throw new BadRequest(400, "malformed Content-Length");
    }
    long length = Long.parseLong(first);
    if (length > maxBody) {
      throw new BadRequest(413, "request body over " + maxBody + " bytes");
    }
    return (int) length;
  }

  private byte[] render(Exchange ex) {
    StringBuilder head = new StringBuilder(512);
    head.append("HTTP/1.1 ").append(ex.status).append(' ').append(reason(ex.status)).append("\r\n");
    head.append("Date: ").append(DATE.format(ZonedDateTime.now(ZoneOffset.UTC))).append("\r\n");
    for (String[] h : always) {
      field(head, h[0], h[1]);
    }
    for (String[] h : ex.responseHeaders) {
      field(head, h[0], h[1]);
    }
    head.append("Content-Length: ").append(ex.responseBody.length).append("\r\n");
    head.append("Connection: close\r\n\r\n");
    ByteArrayOutputStream out = new ByteArrayOutputStream(head.length() + ex.responseBody.length);
    out.writeBytes(head.toString().getBytes(StandardCharsets.ISO_8859_1));
    if (!ex.method.equals("HEAD")) {
      out.writeBytes(ex.responseBody);
    }
    return out.toByteArray();
  }

  private static void field(StringBuilder head, String name, String value) {
    if (!token(name) || value.indexOf('\r') >= 0 || value.indexOf('\n') >= 0) {
      throw new IllegalArgumentException("header field " + name + " cannot be sent as given");
    }
    head.append(name).append(": ").append(value).append("\r\n");
  }

  private static String strip(String line) {
    return line.endsWith("\r") ? line.substring(0, line.length() - 1) : line;
  }

  private static boolean token(String s) {
    if (s.isEmpty()) {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      char ch = s.charAt(i);
      boolean ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9')
          || "!#$%&'*+-.^_`|~".indexOf(ch) >= 0;
      if (!ok) {
        return false;
      }
    }
    return true;
  }

  private static String reason(int status) {
    return switch (status) {
      case 200 -> "OK";
      case 303 -> "See Other";
      case 400 -> "Bad Request";
      case 401 -> "Unauthorized";
      case 403 -> "Forbidden";
      case 404 -> "Not Found";
      case 405 -> "Method Not Allowed";
      case 409 -> "Conflict";
      case 411 -> "Length Required";
      case 413 -> "Content Too Large";
      case 421 -> "Misdirected Request";
      case 431 -> "Request Header Fields Too Large";
      case 500 -> "Internal Server Error";
      case 503 -> "Service Unavailable";
      case 505 -> "HTTP Version Not Supported";
      default -> "";
    };
  }

  /** A request the server answers itself, with the status that says why. */
  private static final class BadRequest extends Exception {
    private static final long serialVersionUID = 1L;
    final int status;

    BadRequest(int status, String message) {
      super(message);
      this.status = status;
    }
  }

  /** The exchange of a connection whose request head has not ended yet. */
  private static final Exchange NONE = new Exchange("GET", URI.create("/"), Map.of());

  private enum State { READING, HANDLING, WRITING }

  /** One accepted socket; its fields belong to the I/O thread except while a worker handles it. */
  private static final class Connection {
    final SocketChannel channel;
    final SelectionKey key;
    State state = State.READING;
    long deadline;
    ByteBuffer in = ByteBuffer.allocate(2048);
    int scanned;
    int headEnd = -1;
    int bodyLength;
    /** The request once its head is read; then the response. */
    Exchange exchange = NONE;
    ByteBuffer out = ByteBuffer.allocate(0);

    Connection(SocketChannel channel, SelectionKey key, long deadline) {
      this.channel = channel;
      this.key = key;
      this.deadline = deadline;
    }
  }

  /** One complete request and, once a {@code respond} method has run, its response. */
  static final class Exchange {
    private final String method;
    private final URI uri;
    private final Map<String, List<String>> requestHeaders;
    private byte[] body = new byte[0];
    private final List<String[]> responseHeaders = new ArrayList<>();
    private int status;
    private byte[] responseBody = new byte[0];

    Exchange(String method, URI uri, Map<String, List<String>> requestHeaders) {
      this.method = method;
      this.uri = uri;
      this.requestHeaders = requestHeaders;
    }

    String method() {
      return method;
    }

    URI uri() {
      return uri;
    }

    /** The first value of a request header field, the name in any case. */
    @Nullable String header(String name) {
      List<String> values = requestHeaders.get(name);
      return values == null ? null : values.get(0);
    }

    /** Every value of a request header field, the name in any case. */
    List<String> headers(String name) {
      return requestHeaders.getOrDefault(name, List.of());
    }

    /** The request body, at most the server's limit. */
    byte[] body() {
      return body;
    }

    /** Adds a response header field. */
    void addHeader(String name, String value) {
      responseHeaders.add(new String[] {name, value});
    }

    /** Sets the response; the last call wins. */
    void respond(int status, byte[] body) {
      this.status = status;
      this.responseBody = body;
    }
  }
}
