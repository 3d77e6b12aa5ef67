/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.Delayed;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A scheduler that runs nothing by itself: a test fires the recorded periodic tasks with {@link #fire()}, on
 * its own thread. Like {@link java.util.concurrent.ScheduledThreadPoolExecutor}, a task that throws is
 * cancelled for good, so a test sees whether a failure would have stopped later runs.
 */
final class ManualScheduler extends AbstractExecutorService implements ScheduledExecutorService {
  final List<Task> tasks = new ArrayList<>();
  private boolean shutdown;

  /** One periodic task as scheduled. */
  static final class Task implements ScheduledFuture<Object> {
    final Runnable command;
    final long initialDelayNanos;
    final long delayNanos;
    int runs;
    boolean cancelled;
    Throwable failure;

    Task(Runnable command, long initialDelayNanos, long delayNanos) {
      this.command = command;
      this.initialDelayNanos = initialDelayNanos;
      this.delayNanos = delayNanos;
    }

    @Override
    public long getDelay(TimeUnit unit) {
      return unit.convert(runs == 0 ? initialDelayNanos : delayNanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public int compareTo(Delayed o) {
      return Long.compare(getDelay(TimeUnit.NANOSECONDS), o.getDelay(TimeUnit.NANOSECONDS));
    }

    @Override
    public synchronized boolean cancel(boolean mayInterruptIfRunning) {
      boolean was = !cancelled;
      cancelled = true;
      return was;
    }

    @Override
    public synchronized boolean isCancelled() {
      return cancelled;
    }

    @Override
    public boolean isDone() {
      return isCancelled();
    }

    @Override
    public Object get() {
      throw new UnsupportedOperationException("a periodic task has no result");
    }

    @Override
    public Object get(long timeout, TimeUnit unit) {
      throw new UnsupportedOperationException("a periodic task has no result");
    }
  }

  /**
   * Runs every task that is not cancelled once, as the delay having passed would.
   *
   * @return how many tasks ran
   */
  int fire() {
    int ran = 0;
    for (Task t : List.copyOf(tasks)) {
      if (t.isCancelled()) {
        continue;
      }
      t.runs++;
      ran++;
      try {
        t.command.run();
      } catch (RuntimeException | Error e) {
        t.failure = e;
        t.cancel(false);
      }
    }
    return ran;
  }

  Task only() {
    if (tasks.size() != 1) {
      throw new AssertionError("expected one scheduled task, have " + tasks.size());
    }
    return tasks.get(0);
  }

  @Override
  public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay, TimeUnit unit) {
    if (shutdown) {
      throw new java.util.concurrent.RejectedExecutionException("shut down");
    }
    Task t = new Task(command, unit.toNanos(initialDelay), unit.toNanos(delay));
    tasks.add(t);
    return t;
  }

  @Override
  public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period, TimeUnit unit) {
    throw new UnsupportedOperationException("not used by the runner");
  }

  @Override
  public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
    throw new UnsupportedOperationException("not used by the runner");
  }

  @Override
  public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
    throw new UnsupportedOperationException("not used by the runner");
  }

  @Override
  public void execute(Runnable command) {
    throw new UnsupportedOperationException("not used by the runner");
  }

  @Override
  public void shutdown() {
    shutdown = true;
  }

  @Override
  public List<Runnable> shutdownNow() {
    shutdown = true;
    return List.of();
  }

  @Override
  public boolean isShutdown() {
    return shutdown;
  }

  @Override
  public boolean isTerminated() {
    return shutdown;
  }

  @Override
  public boolean awaitTermination(long timeout, TimeUnit unit) {
    return shutdown;
  }
}
