/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.http;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import org.jspecify.annotations.Nullable;

/**
 * Collects a response body up to a limit. Past the limit it either keeps the first {@code limit}
 * bytes and stops reading ({@code truncate}) or fails with {@link TooLarge}.
 */
final class LimitedBody implements HttpResponse.BodySubscriber<byte[]> {

  /** The body was longer than the limit. */
  static final class TooLarge extends IOException {
    private static final long serialVersionUID = 1L;

    TooLarge(long limit) {
      super("response body exceeds " + limit + " bytes");
    }
  }

  private final long limit;
  private final boolean truncate;
  private final CompletableFuture<byte[]> result = new CompletableFuture<>();
  private final ByteArrayOutputStream buffer = new ByteArrayOutputStream();
  private volatile Flow.@Nullable Subscription subscription;

  LimitedBody(long limit, boolean truncate) {
    this.limit = limit;
    this.truncate = truncate;
  }

  /** Fails at once, before reading anything, when the declared length is already too long. */
  void rejectDeclaredLength(long contentLength) {
    if (!truncate && contentLength > limit) {
      result.completeExceptionally(new TooLarge(limit));
    }
  }

  /** Stops reading; the body stage fails. Safe to call from any thread. */
  void abort() {
    result.completeExceptionally(new IOException("response reading aborted"));
    Flow.Subscription s = subscription;
    if (s != null) {
      s.cancel();
    }
  }

  @Override
  public CompletionStage<byte[]> getBody() {
    return result;
  }

  @Override
  public void onSubscribe(Flow.Subscription s) {
    subscription = s;
    if (result.isDone()) {
      s.cancel();
    } else {
      s.request(Long.MAX_VALUE);
    }
  }

  @Override
  public void onNext(List<ByteBuffer> items) {
    if (result.isDone()) {
      return;
    }
    for (ByteBuffer item : items) {
      int room = (int) Math.min(Integer.MAX_VALUE, limit - buffer.size());
      if (item.remaining() > room) {
        if (truncate) {
          append(item, room);
          result.complete(buffer.toByteArray());
        } else {
          result.completeExceptionally(new TooLarge(limit));
        }
        Flow.Subscription s = subscription;
        if (s != null) {
          s.cancel();
        }
        return;
      }
      append(item, item.remaining());
    }
  }

  private void append(ByteBuffer item, int length) {
    byte[] chunk = new byte[length];
    item.get(chunk);
    buffer.write(chunk, 0, length);
  }

  @Override
  public void onError(Throwable throwable) {
    result.completeExceptionally(throwable);
  }

  @Override
  public void onComplete() {
    result.complete(buffer.toByteArray());
  }
}
