/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * An experience as trusted application code writes it ({@link Experiences#record},
 * {@link Experiences#revise}). Values are validated when the call runs: each of the four fields is
 * non-blank and at most {@value Experience#MAX_FIELD_CHARS} characters, evidence names at most
 * {@value Experience#MAX_EVIDENCE} captured sources.
 *
 * <pre>{@code
 * engram.experience().record(grants, ExperienceRequest.builder(
 *         "Deploying the billing service on a Friday",
 *         "Ran the migration before the deploy",
 *         "The deploy failed: the old pods read the new schema",
 *         "Deploy first, migrate after the old pods are gone")
 *     .evidence(List.of("turn-42"))
 *     .build());
 * }</pre>
 */
public final class ExperienceRequest {
  private final String situation;
  private final String action;
  private final String outcome;
  private final String lesson;
  private final @Nullable String scope;
  private final List<String> evidence;
  private final @Nullable String actor;
  private final @Nullable String reason;

  private ExperienceRequest(Builder b) {
    this.situation = b.situation;
    this.action = b.action;
    this.outcome = b.outcome;
    this.lesson = b.lesson;
    this.scope = b.scope;
    this.evidence = List.copyOf(b.evidence);
    this.actor = b.actor;
    this.reason = b.reason;
  }

  /**
   * Starts a request with the four fields.
   *
   * @param situation the task and its circumstances
   * @param action what was done
   * @param outcome how it turned out
   * @param lesson what to do next time
   * @return a builder
   * @throws NullPointerException when a field is null
   */
  public static Builder builder(String situation, String action, String outcome, String lesson) {
    return new Builder(situation, action, outcome, lesson);
  }

  /** @return the task and its circumstances */
  public String situation() {
    return situation;
  }

  /** @return what was done */
  public String action() {
    return action;
  }

  /** @return how it turned out */
  public String outcome() {
    return outcome;
  }

  /** @return what to do next time */
  public String lesson() {
    return lesson;
  }

  /** @return the target scope (writable with the grants); null: the first grant (ignored by a revision) */
  public @Nullable String scope() {
    return scope;
  }

  /** @return ids of the captured sources of the scope it rests on */
  public List<String> evidence() {
    return evidence;
  }

  /** @return who writes it, kept on the version; null: the application */
  public @Nullable String actor() {
    return actor;
  }

  /** @return why, kept on the version */
  public @Nullable String reason() {
    return reason;
  }

  /** Builds an {@link ExperienceRequest}. */
  public static final class Builder {
    private final String situation;
    private final String action;
    private final String outcome;
    private final String lesson;
    private @Nullable String scope;
    private List<String> evidence = List.of();
    private @Nullable String actor;
    private @Nullable String reason;

    private Builder(String situation, String action, String outcome, String lesson) {
      this.situation = Objects.requireNonNull(situation, "situation");
      this.action = Objects.requireNonNull(action, "action");
      this.outcome = Objects.requireNonNull(outcome, "outcome");
      this.lesson = Objects.requireNonNull(lesson, "lesson");
    }

    /**
     * @param target the scope to record into (writable with the grants)
     * @return this builder
     */
    public Builder scope(String target) {
      this.scope = Objects.requireNonNull(target, "scope");
      return this;
    }

    /**
     * @param sourceIds ids of captured sources of the scope
     * @return this builder
     */
    public Builder evidence(List<String> sourceIds) {
      this.evidence = List.copyOf(Objects.requireNonNull(sourceIds, "evidence"));
      return this;
    }

    /**
     * @param who who writes it
     * @return this builder
     */
    public Builder actor(String who) {
      this.actor = Objects.requireNonNull(who, "actor");
      return this;
    }

    /**
     * @param why why it is written
     * @return this builder
     */
    public Builder reason(String why) {
      this.reason = Objects.requireNonNull(why, "reason");
      return this;
    }

    /** @return the request */
    public ExperienceRequest build() {
      return new ExperienceRequest(this);
    }
  }
}
