/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.agent;

/** Why a {@link MemoryFiles} command failed; the {@link FileResult#text()} says it to the model. */
public enum FileError {
  /** The path is not a plain path below {@code /memories} (traversal, encoding, another root, bad characters). */
  INVALID_PATH,
  /** The path (or the source of a rename) does not exist. */
  NOT_FOUND,
  /** The file to create, or the destination of a rename, already exists. */
  ALREADY_EXISTS,
  /** The command needs a file and the path is a directory, or the other way round. */
  WRONG_KIND,
  /** {@code str_replace}: {@code old_str} does not occur in the file. */
  NO_MATCH,
  /** {@code str_replace}: {@code old_str} occurs more than once. */
  MULTIPLE_MATCHES,
  /** {@code insert} or {@code view}: a line number outside the file. */
  INVALID_LINE,
  /** An argument the command cannot use: empty text, text over memory's limits, an unknown command. */
  INVALID_ARGUMENT,
  /** The view is read-only: the grants cannot write its scope, or it was opened for reading. */
  READ_ONLY,
  /** The file's content hash is not the expected one, or memory changed while the command ran. */
  CONFLICT,
  /** Memory could not run the command now (store or reasoner failure); nothing was changed. */
  UNAVAILABLE
}
