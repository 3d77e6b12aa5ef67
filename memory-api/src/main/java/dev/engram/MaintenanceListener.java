/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

/**
 * Receives the report of every run of a {@link MaintenanceRunner}, on the thread that ran it (the
 * scheduler's, or the caller's for {@link MaintenanceRunner#runNow()}), after the run. An exception it
 * throws is logged and changes nothing: the runner keeps its schedule.
 */
@FunctionalInterface
public interface MaintenanceListener {
  /** A listener that does nothing (every run is logged anyway). */
  MaintenanceListener NONE = report -> {};

  /**
   * Called once per run.
   *
   * @param report what the run did
   */
  void onRun(MaintenanceReport report);
}
