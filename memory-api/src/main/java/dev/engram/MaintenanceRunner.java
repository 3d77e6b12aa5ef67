/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

/**
 * Scheduled maintenance of an {@link Engram}, started with
 * {@link EngramOperator#startMaintenance(java.util.List, MaintenanceOptions)}: on every run it curates the
 * dirty topics of the scopes its grants may write ({@link Engram#curate}) and flushes their captured sources
 * into memories ({@link Engram#flush}). On a store declaring
 * {@link dev.engram.spi.StoreCapability#WORK_CLAIMS} it first claims the work with a lease, so runners in
 * several processes sharing one store curate and flush disjoint topics and scopes; what another runner holds
 * is skipped and reported ({@link MaintenanceReport#topicsClaimedElsewhere()},
 * {@link MaintenanceReport#scopesClaimedElsewhere()}). Without the capability it curates and flushes the
 * grants' scopes directly, which stays correct with several runners (every commit is validated against the
 * current state, a flush window commits once) but may repeat work.
 *
 * <p>Every run makes a {@link MaintenanceReport}, logged and handed to the
 * {@linkplain MaintenanceOptions#listener() listener}. A failure (a reasoner down, a store error) is
 * recorded in the report for its scope, the run goes on with the next scope, and later runs happen on
 * schedule. Runs never overlap: a {@link #runNow()} waits for a scheduled run in progress, and the
 * schedule waits one {@linkplain MaintenanceOptions#interval() interval} after each run ends.
 *
 * <p>Ownership: {@link #close()} stops the schedule; closing the {@link Engram} it was started from
 * closes it too. A scheduler handed in with {@link MaintenanceOptions.Builder#scheduler} belongs to the
 * caller and is never shut down here (only this runner's task on it is cancelled); without one the runner
 * starts one daemon thread of its own and shuts it down on close. A run in progress when the runner is
 * closed stops before its next item and releases the claims it holds.
 *
 * <p>Thread-safe.
 */
public interface MaintenanceRunner extends AutoCloseable {
  /**
   * Runs one pass now, on the calling thread, after a scheduled run in progress ends; the schedule goes
   * on as before. The report also goes to the listener.
   *
   * @return what the pass did
   * @throws IllegalStateException when the runner is closed
   */
  MaintenanceReport runNow();

  /**
   * The worker id under which this runner claims work ({@link MaintenanceOptions#workerId()}, or the one
   * generated for it).
   *
   * @return the worker id
   */
  String workerId();

  /**
   * The tasks this runner's runs do: those its options turn on that the engine can do ({@link
   * MaintenanceReport.Task#CURATE} needs a reasoner with a curate step, {@link MaintenanceReport.Task#FLUSH} a
   * store with sources and a reasoner that extracts). Empty when neither can run: the runs then do nothing.
   *
   * @return the tasks, in their order within a run
   */
  java.util.Set<MaintenanceReport.Task> tasks();

  /**
   * Whether {@link #close()} was called (directly or by closing the engine).
   *
   * @return true once closed
   */
  boolean isClosed();

  /**
   * Stops the schedule: no run starts after this call. Idempotent; never throws.
   */
  @Override
  void close();
}
