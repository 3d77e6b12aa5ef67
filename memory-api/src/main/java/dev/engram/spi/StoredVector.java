/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.spi;

import dev.engram.InvalidInputException;
import java.util.Objects;

/**
 * One embedding of one view of a version.
 *
 * @param versionId the version the vector belongs to
 * @param view what was embedded: {@code content}, {@code gist}, {@code question1}…
 * @param vector unit length, of the profile's dimension
 */
public record StoredVector(String versionId, String view, float[] vector) {
  /**
   * Checks that no component is null. The array is kept as given, not copied.
   *
   * @param versionId the version the vector belongs to
   * @param view what was embedded
   * @param vector the vector
   * @throws NullPointerException when a component is null
   */
  public StoredVector {
    Objects.requireNonNull(versionId, "versionId");
    Objects.requireNonNull(view, "view");
    Objects.requireNonNull(vector, "vector");
  }

  /**
   * Little-endian IEEE-754 bytes, the portable form SQL stores keep in a BLOB / bytea column.
   *
   * @param v a vector
   * @return a new array of {@code 4 * v.length} bytes
   */
  public static byte[] toBytes(float[] v) {
    java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(v.length * 4).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    b.asFloatBuffer().put(v);
    return b.array();
  }

  /**
   * The vector {@link #toBytes(float[])} wrote.
   *
   * @param bytes little-endian IEEE-754 floats
   * @return a new array of {@code bytes.length / 4} values
   * @throws InvalidInputException when the length is not a multiple of 4
   */
  public static float[] fromBytes(byte[] bytes) {
    if (bytes.length % 4 != 0) {
      throw new InvalidInputException("bytes", "vector bytes must be a multiple of 4, were " + bytes.length);
    }
    float[] v = new float[bytes.length / 4];
    java.nio.ByteBuffer.wrap(bytes).order(java.nio.ByteOrder.LITTLE_ENDIAN).asFloatBuffer().get(v);
    return v;
  }
}
