/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A deterministic clock for tests: every {@link #instant()} call returns the previous instant plus a fixed
 * step. Whole-second instants survive every store's timestamp precision, so
 * entries read back compare equal to the ones written. Thread-safe.
 */
public final class SteppingClock extends Clock {
  private final Instant start;
  private final long stepMillis;
  private final AtomicLong calls = new AtomicLong();

  /**
   * A clock that returns {@code start}, then {@code start + step}, and so on.
   *
   * @param start the first instant returned
   * @param step the step between calls, at least one millisecond (finer parts are dropped)
   * @throws NullPointerException if {@code start} or {@code step} is null
   * @throws IllegalArgumentException if {@code step} is shorter than one millisecond
   */
  public SteppingClock(Instant start, Duration step) {
    this.start = Objects.requireNonNull(start, "start");
    this.stepMillis = Objects.requireNonNull(step, "step").toMillis();
    if (stepMillis < 1) {
      throw new IllegalArgumentException("step must be at least one millisecond, was " + step);
    }
  }

  /** Starts at 2030-01-01T00:00:00Z and steps one second per call. */
  public SteppingClock() {
    this(Instant.parse("2030-01-01T00:00:00Z"), Duration.ofSeconds(1));
  }

  @Override
  public Instant instant() {
    return start.plusMillis(stepMillis * calls.getAndIncrement());
  }

  /** @return the instant the next call to {@link #instant()} will return (peeking does not step the clock) */
  public Instant peek() {
    return start.plusMillis(stepMillis * calls.get());
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    throw new UnsupportedOperationException("SteppingClock is always UTC");
  }
}
