/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.mcp;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.concurrent.TimeUnit;

/**
 * Watches the stdio streams so that the server can stop when the client closes stdin without dropping
 * answers still owed: it counts the JSON-RPC requests read (messages with an {@code id} and a
 * {@code method}) and the responses written, and holds the end of stdin back from the transport (which
 * closes its output when its input ends) until every request read was answered or the grace period ran
 * out. {@link #awaitEndOfInput} returns once that end was delivered.
 */
final class StdioExchangeTracker {
  private static final ObjectMapper JSON = new ObjectMapper();
  private final Object lock = new Object();
  private final int graceSeconds;
  private long requests;
  private long responses;
  private boolean ended;

  /** @param graceSeconds how long the end of stdin waits for answers still owed */
  StdioExchangeTracker(int graceSeconds) {
    this.graceSeconds = graceSeconds;
  }

  InputStream watch(InputStream in) {
    return new FilterInputStream(in) {
      private final ByteArrayOutputStream line = new ByteArrayOutputStream();

      @Override
      public int read() throws IOException {
        int b = super.read();
        if (b < 0) {
          end();
        } else {
          seen(new byte[] {(byte) b}, 0, 1);
        }
        return b;
      }

      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        int n = super.read(b, off, len);
        if (n < 0) {
          end();
        } else {
          seen(b, off, n);
        }
        return n;
      }

      private void seen(byte[] b, int off, int n) {
        for (int i = off; i < off + n; i++) {
          if (b[i] == '\n') {
            if (isRequest(line.toByteArray())) {
              synchronized (lock) {
                requests++;
              }
            }
            line.reset();
          } else if (line.size() < 16 * 1024 * 1024) {
            line.write(b[i]);
          }
        }
      }
    };
  }

  OutputStream watch(OutputStream out) {
    return new FilterOutputStream(out) {
      private final ByteArrayOutputStream line = new ByteArrayOutputStream();

      @Override
      public void write(int b) throws IOException {
        out.write(b);
        seen((byte) b);
      }

      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        out.write(b, off, len);
        for (int i = off; i < off + len; i++) {
          seen(b[i]);
        }
      }

      private void seen(byte b) throws IOException {
        if (b == '\n') {
          out.flush();
          if (isResponse(line.toByteArray())) {
            synchronized (lock) {
              responses++;
              lock.notifyAll();
            }
          }
          line.reset();
        } else if (line.size() < 16 * 1024 * 1024) {
          line.write(b);
        }
      }
    };
  }

  /** Called by the reader when stdin ended: waits for the answers still owed, then lets the end through. */
  private void end() throws IOException {
    synchronized (lock) {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(graceSeconds);
      try {
        while (responses < requests) {
          long left = deadline - System.nanoTime();
          if (left <= 0) {
            break;
          }
          TimeUnit.NANOSECONDS.timedWait(lock, left);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new java.io.InterruptedIOException("interrupted while answering the last requests");
      } finally {
        ended = true;
        lock.notifyAll();
      }
    }
  }

  /** Blocks until the end of stdin was delivered to the transport. */
  void awaitEndOfInput() throws InterruptedException {
    synchronized (lock) {
      while (!ended) {
        lock.wait();
      }
    }
  }

  private static boolean isRequest(byte[] line) {
    JsonNode n = parse(line);
    return n != null && n.has("id") && n.has("method");
  }

  private static boolean isResponse(byte[] line) {
    JsonNode n = parse(line);
    return n != null && n.has("id") && !n.has("method") && (n.has("result") || n.has("error"));
  }

  private static JsonNode parse(byte[] line) {
    if (line.length == 0) {
      return null;
    }
    try {
      JsonNode n = JSON.readTree(line);
      return n != null && n.isObject() ? n : null;
    } catch (IOException e) {
      return null;
    }
  }
}
