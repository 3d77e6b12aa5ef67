/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.tck;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Event times for the stores' tests of how they keep and filter {@code occurredAt}. */
public final class EventTimes {
  private EventTimes() {}

  /**
   * Instants of every shape: both ends of the range, signed years, each fraction length, leap days, and
   * 400 seeded ones across the whole range and across 1900-2122.
   *
   * @param seed the seed of the random part
   * @return the instants, fixed ones first
   */
  public static List<Instant> ofEveryShape(long seed) {
    List<Instant> out = new ArrayList<>(List.of(Instant.MIN, Instant.MAX, Instant.EPOCH,
        Instant.parse("1969-12-31T23:59:59.5Z"), Instant.parse("0000-03-01T00:00:00Z"),
        Instant.parse("0000-02-29T23:59:59.999999999Z"), Instant.parse("-0001-12-31T23:59:59Z"),
        Instant.parse("-0044-03-15T12:00:00.123Z"), Instant.parse("+12345-06-07T08:09:10.123456Z"),
        Instant.parse("1900-02-28T23:59:59Z"), Instant.parse("2000-02-29T00:00:00Z"),
        Instant.parse("2100-03-01T00:00:00.000001Z"), Instant.parse("9999-12-31T23:59:59.999999999Z"),
        Instant.parse("+10000-01-01T00:00:00Z")));
    Random random = new Random(seed);
    for (int i = 0; i < 400; i++) {
      long second = i % 2 == 0
          ? Instant.parse("1900-01-01T00:00:00Z").getEpochSecond() + (long) (random.nextDouble() * 7.0e9)
          : Instant.MIN.getEpochSecond() + (long) (random.nextDouble() * (Instant.MAX.getEpochSecond() * 2.0));
      int digits = random.nextInt(4) * 3;
      int nano = digits == 0 ? 0 : random.nextInt(1_000_000_000);
      nano -= nano % (int) Math.pow(10, 9 - digits);
      out.add(Instant.ofEpochSecond(second, nano));
    }
    return out;
  }
}
