/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.postgres;

import java.time.Instant;
import java.util.Objects;

/**
 * A flush worker's leased claim on one scope with captured sources after its cursor, made by
 * {@link PostgresMemoryStore#claimPendingSources}. While the lease runs no other worker can claim the
 * scope; once it has passed the scope is claimable again, so a crashed worker never blocks extraction.
 * The claim only spreads the work: the cursor check in each flush commit is what keeps a window from
 * being committed twice, also by a worker whose lease ran out.
 *
 * @param scope the claimed scope; flush it with grants on exactly this scope
 * @param lastPosition the scope's last captured position, when claimed
 * @param cursor the scope's extraction cursor, when claimed
 * @param workerId the worker that holds the claim
 * @param token identifies this claim; releasing needs it
 * @param claimedUntil when the lease ends, by the database clock
 */
public record SourceClaim(
    String scope, long lastPosition, long cursor, String workerId, String token, Instant claimedUntil) {
  /**
   * Checks the required components.
   *
   * @param scope the claimed scope
   * @param lastPosition the scope's last captured position, when claimed
   * @param cursor the scope's extraction cursor, when claimed
   * @param workerId the worker that holds the claim
   * @param token identifies this claim
   * @param claimedUntil when the lease ends
   * @throws NullPointerException when {@code scope}, {@code workerId}, {@code token} or {@code claimedUntil}
   *     is null
   */
  public SourceClaim {
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(workerId, "workerId");
    Objects.requireNonNull(token, "token");
    Objects.requireNonNull(claimedUntil, "claimedUntil");
  }
}
