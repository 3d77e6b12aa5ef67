/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.Random;
import org.junit.jupiter.api.Test;

class PreparedContextsTest {
  @Test
  void truncateFitsTheBudgetOnCodePointBoundaries() {
    Random random = new Random(1);
    String alphabet = "aé€😀 日";
    for (int trial = 0; trial < 2000; trial++) {
      StringBuilder sb = new StringBuilder();
      int n = random.nextInt(200);
      for (int i = 0; i < n; i++) {
        int cp = alphabet.codePointAt(alphabet.offsetByCodePoints(0, random.nextInt(alphabet.codePointCount(0, alphabet.length()))));
        sb.appendCodePoint(cp);
      }
      String s = sb.toString();
      int max = 4 + random.nextInt(300);
      String cut = PreparedContexts.truncate(s, max);
      int bytes = cut.getBytes(StandardCharsets.UTF_8).length;
      assertThat(bytes).as("trial %d", trial).isLessThanOrEqualTo(Math.max(max, 0));
      assertThat(new String(cut.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8)).isEqualTo(cut);
      if (s.getBytes(StandardCharsets.UTF_8).length <= max) {
        assertThat(cut).isEqualTo(s);
      } else {
        assertThat(cut).endsWith("…");
        assertThat(s).startsWith(cut.substring(0, cut.length() - 1));
      }
    }
  }
}
