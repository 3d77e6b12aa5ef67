/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * One page of an entry's history, oldest event first.
 *
 * @param events the events of the page, ordered by revision, then event id
 * @param nextCursor where the next page starts ({@link HistoryOptions#after(String)}), or null when this
 *     page reaches the end of the history
 */
public record HistoryPage(List<MemoryEvent> events, @Nullable String nextCursor) {
  /**
   * Copies the events.
   *
   * @param events the events of the page, ordered by revision, then event id
   * @param nextCursor where the next page starts, or null at the end of the history
   * @throws NullPointerException when {@code events} or an event is null
   */
  public HistoryPage {
    events = List.copyOf(events);
  }

  /**
   * Whether another page follows.
   *
   * @return true when {@link #nextCursor()} is set
   */
  public boolean hasMore() {
    return nextCursor != null;
  }
}
