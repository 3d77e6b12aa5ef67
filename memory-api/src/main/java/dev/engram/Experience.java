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
 * One immutable version of a lesson learned from a task outcome: what the situation was, what was done,
 * how it turned out, and what to do next time. Experience is its own kind of memory beside entries: it
 * lives in a scope, has versions and a history, is erased with its scope and moves with export and
 * import. A model never writes it directly: what the reasoner incubates from captured task outcomes is a
 * pending {@link ReviewItem} that a person approves ({@link ReviewInbox}); trusted application code may
 * record it directly ({@link Experiences#record}). Only {@link ExperienceStatus#ACTIVE} versions reach
 * {@link Engram#prepareContext}, as a bounded share of it.
 *
 * @param experienceId stable across versions
 * @param versionId identifies exactly this version
 * @param version 1, 2, … within the experience
 * @param previousVersionId the version this one replaced, or null for version 1
 * @param scope the namespace the experience lives in
 * @param situation the task and its circumstances (non-blank, at most {@value #MAX_FIELD_CHARS} characters)
 * @param action what was done
 * @param outcome how it turned out
 * @param lesson what to do (or avoid) next time
 * @param evidence ids of the captured sources it rests on (at most {@value #MAX_EVIDENCE})
 * @param status active, superseded or retired
 * @param actor who made this version (the reviewer who approved it, or the application's actor)
 * @param reason why, when the actor said
 * @param reviewItemId the review item whose approval made this version, or null when written directly
 * @param createdAt when this version was made
 * @param updatedAt when this version was made or its status last changed
 */
public record Experience(
    String experienceId,
    String versionId,
    int version,
    @Nullable String previousVersionId,
    String scope,
    String situation,
    String action,
    String outcome,
    String lesson,
    List<String> evidence,
    ExperienceStatus status,
    @Nullable String actor,
    @Nullable String reason,
    @Nullable String reviewItemId,
    Instant createdAt,
    Instant updatedAt) {
  /** The longest situation, action, outcome or lesson, in characters. */
  public static final int MAX_FIELD_CHARS = 8_000;
  /** The most captured sources one experience cites. */
  public static final int MAX_EVIDENCE = 32;
  /** The metadata key that marks a captured source as a task outcome (see {@link SourceRecord#taskOutcome}). */
  public static final String KIND_METADATA_KEY = "kind";
  /** The value of {@link #KIND_METADATA_KEY} on a captured task outcome. */
  public static final String TASK_OUTCOME = "task_outcome";

  /**
   * Validates and copies the components.
   *
   * @param experienceId stable across versions
   * @param versionId identifies exactly this version
   * @param version 1, 2, … within the experience; at least 1
   * @param previousVersionId the version this one replaced, or null for version 1
   * @param scope the namespace the experience lives in
   * @param situation the task and its circumstances
   * @param action what was done
   * @param outcome how it turned out
   * @param lesson what to do (or avoid) next time
   * @param evidence ids of the captured sources it rests on
   * @param status active, superseded or retired
   * @param actor who made this version, or null
   * @param reason why, or null
   * @param reviewItemId the review item whose approval made this version, or null when written directly
   * @param createdAt when this version was made
   * @param updatedAt when this version was made or its status last changed
   * @throws NullPointerException when a component that may not be null is null, or {@code evidence} holds
   *     a null
   * @throws InvalidInputException when {@code version} is below 1
   */
  public Experience {
    Objects.requireNonNull(experienceId, "experienceId");
    Objects.requireNonNull(versionId, "versionId");
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(situation, "situation");
    Objects.requireNonNull(action, "action");
    Objects.requireNonNull(outcome, "outcome");
    Objects.requireNonNull(lesson, "lesson");
    evidence = List.copyOf(evidence);
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(createdAt, "createdAt");
    Objects.requireNonNull(updatedAt, "updatedAt");
    if (version < 1) {
      throw new InvalidInputException("version", "must be >= 1, was " + version);
    }
  }

  /** @return whether this version is the live one, eligible for context */
  public boolean isActive() {
    return status == ExperienceStatus.ACTIVE;
  }

  /** @return the exact citation of this version */
  public ExperienceCitation citation() {
    return new ExperienceCitation(scope, experienceId, versionId, version);
  }

  /**
   * This version with another status.
   *
   * @param next the new status
   * @param at when it changed
   * @return the version with {@code next} and {@code updatedAt = at}
   */
  public Experience withStatus(ExperienceStatus next, Instant at) {
    return new Experience(experienceId, versionId, version, previousVersionId, scope, situation, action, outcome,
        lesson, evidence, next, actor, reason, reviewItemId, createdAt, at);
  }

  /**
   * The four fields as one text, in order, each on its own line after its label: what full-text search
   * indexes and what context renders.
   *
   * @return {@code "Situation: …\nAction: …\nOutcome: …\nLesson: …"}
   */
  public String text() {
    return "Situation: " + situation + "\nAction: " + action + "\nOutcome: " + outcome + "\nLesson: " + lesson;
  }
}
