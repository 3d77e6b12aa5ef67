/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * What {@link Engram#scan(Grants)} reports for one topic of one visible scope.
 *
 * @param scope the visible scope
 * @param topic the topic
 * @param count active entries carrying the topic
 * @param blurb the topic's one-line summary from the last curation pass, or null when it has none
 * @param lastUpdatedAt when the latest change touching the topic happened, or null when unknown
 * @param hasUncuratedWrites writes newer than the last curation pass
 */
public record TopicSummary(
    String scope,
    String topic,
    int count,
    @Nullable String blurb,
    @Nullable Instant lastUpdatedAt,
    boolean hasUncuratedWrites) {}
