/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.util.Objects;

/**
 * An exact reference to one version of an {@link Experience}, as {@link PreparedContext} cites the
 * experience it renders; readable with {@link Experiences#history} until erased.
 *
 * @param scope the experience's scope
 * @param experienceId the experience
 * @param versionId exactly this version
 * @param version its number within the experience
 */
public record ExperienceCitation(String scope, String experienceId, String versionId, int version) {
  /**
   * Validates the components.
   *
   * @param scope the experience's scope
   * @param experienceId the experience
   * @param versionId exactly this version
   * @param version its number within the experience, at least 1
   * @throws NullPointerException when {@code scope}, {@code experienceId} or {@code versionId} is null
   * @throws InvalidInputException when {@code version} is below 1
   */
  public ExperienceCitation {
    Objects.requireNonNull(scope, "scope");
    Objects.requireNonNull(experienceId, "experienceId");
    Objects.requireNonNull(versionId, "versionId");
    if (version < 1) {
      throw new InvalidInputException("version", "must be >= 1, was " + version);
    }
  }

  /** @return {@code scope#experience:experienceId@versionId v<version>}, the form PreparedContext renders */
  public String render() {
    return scope + "#experience:" + experienceId + "@" + versionId + " v" + version;
  }
}
