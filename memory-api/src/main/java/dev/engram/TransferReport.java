/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.util.List;

/**
 * What an export or import covered.
 *
 * @param dryRun true when an import only validated and wrote nothing
 */
public record TransferReport(
    List<String> scopes, int versions, int events, int revisions, int topics, boolean dryRun) {
  public TransferReport {
    scopes = List.copyOf(scopes);
  }
}
