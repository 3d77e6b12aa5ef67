/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.sqlite;

import dev.engram.ErrorCode;
import dev.engram.StoreException;
import java.sql.SQLException;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/** Turns driver failures into {@link StoreException}s, keeping the {@link SQLException} as the cause. */
final class SqliteErrors {
  private SqliteErrors() {}

  /** The primary SQLite result code of {@code e} or of the first SQLite failure among its causes, or -1. */
  static int primaryCode(Throwable e) {
    for (Throwable t = e; t != null; t = t.getCause()) {
      if (t instanceof SQLiteException s) {
        return s.getResultCode().code & 0xff;
      }
      if (t instanceof SQLException s && s.getErrorCode() > 0 && s.getErrorCode() < 256
          && s.getClass().getName().startsWith("org.sqlite")) {
        return s.getErrorCode();
      }
    }
    return -1;
  }

  /** SQLITE_BUSY or SQLITE_LOCKED: another connection holds a lock we need. */
  static boolean isBusy(SQLException e) {
    int code = primaryCode(e);
    return code == SQLiteErrorCode.SQLITE_BUSY.code || code == SQLiteErrorCode.SQLITE_LOCKED.code;
  }

  static boolean isConstraint(SQLException e) {
    return primaryCode(e) == SQLiteErrorCode.SQLITE_CONSTRAINT.code;
  }

  /** A typed failure for {@code e} while doing {@code what} on {@code database}. */
  static StoreException map(String database, String what, SQLException e) {
    int code = primaryCode(e);
    if (code == SQLiteErrorCode.SQLITE_NOTADB.code) {
      return new StoreException(ErrorCode.STORE_INCOMPATIBLE,
          database + " is not an SQLite database (" + what + "): " + e.getMessage(), e);
    }
    if (code == SQLiteErrorCode.SQLITE_CORRUPT.code) {
      return new StoreException(ErrorCode.STORE_INCOMPATIBLE,
          database + " is corrupt (" + what + "): " + e.getMessage(), e);
    }
    if (code == SQLiteErrorCode.SQLITE_FULL.code) {
      return StoreException.unavailable(database + " is full (the disk, or the database's page limit): could not "
          + what + "; nothing of it was stored, and writes succeed again once there is room: " + e.getMessage(), e);
    }
    if (code == SQLiteErrorCode.SQLITE_BUSY.code || code == SQLiteErrorCode.SQLITE_LOCKED.code) {
      return StoreException.unavailable(
          database + " stayed locked by another connection while trying to " + what + ": " + e.getMessage(), e);
    }
    return StoreException.unavailable("SQLite store " + database + " failed to " + what + ": " + e.getMessage(), e);
  }
}
