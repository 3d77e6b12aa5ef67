/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.util.List;

/**
 * The review inbox of the scopes a caller's grants reach ({@link Engram#review()}): model-made changes
 * waiting for a person. New experience always waits here; curation ops and extracted memories wait here
 * when the application turns review on for them ({@link EngramBuilder#review}), and otherwise apply at
 * once as before. A pending item changes nothing and never reaches read, search or context.
 *
 * <p>Items are listed and read in the scopes the grants can see; approving, rejecting and revising also
 * need the item's scope to be writable. Every decision and revision names the version the reviewer read
 * ({@link ReviewItem#version()}): a stale version, or an item that is no longer pending, is a
 * {@link VersionConflictException} and changes nothing, so of two reviewers deciding at once exactly one
 * wins. Approval commits through the same path as every other change, with the reviewer as actor, after
 * validating the proposal again against the current state.
 *
 * <p>Errors, on every method: a null argument is a {@link NullPointerException}; a malformed argument an
 * {@link InvalidInputException}; an item the grants cannot see a {@link NotFoundException}; a store
 * without {@link dev.engram.spi.StoreCapability#REVIEW} a {@link CapabilityNotSupportedException}.
 */
public interface ReviewInbox {

  /**
   * Items of the visible scopes, by id (oldest first).
   *
   * @param grants what the caller may see
   * @param options which states, kinds and scope, and the page
   * @return at most {@code options.limit()} items
   * @throws NotFoundException when {@code options.scope()} is not visible
   */
  List<ReviewItem> list(Grants grants, ReviewListOptions options);

  /**
   * {@link #list(Grants, ReviewListOptions)} with the defaults: pending items of every kind.
   *
   * @param grants what the caller may see
   * @return at most {@value ReviewListOptions#DEFAULT_LIMIT} pending items
   */
  default List<ReviewItem> list(Grants grants) {
    return list(grants, ReviewListOptions.defaults());
  }

  /**
   * One item with its diff against the current state.
   *
   * @param grants what the caller may see
   * @param itemId the item
   * @return the item, what approval would change now, and warnings
   * @throws NotFoundException when the item does not exist or is not visible
   */
  ReviewDetail get(Grants grants, String itemId);

  /**
   * Approves a pending item: its proposal is validated again and committed (an experience recorded as a
   * new version 1, a curation op applied as curation would apply it, an extracted memory committed as the
   * flush would), with the reviewer as actor; the item becomes {@link ReviewState#APPROVED} in the same
   * transaction. An approved curation op can be undone with {@link Engram#undoCuration} and the outcome's
   * run id. A proposal the current state no longer allows (its entry changed or is gone) is refused with
   * the error that names why, and the item stays pending.
   *
   * @param grants grants that can see and write the item's scope
   * @param itemId the item
   * @param request the version read, the reviewer, a note
   * @return what the approval made
   * @throws VersionConflictException when the item is not at the expected version or not pending
   * @throws ScopeViolationException when the item's scope is not writable
   * @throws InvalidInputException when the proposal no longer applies
   */
  ReviewOutcome approve(Grants grants, String itemId, ApproveRequest request);

  /**
   * Rejects a pending item with a reason; nothing else changes.
   *
   * @param grants grants that can see and write the item's scope
   * @param itemId the item
   * @param request the version read, the reviewer and the reason
   * @return the item, now {@link ReviewState#REJECTED}
   * @throws VersionConflictException when the item is not at the expected version or not pending
   * @throws InvalidInputException when the reason is blank or longer than {@value ReviewItem#MAX_REASON_CHARS}
   */
  ReviewItem reject(Grants grants, String itemId, RejectRequest request);

  /**
   * Replaces fields of a pending item's proposal; it stays pending at the next version.
   *
   * @param grants grants that can see and write the item's scope
   * @param itemId the item
   * @param request the version read, the reviewer and the new fields
   * @return the revised item
   * @throws VersionConflictException when the item is not at the expected version or not pending
   * @throws InvalidInputException when a field is invalid, or not one the item's kind has
   */
  ReviewItem revise(Grants grants, String itemId, ReviseRequest request);
}
