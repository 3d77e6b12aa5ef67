/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.agent;

import dev.engram.InvalidInputException;
import java.util.Objects;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;

/**
 * Optional settings of one {@link MemoryFiles} edit. Immutable.
 *
 * <pre>{@code
 * FileResult seen = files.view("/memories/notes.md");
 * files.strReplace("/memories/notes.md", "Tuesday", "Wednesday",
 *     FileEditOptions.builder().expectedContentHash(seen.contentHash()).build());
 * }</pre>
 */
public final class FileEditOptions {
  private static final FileEditOptions DEFAULTS = builder().build();
  private static final Pattern SHA256_HEX = Pattern.compile("[0-9a-f]{64}");

  private final @Nullable String expectedContentHash;

  private FileEditOptions(Builder b) {
    this.expectedContentHash = b.expectedContentHash;
  }

  /**
   * No settings: the edit applies to the file as it is when the edit runs.
   *
   * @return the defaults
   */
  public static FileEditOptions defaults() {
    return DEFAULTS;
  }

  /**
   * Starts building options.
   *
   * @return a builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * The content hash the edited file must have when the edit commits, or null for none.
   *
   * @return the SHA-256 hex hash, or null
   */
  public @Nullable String expectedContentHash() {
    return expectedContentHash;
  }

  @Override
  public String toString() {
    return "FileEditOptions[expectedContentHash=" + expectedContentHash + "]";
  }

  /** Builds {@link FileEditOptions}; {@code build()} may be called more than once. */
  public static final class Builder {
    private @Nullable String expectedContentHash;

    private Builder() {}

    /**
     * Refuse the edit with {@link FileError#CONFLICT} unless the file's content hash
     * ({@link FileResult#contentHash()} of a view, {@code MemoryEntry.contentHash()}) is this one when the
     * edit commits: an optimistic precondition, so an edit decided from a view does not overwrite a change
     * made since. For {@code str_replace}, {@code insert}, {@code delete} and {@code rename} of a file.
     *
     * @param sha256Hex 64 lowercase hex digits
     * @return this builder
     * @throws InvalidInputException if it is not 64 lowercase hex digits
     */
    public Builder expectedContentHash(String sha256Hex) {
      Objects.requireNonNull(sha256Hex, "expectedContentHash");
      if (!SHA256_HEX.matcher(sha256Hex).matches()) {
        throw new InvalidInputException("expectedContentHash", "must be 64 lowercase hex digits (SHA-256)");
      }
      this.expectedContentHash = sha256Hex;
      return this;
    }

    /**
     * The options.
     *
     * @return the options
     */
    public FileEditOptions build() {
      return new FileEditOptions(this);
    }
  }
}
