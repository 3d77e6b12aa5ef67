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

  /**
   * @param code {@link ErrorCode#STORE_UNAVAILABLE}, {@link ErrorCode#STORE_INCOMPATIBLE} or {@link
   *     ErrorCode#STORE_CLOSED}
   * @param message what failed
   * @param cause the store's own failure (e.g. an {@code SQLException}), or null
   * @throws NullPointerException when {@code code} is null
   */
  public StoreException(ErrorCode code, String message, @Nullable Throwable cause) {
    super(code, message, cause);
  }

  /**
   * The store failed or cannot be reached ({@link ErrorCode#STORE_UNAVAILABLE}).
   *
   * @param message what failed
   * @param cause the store's own failure, or null
   * @return the exception
   */
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

  /**
   * The store's data or schema is not something this version can use ({@link ErrorCode#STORE_INCOMPATIBLE}).
   *
   * @param message what does not fit, e.g. a schema version
   * @return the exception
   */
  public static StoreException incompatible(String message) {
    return new StoreException(ErrorCode.STORE_INCOMPATIBLE, message, null);
  }
}
