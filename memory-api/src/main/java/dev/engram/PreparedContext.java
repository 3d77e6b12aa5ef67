/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A bounded, cited view of memory for one request: untrusted historical data, not instructions, and
 * not a durable asset.
 *
 * @param content the rendered text, null when {@code EMPTY}
 * @param contentBytes the UTF-8 length of {@code content} (0 when {@code EMPTY}), never above the budget
 * @param citations the exact version of every rendered item, in render order
 */
public record PreparedContext(Status status, @Nullable String content, int contentBytes, List<Citation> citations) {
  public enum Status {
    READY,
    EMPTY
  }

  public PreparedContext {
    Objects.requireNonNull(status, "status");
    citations = List.copyOf(citations);
  }

  public static PreparedContext empty() {
    return new PreparedContext(Status.EMPTY, null, 0, List.of());
  }
}
