/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import org.jspecify.annotations.Nullable;

/**
 * The backing store failed: it is unreachable ({@link ErrorCode#STORE_UNAVAILABLE}) or its data is
 * not something this version can use ({@link ErrorCode#STORE_INCOMPATIBLE}), or it was closed
 * ({@link ErrorCode#STORE_CLOSED}). The original cause (e.g.
 * an {@code SQLException}) is kept.
 */
public class StoreException extends MemoryException {
  private static final long serialVersionUID = 1L;

  public StoreException(ErrorCode code, String message, @Nullable Throwable cause) {
    super(code, message, cause);
  }

  public static StoreException unavailable(String message, @Nullable Throwable cause) {
    return new StoreException(ErrorCode.STORE_UNAVAILABLE, message, cause);
  }

  /**
   * The engine or store was closed ({@link ErrorCode#STORE_CLOSED}).
   *
   * @param message what was closed
   * @return the exception
   */
  public static StoreException closed(String message) {
    return new StoreException(ErrorCode.STORE_CLOSED, message, null);
  }

  public static StoreException incompatible(String message) {
    return new StoreException(ErrorCode.STORE_INCOMPATIBLE, message, null);
  }
}
