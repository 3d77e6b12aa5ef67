/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.util.List;

/**
 * What {@link Engram#curate(Grants)} did.
 *
 * @param reasonerCurates false when the reasoner has no curate step: nothing was done and topics stay dirty
 * @param topicsCurated the (scope, topic) pairs that went through the reasoner and were marked curated
 * @param applied descriptions of the operations applied, in order
 * @param rejected descriptions of proposed operations that failed validation, with the reason
 */
public record CurateReport(
    boolean reasonerCurates, List<DirtyTopic> topicsCurated, List<String> applied, List<String> rejected) {
  public CurateReport {
    topicsCurated = List.copyOf(topicsCurated);
    applied = List.copyOf(applied);
    rejected = List.copyOf(rejected);
  }
}
