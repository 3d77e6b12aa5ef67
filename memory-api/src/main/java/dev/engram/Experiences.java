/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.util.List;

/**
 * The experience of the scopes a caller's grants reach ({@link Engram#experience()}): lessons learned
 * from task outcomes. Trusted application code records and revises experience directly; the reasoner
 * incubates it from captured task outcomes ({@link SourceRecord#taskOutcome}) as pending items of the
 * {@link ReviewInbox}, which only a person approves. Active experience of the visible scopes reaches
 * {@link Engram#prepareContext} as a bounded share of it, labelled as experience and cited.
 *
 * <p>Visibility and write authority follow the grants exactly as for entries. Errors, on every method: a
 * null argument is a {@link NullPointerException}; a malformed argument an {@link InvalidInputException}
 * naming it; an experience the grants cannot see a {@link NotFoundException}; a store without
 * {@link dev.engram.spi.StoreCapability#REVIEW} a {@link CapabilityNotSupportedException}.
 */
public interface Experiences {

  /**
   * Records a new experience (version 1), active at once: trusted code needs no review.
   *
   * @param grants what the caller may write
   * @param request the four fields, the scope, evidence, actor and reason
   * @return the stored version
   * @throws InvalidInputException when a field is blank or too long, or evidence has more than
   *     {@value Experience#MAX_EVIDENCE} references
   * @throws ScopeViolationException when the target scope is not writable
   */
  Experience record(Grants grants, ExperienceRequest request);

  /**
   * Writes a new version of an active experience; the old one is superseded. Equal fields are a no-op
   * that returns the current version.
   *
   * @param grants what the caller may write
   * @param experienceId the experience
   * @param expectedVersion the version the caller read
   * @param request the new fields (its scope is ignored: an experience stays in its scope)
   * @return the new current version
   * @throws VersionConflictException when the experience is not at {@code expectedVersion}
   * @throws EntryStateException when the experience is retired
   */
  Experience revise(Grants grants, String experienceId, long expectedVersion, ExperienceRequest request);

  /**
   * Retires an active experience: a new version with status {@link ExperienceStatus#RETIRED} and the
   * reason replaces the active one, so it stops reaching context; every version stays readable.
   *
   * @param grants what the caller may write
   * @param experienceId the experience
   * @param expectedVersion the version the caller read
   * @param reason why, kept on the version
   * @return the new, retired version
   * @throws VersionConflictException when the experience is not at {@code expectedVersion}
   * @throws EntryStateException when it is already retired
   */
  Experience retire(Grants grants, String experienceId, long expectedVersion, String reason);

  /**
   * The current version of an experience, whatever its status.
   *
   * @param grants what the caller may see
   * @param experienceId the experience
   * @return its newest version
   * @throws NotFoundException when it does not exist or is not visible
   */
  Experience get(Grants grants, String experienceId);

  /**
   * Every version of an experience, oldest first: its history.
   *
   * @param grants what the caller may see
   * @param experienceId the experience
   * @return its versions
   * @throws NotFoundException when it does not exist or is not visible
   */
  List<Experience> history(Grants grants, String experienceId);

  /**
   * Experience versions of the visible scopes, by scope then experience then version.
   *
   * @param grants what the caller may see
   * @param options which statuses and scope, how many
   * @return at most {@code options.limit()} versions
   * @throws NotFoundException when {@code options.scope()} is not visible
   */
  List<Experience> list(Grants grants, ExperienceListOptions options);

  /**
   * Erases an experience everywhere: every version, its full-text rows, and the review items that name it.
   *
   * @param grants what the caller may write
   * @param experienceId the experience
   * @return the number of versions removed
   * @throws NotFoundException when it does not exist or is not visible
   * @throws ScopeViolationException when its scope is not writable
   */
  int delete(Grants grants, String experienceId);

  /**
   * Incubates experience from captured task outcomes: per writable scope at or below the grants, the
   * task outcomes after the scope's incubation cursor (its own, independent of extraction's) go to
   * {@link dev.engram.spi.Reasoner#incubate} in windows of at most {@value IncubateOptions#MAX_WINDOW_RECORDS};
   * its answer is validated as untrusted (evidence must be ids of the window, each field within its
   * limit) and queued as pending {@link ReviewKind#EXPERIENCE} items in one transaction with the cursor
   * advance. Nothing is ever approved here. A reasoner that fails or answers badly stops its scope for
   * this call (listed on {@link IncubationReport#failures()} and logged, nothing of the window queued, the
   * cursor before it); the other scopes go on. A reasoner that does not incubate (the deterministic one)
   * makes a report saying so and changes nothing.
   *
   * @param grants what the caller may write
   * @param options window size and bound
   * @return what was queued, and the windows that failed
   * @throws CapabilityNotSupportedException when the store does not declare {@code SOURCES} and {@code REVIEW}
   */
  IncubationReport incubate(Grants grants, IncubateOptions options);

  /**
   * {@link #incubate(Grants, IncubateOptions)} with the defaults.
   *
   * @param grants what the caller may write
   * @return what was queued
   */
  default IncubationReport incubate(Grants grants) {
    return incubate(grants, IncubateOptions.defaults());
  }
}
