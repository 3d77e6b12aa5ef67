/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.spi;

import dev.engram.InvalidInputException;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A leased claim on one unit of maintenance work, made by a store declaring
 * {@link StoreCapability#WORK_CLAIMS}: a dirty (scope, topic) pair to curate, or a scope whose captured
 * sources wait after its extraction cursor. While the lease runs no other claimer gets the same item; once
 * it has passed the item is claimable again, so a crashed worker never blocks maintenance. A claim only
 * spreads work: what keeps curation and extraction correct when two workers overlap (a lease that ran out
 * while its holder was still busy) are the engine's commits, each validated against the current state.
 *
 * @param kind what is claimed
 * @param scope the claimed item's scope
 * @param topic the claimed topic for {@link Kind#DIRTY_TOPIC}; null for {@link Kind#PENDING_SOURCES}
 * @param workerId the worker that holds the claim
 * @param token identifies this claim; releasing it needs the token, so a worker whose lease passed and
 *     whose item went to another worker cannot release the newer claim
 * @param claimedUntil when the lease ends, by the store's clock (the database's, for a shared database)
 */
public record WorkClaim(
    Kind kind, String scope, @Nullable String topic, String workerId, String token, Instant claimedUntil) {
  /** The most items one claim call hands out. */
  public static final int MAX_CLAIMS = 10_000;
  /** The most characters of a worker id. */
  public static final int MAX_WORKER_ID_CHARS = 256;
  /** The longest lease. */
  public static final Duration MAX_LEASE = Duration.ofDays(365);

  /** What a claim names. */
  public enum Kind {
    /** A (scope, topic) pair with writes newer than its last curation. */
    DIRTY_TOPIC,
    /** A scope whose last captured source position is past its extraction cursor. */
    PENDING_SOURCES
  }

  /**
   * Checks the components.
   *
   * @param kind what is claimed
   * @param scope the scope
   * @param topic the topic of a {@link Kind#DIRTY_TOPIC} claim, null otherwise
   * @param workerId the holder
   * @param token the claim's token
   * @param claimedUntil the end of the lease
   * @throws NullPointerException when a required component is null, or a topic claim has no topic
   * @throws IllegalArgumentException when a {@link Kind#PENDING_SOURCES} claim names a topic
   */
  public WorkClaim {
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(workerId, "workerId");
    Objects.requireNonNull(token, "token");
    Objects.requireNonNull(claimedUntil, "claimedUntil");
    if (kind == Kind.DIRTY_TOPIC) {
      Objects.requireNonNull(topic, "topic (of a DIRTY_TOPIC claim)");
    } else if (topic != null) {
      throw new IllegalArgumentException("a PENDING_SOURCES claim names no topic, was " + topic);
    }
  }

  /**
   * Checks the arguments of a claim call the same way on every store: a worker id of 1..256 non-blank
   * characters, scopes that are valid namespaces, a limit of 1..{@value #MAX_CLAIMS}, a positive lease
   * of at most 365 days.
   *
   * @param workerId names the worker
   * @param scopes the scopes to claim in
   * @param limit the most items claimed
   * @param lease how long the claims last
   * @return the scopes, deduplicated and sorted
   * @throws NullPointerException when an argument or a scope is null
   * @throws InvalidInputException naming the argument that is out of range
   */
  public static List<String> checkClaim(String workerId, Collection<String> scopes, int limit, Duration lease) {
    Objects.requireNonNull(workerId, "workerId");
    Objects.requireNonNull(scopes, "scopes");
    Objects.requireNonNull(lease, "lease");
    if (workerId.isBlank() || workerId.length() > MAX_WORKER_ID_CHARS) {
      throw new InvalidInputException("workerId", "must be 1.." + MAX_WORKER_ID_CHARS + " non-blank characters");
    }
    if (limit < 1 || limit > MAX_CLAIMS) {
      throw new InvalidInputException("limit", "must be between 1 and " + MAX_CLAIMS + ", was " + limit);
    }
    checkLease("lease", lease);
    java.util.TreeSet<String> out = new java.util.TreeSet<>();
    for (String scope : scopes) {
      out.add(dev.engram.Namespaces.validate("scopes", Objects.requireNonNull(scope, "scope")));
    }
    return List.copyOf(out);
  }

  /**
   * Checks a lease: positive and at most 365 days.
   *
   * @param name the setting's name, for the message
   * @param lease the lease
   * @return {@code lease}
   * @throws NullPointerException when {@code lease} is null
   * @throws InvalidInputException when it is not positive or longer than 365 days
   */
  public static Duration checkLease(String name, Duration lease) {
    Objects.requireNonNull(lease, name);
    if (lease.isNegative() || lease.isZero()) {
      throw new InvalidInputException(name, "must be positive, was " + lease);
    }
    if (lease.compareTo(MAX_LEASE) > 0) {
      throw new InvalidInputException(name, "must be at most 365 days, was " + lease);
    }
    return lease;
  }
}
