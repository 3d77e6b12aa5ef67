/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.internal;

import java.security.SecureRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Time-ordered identifiers in the UUID version 7 layout. Within one process they are strictly
 * increasing, so ordering ids as strings orders them by creation.
 */
public final class Ids {
  private static final SecureRandom RANDOM = new SecureRandom();
  /** Last issued (millis << 12 | counter). */
  private static final AtomicLong LAST = new AtomicLong();
  private static final char[] HEX = "0123456789abcdef".toCharArray();

  private Ids() {}

  public static String next() {
    long now = System.currentTimeMillis() << 12;
    long stamp = LAST.updateAndGet(prev -> Math.max(prev + 1, now));
    long millis = stamp >>> 12;
    long counter = stamp & 0xFFF;
    long msb = (millis << 16) | (0x7L << 12) | counter;
    long lsb = (RANDOM.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
    char[] out = new char[36];
    int p = 0;
    for (int i = 60; i >= 0; i -= 4) {
      if (p == 8 || p == 13) {
        out[p++] = '-';
      }
      out[p++] = HEX[(int) (msb >>> i) & 0xF];
    }
    for (int i = 60; i >= 0; i -= 4) {
      if (p == 18 || p == 23) {
        out[p++] = '-';
      }
      out[p++] = HEX[(int) (lsb >>> i) & 0xF];
    }
    return new String(out);
  }
}
