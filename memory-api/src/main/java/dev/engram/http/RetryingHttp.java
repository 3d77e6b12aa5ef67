/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.http;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One HTTP exchange, retried: the client the LLM reasoner and the HTTP embedder share. Each attempt
 * must finish, body included, within the attempt timeout and what is left of the operation's
 * {@link Deadline}; a successful answer's body is read up to a limit (a longer one fails the call), an
 * error answer's is kept up to a smaller one. The caller judges every answer ({@link Judge}): a value
 * ends the call, a {@link Retry} asks for another attempt, any other exception ends it. Connection
 * failures and timeouts are retried too.
 *
 * <p>A retry waits the backoff doubled for each earlier retry, plus up to a quarter of random jitter, at
 * most {@link #MAX_WAIT}, and at least the server's {@code Retry-After} ({@link #retryAfter}); a server
 * asking for longer than {@link #MAX_WAIT} ends the retries, and so does a wait that would pass the
 * deadline. What the call then throws is the caller's own exception ({@link Failures}), its message
 * saying why it ended. Each retry is logged at WARN with the failure's message (callers mask secrets in
 * it). Thread-safe: it holds settings only.
 */
public final class RetryingHttp {
  private static final Logger LOG = LoggerFactory.getLogger(RetryingHttp.class);
  /** The longest wait between two attempts, and the longest {@code Retry-After} this client honours. */
  public static final Duration MAX_WAIT = Duration.ofSeconds(30);
  /** The most attempts an operation may be given. */
  public static final int MAX_ATTEMPTS = 10;

  private final HttpClient client;
  private final Duration timeout;
  private final int maxAttempts;
  private final Duration backoff;

  /**
   * @param client the JDK client requests go through
   * @param timeout the longest one attempt may take, connecting to the last byte of the body
   * @param maxAttempts attempts per call, the first included, 1 to {@value #MAX_ATTEMPTS}
   * @param backoff the wait before the first retry, 0 to {@link #MAX_WAIT}
   * @throws IllegalArgumentException if a setting is out of range (the callers' builders check them first,
   *     naming their own settings)
   */
  public RetryingHttp(HttpClient client, Duration timeout, int maxAttempts, Duration backoff) {
    this.client = Objects.requireNonNull(client, "client");
    this.timeout = Objects.requireNonNull(timeout, "timeout");
    this.backoff = Objects.requireNonNull(backoff, "backoff");
    if (timeout.isNegative() || timeout.isZero()) {
      throw new IllegalArgumentException("timeout must be positive, was " + timeout);
    }
    if (maxAttempts < 1 || maxAttempts > MAX_ATTEMPTS) {
      throw new IllegalArgumentException("maxAttempts must be between 1 and " + MAX_ATTEMPTS + ", was " + maxAttempts);
    }
    if (backoff.isNegative() || backoff.compareTo(MAX_WAIT) > 0) {
      throw new IllegalArgumentException("backoff must be between 0 and " + MAX_WAIT + ", was " + backoff);
    }
    this.maxAttempts = maxAttempts;
  }

  /** The attempt timeout. */
  public Duration timeout() {
    return timeout;
  }

  /**
   * When one operation (all its requests, retries and waits) must be done.
   *
   * @param atNanos the {@link System#nanoTime()} it passes at
   * @param budget the whole time the operation was given
   */
  public record Deadline(long atNanos, Duration budget) {
    /** A deadline {@code budget} from now. */
    public static Deadline after(Duration budget) {
      return new Deadline(System.nanoTime() + budget.toNanos(), budget);
    }

    /** What is left of it, zero once it passed. */
    public Duration remaining() {
      return Duration.ofNanos(Math.max(0, atNanos - System.nanoTime()));
    }

    /** The deadline in words, for messages. */
    public String describe() {
      return "the deadline of " + budget.toMillis() + " ms for the whole call";
    }
  }

  /**
   * An answer of the server: its status, headers and body (an error body possibly cut at its limit).
   *
   * @param status the HTTP status
   * @param headers the response headers
   * @param body the body bytes
   */
  public record Answer(int status, HttpHeaders headers, byte[] body) {
    /** Whether the status is 2xx. */
    public boolean ok() {
      return status >= 200 && status < 300;
    }
  }

  /**
   * How the caller reads an answer, any status.
   *
   * @param <T> what a call returns
   */
  @FunctionalInterface
  public interface Judge<T> {
    /**
     * The value of a usable answer.
     *
     * @param answer the answer
     * @param attempt its attempt, from 1
     * @return the call's result
     * @throws Retry to ask for another attempt ({@link RetryingHttp#retryable} statuses, say)
     */
    T judge(Answer answer, int attempt) throws Retry;
  }

  /** An answer worth another attempt: the failure to throw when none is left, and the server's wait. */
  public static final class Retry extends Exception {
    private static final long serialVersionUID = 1L;
    private final transient RuntimeException failure;
    private final Duration retryAfter;

    /**
     * @param failure the caller's exception for this answer
     * @param retryAfter the wait the server asked for ({@link RetryingHttp#retryAfter}), zero for none
     */
    public Retry(RuntimeException failure, Duration retryAfter) {
      super(failure.getMessage(), null, false, false);
      this.failure = failure;
      this.retryAfter = retryAfter;
    }
  }

  /** The caller's exceptions for what goes wrong around its answers. */
  public interface Failures {
    /**
     * No answer within the attempt's time.
     *
     * @param attempt the attempt, from 1
     * @param waited how long it was given
     * @param cutBy the operation's deadline when it, not the attempt timeout, cut the attempt (the call
     *     then ends); null otherwise
     * @param cause the timeout
     * @return the exception
     */
    RuntimeException timedOut(int attempt, Duration waited, @Nullable Deadline cutBy, Exception cause);

    /**
     * The exchange failed: no connection, a reset, a protocol error.
     *
     * @param attempt the attempt, from 1
     * @param cause what failed
     * @return the exception
     */
    RuntimeException failed(int attempt, IOException cause);

    /**
     * A successful answer's body was longer than its limit (not retried).
     *
     * @param limit the limit, in bytes
     * @return the exception
     */
    RuntimeException tooLarge(long limit);

    /**
     * The thread was interrupted while it waited for an answer (its interrupt flag is set again).
     *
     * @return the exception
     */
    RuntimeException interrupted();

    /**
     * The deadline had passed before an attempt was sent.
     *
     * @param deadline the deadline
     * @return the exception
     */
    RuntimeException notSent(Deadline deadline);

    /**
     * The retries end for {@code why} after {@code last}: the exception to throw instead of it.
     *
     * @param last the last attempt's failure
     * @param why why no retry is made, e.g. "; a retry after 800 ms would pass …"
     * @return the exception
     */
    RuntimeException endedAfter(RuntimeException last, String why);
  }

  /**
   * Sends {@code request} (a new timeout is set for each attempt) until the judge accepts an answer or
   * the call fails.
   *
   * @param <T> what the call returns
   * @param request the request, without a timeout
   * @param successLimit the most bytes of a 2xx body read; a longer body fails the call
   * @param errorLimit the most bytes of another body kept; the rest is not read
   * @param deadline the bound of the whole operation this call is part of
   * @param judge reads each answer
   * @param failures the caller's exceptions
   * @return what the judge made of the accepted answer
   */
  public <T> T send(HttpRequest.Builder request, long successLimit, long errorLimit, Deadline deadline, Judge<T> judge,
      Failures failures) {
    int attempt = 0;
    while (true) {
      attempt++;
      Duration left = deadline.remaining();
      if (left.isZero()) {
        throw failures.notSent(deadline);
      }
      boolean cut = left.compareTo(timeout) < 0;
      Duration attemptTimeout = cut ? left : timeout;
      RuntimeException failure;
      Duration retryAfter = Duration.ZERO;
      try {
        Answer answer = once(request.timeout(attemptTimeout).build(), attemptTimeout, successLimit, errorLimit,
            failures);
        return judge.judge(answer, attempt);
      } catch (Retry r) {
        failure = r.failure;
        retryAfter = r.retryAfter;
        if (retryAfter.compareTo(MAX_WAIT) > 0) {
          throw failures.endedAfter(failure, "; the server asked to wait " + retryAfter.toSeconds()
              + " s, more than the " + MAX_WAIT.toSeconds() + " s this client waits");
        }
      } catch (TimeoutException e) {
        if (cut) {
          throw failures.timedOut(attempt, attemptTimeout, deadline, e);
        }
        failure = failures.timedOut(attempt, attemptTimeout, null, e);
      } catch (IOException e) {
        failure = failures.failed(attempt, e);
      }
      if (attempt >= maxAttempts) {
        throw failure;
      }
      Duration wait = wait(attempt, retryAfter);
      if (wait.compareTo(deadline.remaining()) >= 0) {
        throw failures.endedAfter(failure, "; a retry after " + wait.toMillis() + " ms would pass " + deadline.describe());
      }
      LOG.warn("{}; retrying in {} ms", failure.getMessage(), wait.toMillis());
      pause(wait, failure);
    }
  }

  /**
   * A {@code POST} of a JSON body that accepts JSON, without a timeout ({@link #send} sets one per
   * attempt). A plain {@code http} URL is sent as HTTP/1.1: plain-text servers often mishandle the h2c
   * upgrade of a request with a body.
   *
   * @param endpoint where to post
   * @param json the body
   * @return the request, to add headers to
   */
  public static HttpRequest.Builder postJson(URI endpoint, byte[] json) {
    HttpRequest.Builder request = HttpRequest.newBuilder(endpoint)
        .header("Content-Type", "application/json")
        .header("Accept", "application/json")
        .POST(HttpRequest.BodyPublishers.ofByteArray(json));
    if ("http".equalsIgnoreCase(endpoint.getScheme())) {
      request.version(HttpClient.Version.HTTP_1_1);
    }
    return request;
  }

  /** {@code " (attempt n of m)"} when a call may take more than one attempt, else empty. */
  public String attempts(int attempt) {
    return maxAttempts > 1 ? " (attempt " + attempt + " of " + maxAttempts + ")" : "";
  }

  /** Whether an answer with {@code status} is worth another attempt: 408, 429 and 5xx. */
  public static boolean retryable(int status) {
    return status == 408 || status == 429 || status >= 500;
  }

  /**
   * The wait a server asked for: {@code Retry-After} as seconds (fractions allowed) or an HTTP date, else
   * {@code retry-after-ms}; zero when there is none or it is unreadable.
   *
   * @param headers the answer's headers
   * @return the wait, never negative
   */
  public static Duration retryAfter(HttpHeaders headers) {
    String value = headers.firstValue("Retry-After").orElse(null);
    if (value == null) {
      value = headers.firstValue("retry-after-ms").map(ms -> "ms:" + ms).orElse(null);
    }
    if (value == null) {
      return Duration.ZERO;
    }
    String v = value.strip();
    try {
      if (v.startsWith("ms:")) {
        return Duration.ofMillis(Math.max(0, (long) Double.parseDouble(v.substring(3))));
      }
      return Duration.ofMillis(Math.max(0, (long) (Double.parseDouble(v) * 1000)));
    } catch (NumberFormatException e) {
      try {
        ZonedDateTime at = ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME);
        Duration d = Duration.between(ZonedDateTime.now(at.getZone()), at);
        return d.isNegative() ? Duration.ZERO : d;
      } catch (DateTimeParseException ignored) {
        return Duration.ZERO;
      }
    }
  }

  /** The wait before the retry after {@code attempt}: the doubled backoff with jitter, within the bounds. */
  Duration wait(int attempt, Duration retryAfter) {
    long base = backoff.toMillis() << Math.min(attempt - 1, 16);
    long jitter = base <= 0 ? 0 : ThreadLocalRandom.current().nextLong(base / 4 + 1);
    long millis = Math.min(MAX_WAIT.toMillis(), base + jitter);
    return Duration.ofMillis(Math.max(millis, retryAfter.toMillis()));
  }

  private static void pause(Duration wait, RuntimeException failure) {
    if (wait.isZero()) {
      return;
    }
    try {
      Thread.sleep(wait.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw failure;
    }
  }

  /** One exchange; the whole of it, body included, within {@code within}. */
  private Answer once(HttpRequest request, Duration within, long successLimit, long errorLimit, Failures failures)
      throws IOException, TimeoutException {
    AtomicReference<@Nullable LimitedBody> reader = new AtomicReference<>();
    CompletableFuture<HttpResponse<byte[]>> exchange = client.sendAsync(request, info -> {
      boolean ok = info.statusCode() >= 200 && info.statusCode() < 300;
      LimitedBody body = new LimitedBody(ok ? successLimit : errorLimit, !ok);
      info.headers().firstValueAsLong("Content-Length").ifPresent(body::rejectDeclaredLength);
      reader.set(body);
      return body;
    });
    try {
      HttpResponse<byte[]> response = exchange.get(within.toNanos(), TimeUnit.NANOSECONDS);
      return new Answer(response.statusCode(), response.headers(), response.body());
    } catch (TimeoutException e) {
      cancel(exchange, reader.get());
      throw e;
    } catch (InterruptedException e) {
      cancel(exchange, reader.get());
      Thread.currentThread().interrupt();
      throw failures.interrupted();
    } catch (ExecutionException e) {
      for (Throwable c = e.getCause(); c != null; c = c.getCause()) {
        if (c instanceof LimitedBody.TooLarge) {
          throw failures.tooLarge(successLimit);
        }
        if (c instanceof HttpTimeoutException) {
          TimeoutException t = new TimeoutException(c.getMessage());
          t.initCause(c);
          throw t;
        }
      }
      Throwable cause = e.getCause() != null ? e.getCause() : e;
      if (cause instanceof IOException io) {
        throw io;
      }
      throw new IOException(describe(cause), cause);
    }
  }

  private static void cancel(CompletableFuture<HttpResponse<byte[]>> exchange, @Nullable LimitedBody reader) {
    exchange.cancel(true);
    if (reader != null) {
      reader.abort();
    }
  }

  /** An exception as {@code SimpleName: message}, for messages. */
  public static String describe(Throwable e) {
    String message = e.getMessage();
    return e.getClass().getSimpleName() + (message == null || message.isBlank() ? "" : ": " + message);
  }
}
