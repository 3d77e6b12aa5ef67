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
 * @param scope the scope
 * @param topic the topic
 * @param activeCount active entries carrying the topic
 * @param blurb the topic's one-line summary from the last curation pass, or null when it has none
 * @param lastWriteRevision scope revision of the latest change touching the topic
 * @param lastCuratedRevision scope revision at the last curation pass (0 if never)
 * @param lastUpdatedAt when the latest change touching the topic happened, or null when unknown
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
