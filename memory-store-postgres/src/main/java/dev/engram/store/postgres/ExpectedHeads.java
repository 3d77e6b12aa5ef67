/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.postgres;

import java.util.LinkedHashMap;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * The head each scope had when this store last committed or locked it, for the scopes used most
 * recently (at most {@link #MAX_SCOPES}), and how many of this store's transactions are running on each.
 * A write transaction expects its scope's head to be the remembered one only when no other transaction
 * of this store is running on the scope: another process may still have moved it, which the lock then
 * finds out. A scope whose expectation failed is expected again only after a run of ordinary
 * transactions that doubles with each failure in a row (1, 2, 4, … up to {@link #MAX_BACKOFF}), so a scope
 * that other processes write all the time costs few failed round trips. Thread-safe.
 */
final class ExpectedHeads {
  /** The most scopes remembered; the least recently used idle one is forgotten first. */
  static final int MAX_SCOPES = 10_000;
  /** The longest run of ordinary transactions after failed expectations. */
  static final int MAX_BACKOFF = 64;

  private static final class Slot {
    long head = -1;
    int running;
    /** The length of the run of ordinary transactions after the latest failure; 0 after a success. */
    int backoff;
    /** Ordinary transactions left before the head is expected again. */
    int skip;
  }

  private final Map<String, Slot> slots = new LinkedHashMap<>(16, 0.75f, true);

  /**
   * Registers a transaction starting on {@code scope}; returns the head it may expect, or null when
   * none is known or another transaction of this store is running on the scope.
   */
  synchronized @Nullable Long begin(String scope) {
    Slot slot = slots.computeIfAbsent(scope, k -> new Slot());
    slot.running++;
    if (slot.running != 1 || slot.head < 0) {
      return null;
    }
    if (slot.skip > 0) {
      slot.skip--;
      return null;
    }
    return slot.head;
  }

  /** Records that a transaction's expectation on {@code scope} held. */
  synchronized void held(String scope) {
    Slot slot = slots.get(scope);
    if (slot != null) {
      slot.backoff = 0;
    }
  }

  /** Records that a transaction's expectation on {@code scope} failed: the next ones run the ordinary way. */
  synchronized void failed(String scope) {
    Slot slot = slots.get(scope);
    if (slot != null) {
      slot.backoff = Math.min(MAX_BACKOFF, slot.backoff == 0 ? 1 : slot.backoff * 2);
      slot.skip = slot.backoff;
    }
  }

  /** Records the head of {@code scope} as committed or read under its lock. */
  synchronized void record(String scope, long head) {
    Slot slot = slots.get(scope);
    if (slot != null) {
      slot.head = head;
    }
  }

  /** Forgets the head of {@code scope} (another transaction may have moved it). */
  synchronized void forget(String scope) {
    Slot slot = slots.get(scope);
    if (slot != null) {
      slot.head = -1;
    }
  }

  /** Registers the end of a transaction that {@link #begin} registered. */
  synchronized void end(String scope) {
    Slot slot = slots.get(scope);
    if (slot != null) {
      slot.running--;
    }
    if (slots.size() > MAX_SCOPES) {
      var it = slots.values().iterator();
      while (slots.size() > MAX_SCOPES && it.hasNext()) {
        if (it.next().running == 0) {
          it.remove();
        }
      }
    }
  }
}
