/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.util.List;

/**
 * What an export or import covered.
 *
 * @param scopes the scopes written (export) or to be written (import), in order
 * @param versions entry versions
 * @param events history events
 * @param revisions revisions with their change sets
 * @param topics topic rows
 * @param sources captured source records
 * @param experience experience versions
 * @param reviewItems review items, pending and decided
 * @param dryRun true when an import only validated and wrote nothing
 * @param replaced how many active entries a restore ({@link ImportMode#REPLACE}) replaced, across its scopes
 *     (in a dry run: would replace); 0 for an export and an import into empty scopes
 */
public record TransferReport(
    List<String> scopes, int versions, int events, int revisions, int topics, int sources, int experience,
    int reviewItems, boolean dryRun, int replaced) {
  /**
   * Copies the scopes.
   *
   * @param scopes the scopes written (export) or to be written (import), in order
   * @param versions entry versions
   * @param events history events
   * @param revisions revisions with their change sets
   * @param topics topic rows
   * @param sources captured source records
   * @param experience experience versions
   * @param reviewItems review items, pending and decided
   * @param dryRun true when an import only validated and wrote nothing
   * @param replaced how many active entries a restore replaced (in a dry run: would replace)
   * @throws InvalidInputException when {@code replaced} is negative
   * @throws NullPointerException when {@code scopes} or one of its elements is null
   */
  public TransferReport {
    scopes = List.copyOf(scopes);
    if (replaced < 0) {
      throw new InvalidInputException("replaced", "must be >= 0, was " + replaced);
    }
  }

  /**
   * A report that replaced nothing.
   *
   * @param scopes the scopes
   * @param versions entry versions
   * @param events history events
   * @param revisions revisions
   * @param topics topic rows
   * @param sources captured source records
   * @param experience experience versions
   * @param reviewItems review items
   * @param dryRun whether an import only validated
   */
  public TransferReport(
      List<String> scopes, int versions, int events, int revisions, int topics, int sources, int experience,
      int reviewItems, boolean dryRun) {
    this(scopes, versions, events, revisions, topics, sources, experience, reviewItems, dryRun, 0);
  }

  /**
   * A report without experience or review items.
   *
   * @param scopes the scopes
   * @param versions entry versions
   * @param events history events
   * @param revisions revisions
   * @param topics topic rows
   * @param sources captured source records
   * @param dryRun whether an import only validated
   */
  public TransferReport(
      List<String> scopes, int versions, int events, int revisions, int topics, int sources, boolean dryRun) {
    this(scopes, versions, events, revisions, topics, sources, 0, 0, dryRun);
  }

  /**
   * A report without captured sources.
   *
   * @param scopes the scopes
   * @param versions entry versions
   * @param events history events
   * @param revisions revisions
   * @param topics topic rows
   * @param dryRun whether an import only validated
   */
  public TransferReport(List<String> scopes, int versions, int events, int revisions, int topics, boolean dryRun) {
    this(scopes, versions, events, revisions, topics, 0, dryRun);
  }
}
