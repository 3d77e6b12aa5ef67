/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * One model-made change waiting in (or decided in) a scope's review inbox. Every write to it (approve,
 * reject, revise) names the {@link #version()} the reviewer read, so of two reviewers deciding at once
 * exactly one wins and the other gets a {@link VersionConflictException}. A pending item changes nothing:
 * it never reaches read, search or context.
 *
 * @param id the item's id
 * @param scope the scope the change would land in
 * @param kind what the proposal is (always {@code proposal.kind()})
 * @param state pending, approved or rejected
 * @param version 1 when queued, one more with each revision and with the decision
 * @param proposal what approval would change
 * @param targets ids of the existing entries the proposal changes (a curation op's entries, the entry at an
 *     extracted memory's path); erasing one of them erases the item too
 * @param evidence ids of the captured sources the proposal rests on
 * @param proposedBy the step that queued it ({@code incubation}, {@code curation}, {@code extraction})
 * @param decidedBy the reviewer who last revised or decided it, or null
 * @param reason the reviewer's reason (required for a rejection), or null
 * @param results what the approval made: the experience version id, or the entry version ids (empty
 *     until approved, and for an approval that found nothing left to change)
 * @param createdAt when it was queued
 * @param updatedAt when it last changed
 */
public record ReviewItem(
    String id,
    String scope,
    ReviewKind kind,
    ReviewState state,
    long version,
    ReviewProposal proposal,
    List<String> targets,
    List<String> evidence,
    String proposedBy,
    @Nullable String decidedBy,
    @Nullable String reason,
    List<String> results,
    Instant createdAt,
    Instant updatedAt) {
  /** The longest reason a reviewer may give, in characters. */
  public static final int MAX_REASON_CHARS = 2_000;

  /**
   * Validates and copies the components.
   *
   * @param id the item's id
   * @param scope the scope the change would land in
   * @param kind what the proposal is; must equal {@code proposal.kind()}
   * @param state pending, approved or rejected
   * @param version 1 when queued, one more with each revision and with the decision; at least 1
   * @param proposal what approval would change
   * @param targets ids of the existing entries the proposal changes
   * @param evidence ids of the captured sources the proposal rests on
   * @param proposedBy the step that queued it
   * @param decidedBy the reviewer who last revised or decided it, or null
   * @param reason the reviewer's reason, or null
   * @param results what the approval made, empty until approved
   * @param createdAt when it was queued
   * @param updatedAt when it last changed
   * @throws NullPointerException when a component that may not be null is null, or a list holds a null
   * @throws InvalidInputException when {@code version} is below 1 or {@code kind} is not the proposal's
   */
  public ReviewItem {
    Objects.requireNonNull(id, "id");
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(kind, "kind");
    Objects.requireNonNull(state, "state");
    Objects.requireNonNull(proposal, "proposal");
    targets = List.copyOf(targets);
    evidence = List.copyOf(evidence);
    Objects.requireNonNull(proposedBy, "proposedBy");
    results = List.copyOf(results);
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(updatedAt, "updatedAt");
    if (version < 1) {
      throw new InvalidInputException("version", "must be >= 1, was " + version);
    }
    if (kind != proposal.kind()) {
      throw new InvalidInputException("kind", kind + " does not match a " + proposal.kind() + " proposal");
    }
  }

  /** @return whether the item still waits for a decision */
  public boolean isPending() {
    return state == ReviewState.PENDING;
  }

  /**
   * The next version of this item.
   *
   * @param nextState its state
   * @param nextProposal its proposal
   * @param by the reviewer
   * @param why the reviewer's reason, or null
   * @param made what an approval made
   * @param at when
   * @return the item at {@code version + 1}
   */
  public ReviewItem next(ReviewState nextState, ReviewProposal nextProposal, String by, @Nullable String why,
      List<String> made, Instant at) {
    return new ReviewItem(id, scope, kind, nextState, version + 1, nextProposal, targets, evidence, proposedBy, by, why,
        made, createdAt, at);
  }
}
