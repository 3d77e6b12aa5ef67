/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.postgres;

import java.time.Instant;
import java.util.Objects;

/**
 * A curation worker's leased claim on one dirty (scope, topic) pair, made by
 * {@link PostgresMemoryStore#claimDirtyTopics}. While the lease runs no other worker can claim the
 * pair; once it has passed the pair is claimable again, so a crashed worker never blocks curation.
 *
 * @param scope the claimed pair's scope
 * @param topic the claimed pair's topic
 * @param lastWriteRevision the scope revision of the latest write touching the topic, when claimed
 * @param lastCuratedRevision the scope revision at the last curation (0 if never), when claimed
 * @param workerId the worker that holds the claim
 * @param token identifies this claim; renewing or releasing needs it, so a worker whose lease passed
 *     and whose pair was claimed by another cannot touch the newer claim
 * @param claimedUntil when the lease ends, by the database clock
 */
public record TopicClaim(
    String scope,
    String topic,
    long lastWriteRevision,
    long lastCuratedRevision,
    String workerId,
    String token,
    Instant claimedUntil) {
  /**
   * Checks the required components.
   *
   * @param scope the claimed pair's scope
   * @param topic the claimed pair's topic
   * @param lastWriteRevision the scope revision of the latest write touching the topic, when claimed
   * @param lastCuratedRevision the scope revision at the last curation, when claimed
   * @param workerId the worker that holds the claim
   * @param token identifies this claim
   * @param claimedUntil when the lease ends
   * @throws NullPointerException when {@code scope}, {@code topic}, {@code workerId}, {@code token} or {@code
   *     claimedUntil} is null
   */
  public TopicClaim {
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(topic, "topic");
    Objects.requireNonNull(workerId, "workerId");
    Objects.requireNonNull(token, "token");
    Objects.requireNonNull(claimedUntil, "claimedUntil");
  }
}
