/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

/**
 * A (scope, topic) pair with writes newer than its last curation: the work item of curation workers.
 *
 * @param scope the scope
 * @param topic the topic
 * @param lastWriteRevision the scope revision of the latest write touching the topic
 * @param lastCuratedRevision the scope revision at the last curation (0 if never)
 */
public record DirtyTopic(String scope, String topic, long lastWriteRevision, long lastCuratedRevision) {}
