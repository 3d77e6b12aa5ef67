/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.sqlite;

import dev.engram.spi.MemoryStore.StoreWork;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import org.jspecify.annotations.Nullable;

/**
 * The queue of transactions waiting for the one writer connection. Every transaction of the process
 * is queued first; whichever thread then holds the write lock takes the queued ones (its own among
 * them, up to {@value #MAX_GROUP}) and runs them in one SQLite transaction, each in its own savepoint,
 * with one {@code COMMIT} for all. A transaction that throws is rolled back to its savepoint and only
 * its caller sees the error; the others of its group commit. Every caller returns only after the
 * commit that holds its transaction, so durability is the same as one commit per transaction, and
 * while one group commits, the writers that arrive meanwhile queue up for the next.
 */
final class GroupCommit {
  /** The most transactions one commit takes. */
  static final int MAX_GROUP = 64;

  /** One queued transaction and, once its group ran, how it ended. */
  static final class Request<T> {
    final String scope;
    final StoreWork<T> work;
    private final CountDownLatch finished = new CountDownLatch(1);
    private @Nullable T value;
    private @Nullable Throwable error;
    private volatile boolean done;
    /** Whether the kept work erased rows (the files are wiped after the commit). */
    boolean erased;

    Request(String scope, StoreWork<T> work) {
      this.scope = scope;
      this.work = work;
    }

    boolean done() {
      return done;
    }

    /** Whether the work returned (its savepoint was kept); false after it threw or its group failed. */
    boolean succeeded() {
      return error == null;
    }

    void ran(@Nullable T result) {
      value = result;
    }

    void fail(Throwable e) {
      if (error == null) {
        error = e;
      }
    }

    /** Marks the request answered; its caller may return. */
    void finish() {
      done = true;
      finished.countDown();
    }

    /** Waits until the request was answered (by the thread that runs its group). */
    void await() {
      boolean interrupted = false;
      while (true) {
        try {
          finished.await();
          break;
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }

    /** The work's result, or its error rethrown. */
    @Nullable T result() {
      Throwable e = error;
      if (e instanceof RuntimeException re) {
        throw re;
      }
      if (e instanceof Error err) {
        throw err;
      }
      if (e != null) {
        throw new IllegalStateException(e);
      }
      return value;
    }
  }

  private final ConcurrentLinkedQueue<Request<?>> queue = new ConcurrentLinkedQueue<>();

  void enqueue(Request<?> request) {
    queue.add(request);
  }

  int size() {
    return queue.size();
  }

  /** Takes {@code request} back if no group took it yet. */
  boolean withdraw(Request<?> request) {
    return queue.remove(request);
  }

  /** The next group: the oldest queued requests, at most {@value #MAX_GROUP}. */
  List<Request<?>> next() {
    List<Request<?>> group = new ArrayList<>();
    Request<?> r;
    while (group.size() < MAX_GROUP && (r = queue.poll()) != null) {
      group.add(r);
    }
    return group;
  }
}
