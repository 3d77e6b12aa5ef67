/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.tck;

import dev.engram.EngramBuilder;
import dev.engram.WriteOptions;
import dev.engram.test.SteppingClock;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.function.UnaryOperator;

/** Small shared values and settings of the contract layers (and of the engine's own rule tests). */
public final class Fixtures {
  /** A user scope of the fixtures. */
  public static final String S1 = "app/user/u1";
  /** Its sibling. */
  public static final String S2 = "app/user/u2";

  private Fixtures() {}

  /**
   * Engine settings with a fresh {@link SteppingClock}, so timestamps are deterministic.
   *
   * @return the settings
   */
  public static UnaryOperator<EngramBuilder> clocked() {
    return b -> b.clock(new SteppingClock());
  }

  /**
   * {@link #clocked()} plus more settings.
   *
   * @param more further changes to the builder, applied after the clock is set
   * @return the settings
   */
  public static UnaryOperator<EngramBuilder> clocked(UnaryOperator<EngramBuilder> more) {
    return b -> more.apply(b.clock(new SteppingClock()));
  }

  /**
   * Write options with these topic hints.
   *
   * @param topics the topic hints
   * @return a builder with only the hints set
   */
  public static WriteOptions.Builder topics(String... topics) {
    return WriteOptions.builder().topicsHint(topics);
  }

  /**
   * SHA-256 of {@code s} in lowercase hex.
   *
   * @param s the text, hashed as UTF-8
   * @return the 64 hex digits of its digest
   */
  public static String sha256(String s) {
    try {
      return HexFormat.of().formatHex(
          MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
