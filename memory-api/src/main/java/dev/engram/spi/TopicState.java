/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.spi;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * A store's bookkeeping for one (scope, topic) pair.
 *
 * @param activeCount active entries carrying the topic
 * @param lastWriteRevision scope revision of the latest change touching the topic
 * @param lastCuratedRevision scope revision at the last curation pass (0 if never)
 * @param lastUpdatedAt when the latest change touching the topic happened
 */
public record TopicState(
    String scope,
    String topic,
    int activeCount,
    @Nullable String blurb,
    long lastWriteRevision,
    long lastCuratedRevision,
    @Nullable Instant lastUpdatedAt) {

  /**
   * Whether the topic was written after its last curation.
   *
   * @return true when {@code lastWriteRevision > lastCuratedRevision}
   */
  public boolean dirty() {
    return lastWriteRevision > lastCuratedRevision;
  }
}
