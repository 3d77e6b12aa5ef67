/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.util.Objects;

/**
 * One item of {@link Engram#writeAll(Grants, java.util.List)}: the arguments of one
 * {@link Engram#write(Grants, String, WriteOptions)} call. The content and the options are validated
 * when the batch runs, so a bad item is rejected alone with a precise message.
 *
 * @param content the text to remember
 * @param options scope, topics, type, priority, path and the other optional fields of this item
 */
public record WriteRequest(String content, WriteOptions options) {

  /**
   * Checks that neither component is null; their values are validated when the batch runs.
   *
   * @param content the text to remember
   * @param options the item's options
   * @throws NullPointerException when {@code content} or {@code options} is null
   */
  public WriteRequest {
    Objects.requireNonNull(content, "content");
    Objects.requireNonNull(options, "options");
  }

  /**
   * An item with default options.
   *
   * @param content the text to remember
   * @return the item
   */
  public static WriteRequest of(String content) {
    return new WriteRequest(content, WriteOptions.defaults());
  }

  /**
   * An item with options.
   *
   * @param content the text to remember
   * @param options the item's options
   * @return the item
   */
  public static WriteRequest of(String content, WriteOptions options) {
    return new WriteRequest(content, options);
  }
}
