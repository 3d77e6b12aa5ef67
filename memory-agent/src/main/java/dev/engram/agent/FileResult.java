/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.agent;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What one {@link MemoryFiles} command returns: the text for the model, exactly as the memory-tool
 * protocol words it (a listing, numbered lines, {@code "File created successfully at: ..."}, or an
 * error such as {@code "Error: The path ... does not exist"}), and, for trusted code, whether and why
 * it failed and the content hash of the file it read or wrote.
 *
 * @param text the result text for the model; never a stack trace, never a scope name
 * @param error why the command failed, or null when it succeeded (nothing is changed by a failure)
 * @param contentHash the SHA-256 (hex) content hash of the file as viewed or as written, to pass as
 *     {@link FileEditOptions.Builder#expectedContentHash(String)} to the next edit; null for directories,
 *     deletions and failures
 */
public record FileResult(String text, @Nullable FileError error, @Nullable String contentHash) {
  /**
   * Checks the text is present.
   *
   * @param text the result text for the model
   * @param error why the command failed, or null when it succeeded
   * @param contentHash the SHA-256 (hex) content hash of the file as viewed or as written, or null
   * @throws NullPointerException when {@code text} is null
   */
  public FileResult {
    Objects.requireNonNull(text, "text");
  }

  static FileResult ok(String text, @Nullable String contentHash) {
    return new FileResult(text, null, contentHash);
  }

  static FileResult failed(FileError error, String text) {
    return new FileResult(text, Objects.requireNonNull(error, "error"), null);
  }

  /**
   * Whether the command failed.
   *
   * @return true when {@link #error()} is set
   */
  public boolean isError() {
    return error != null;
  }
}
