/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ScheduledExecutorService;
import org.jspecify.annotations.Nullable;

/**
 * Settings of a {@link MaintenanceRunner}. Immutable; made by {@link #defaults()} or {@link #builder()}.
 *
 * <pre>{@code
 * MaintenanceRunner runner = engram.operator().startMaintenance(List.of(Grants.of("app/user/u_123")),
 *     MaintenanceOptions.builder().interval(Duration.ofMinutes(10)).listener(report -> metrics.record(report)).build());
 * }</pre>
 */
public final class MaintenanceOptions {
  /** The default {@link #interval()}. */
  public static final Duration DEFAULT_INTERVAL = Duration.ofMinutes(5);
  /** The default {@link #lease()}. */
  public static final Duration DEFAULT_LEASE = Duration.ofMinutes(10);
  /** The default {@link #claimLimit()}. */
  public static final int DEFAULT_CLAIM_LIMIT = CurateReport.MAX_TOPICS_PER_CALL;
  /** The longest {@link #interval()} and {@link #initialDelay()}. */
  public static final Duration MAX_INTERVAL = Duration.ofDays(7);
  private static final MaintenanceOptions DEFAULTS = builder().build();

  private final Duration interval;
  private final @Nullable Duration initialDelay;
  private final boolean curate;
  private final boolean flush;
  private final FlushOptions flushOptions;
  private final Duration lease;
  private final int claimLimit;
  private final @Nullable String workerId;
  private final @Nullable ScheduledExecutorService scheduler;
  private final MaintenanceListener listener;

  private MaintenanceOptions(Builder b) {
    this.interval = checkDuration("interval", b.interval, false);
    this.initialDelay = b.initialDelay == null ? null : checkDuration("initialDelay", b.initialDelay, true);
    if (!b.curate && !b.flush) {
      throw new InvalidInputException("curate", "curate and flush are both off; a runner needs at least one task");
    }
    this.curate = b.curate;
    this.flush = b.flush;
    this.flushOptions = b.flushOptions;
    this.lease = dev.engram.spi.WorkClaim.checkLease("lease", b.lease);
    if (b.claimLimit < 1 || b.claimLimit > dev.engram.spi.WorkClaim.MAX_CLAIMS) {
      throw new InvalidInputException("claimLimit",
          "must be between 1 and " + dev.engram.spi.WorkClaim.MAX_CLAIMS + ", was " + b.claimLimit);
    }
    this.claimLimit = b.claimLimit;
    if (b.workerId != null && (b.workerId.isBlank()
        || b.workerId.length() > dev.engram.spi.WorkClaim.MAX_WORKER_ID_CHARS)) {
      throw new InvalidInputException("workerId",
          "must be 1.." + dev.engram.spi.WorkClaim.MAX_WORKER_ID_CHARS + " non-blank characters");
    }
    this.workerId = b.workerId;
    this.scheduler = b.scheduler;
    this.listener = b.listener;
  }

  private static Duration checkDuration(String name, Duration d, boolean zeroAllowed) {
    if (d.isNegative() || (!zeroAllowed && d.isZero())) {
      throw new InvalidInputException(name, "must be " + (zeroAllowed ? "zero or more" : "positive") + ", was " + d);
    }
    if (d.compareTo(MAX_INTERVAL) > 0) {
      throw new InvalidInputException(name, "must be at most 7 days, was " + d);
    }
    return d;
  }

  /**
   * @return the default settings: curate and flush every 5 minutes on a thread of the runner's own
   */
  public static MaintenanceOptions defaults() {
    return DEFAULTS;
  }

  /**
   * @return a builder with the default settings
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * @return a builder holding these settings
   */
  public Builder toBuilder() {
    Builder b = new Builder().interval(interval).curate(curate).flush(flush).flushOptions(flushOptions).lease(lease)
        .claimLimit(claimLimit).listener(listener);
    b.initialDelay = initialDelay;
    b.workerId = workerId;
    b.scheduler = scheduler;
    return b;
  }

  /**
   * @return the time from the end of one run to the start of the next (positive, at most 7 days, default 5
   *     minutes; memrez's {@code MEMREZ_CURATE_INTERVAL})
   */
  public Duration interval() {
    return interval;
  }

  /**
   * @return the time from start to the first run (zero or more, at most 7 days); one {@link #interval()}
   *     unless set
   */
  public Duration initialDelay() {
    return initialDelay == null ? interval : initialDelay;
  }

  /**
   * @return whether runs curate dirty topics (default true; a reasoner without a curate step makes it a no-op)
   */
  public boolean curate() {
    return curate;
  }

  /**
   * @return whether runs flush captured sources (default true; skipped when the store does not declare
   *     {@code SOURCES} or the reasoner does not extract)
   */
  public boolean flush() {
    return flush;
  }

  /**
   * @return the options of each flush call (default {@link FlushOptions#defaults()})
   */
  public FlushOptions flushOptions() {
    return flushOptions;
  }

  /**
   * @return how long a claim lasts (positive, at most 365 days, default 10 minutes); a run longer than the
   *     lease may see another runner take over its items, which repeats work but never commits a flush window
   *     twice
   */
  public Duration lease() {
    return lease;
  }

  /**
   * @return the most items one run claims per grants and task (1..10,000, default 50, a curate call's cap);
   *     what is left is claimed in later runs
   */
  public int claimLimit() {
    return claimLimit;
  }

  /**
   * @return the worker id claims are made under, or null for one generated at start (from the process id and
   *     a random part, so that two runners never share one)
   */
  public @Nullable String workerId() {
    return workerId;
  }

  /**
   * @return the scheduler the runs go on, owned by the caller; null for a daemon thread the runner starts
   *     and stops itself
   */
  public @Nullable ScheduledExecutorService scheduler() {
    return scheduler;
  }

  /**
   * @return who receives each run's report (default {@link MaintenanceListener#NONE}; runs are logged anyway)
   */
  public MaintenanceListener listener() {
    return listener;
  }

  @Override
  public boolean equals(@Nullable Object o) {
    return o instanceof MaintenanceOptions other && interval.equals(other.interval)
        && Objects.equals(initialDelay, other.initialDelay) && curate == other.curate && flush == other.flush
        && flushOptions.equals(other.flushOptions) && lease.equals(other.lease) && claimLimit == other.claimLimit
        && Objects.equals(workerId, other.workerId) && scheduler == other.scheduler && listener == other.listener;
  }

  @Override
  public int hashCode() {
    return Objects.hash(interval, initialDelay, curate, flush, flushOptions, lease, claimLimit, workerId,
        System.identityHashCode(scheduler), System.identityHashCode(listener));
  }

  @Override
  public String toString() {
    return "MaintenanceOptions[interval=" + interval + ", initialDelay=" + initialDelay() + ", curate=" + curate
        + ", flush=" + flush + ", flushOptions=" + flushOptions + ", lease=" + lease + ", claimLimit=" + claimLimit
        + ", workerId=" + workerId + ", scheduler=" + (scheduler == null ? "own thread" : "given") + "]";
  }

  /** A builder; the settings are checked when {@link #build()} runs. */
  public static final class Builder {
    private Duration interval = DEFAULT_INTERVAL;
    private @Nullable Duration initialDelay;
    private boolean curate = true;
    private boolean flush = true;
    private FlushOptions flushOptions = FlushOptions.defaults();
    private Duration lease = DEFAULT_LEASE;
    private int claimLimit = DEFAULT_CLAIM_LIMIT;
    private @Nullable String workerId;
    private @Nullable ScheduledExecutorService scheduler;
    private MaintenanceListener listener = MaintenanceListener.NONE;

    private Builder() {}

    /**
     * @param interval the time from the end of one run to the start of the next (positive, at most 7 days)
     * @return this builder
     */
    public Builder interval(Duration interval) {
      this.interval = Objects.requireNonNull(interval, "interval");
      return this;
    }

    /**
     * @param delay the time from start to the first run (zero or more, at most 7 days)
     * @return this builder
     */
    public Builder initialDelay(Duration delay) {
      this.initialDelay = Objects.requireNonNull(delay, "initialDelay");
      return this;
    }

    /**
     * @param enabled whether runs curate dirty topics
     * @return this builder
     */
    public Builder curate(boolean enabled) {
      this.curate = enabled;
      return this;
    }

    /**
     * @param enabled whether runs flush captured sources
     * @return this builder
     */
    public Builder flush(boolean enabled) {
      this.flush = enabled;
      return this;
    }

    /**
     * @param options the options of each flush call
     * @return this builder
     */
    public Builder flushOptions(FlushOptions options) {
      this.flushOptions = Objects.requireNonNull(options, "flushOptions");
      return this;
    }

    /**
     * @param lease how long a claim lasts (positive, at most 365 days)
     * @return this builder
     */
    public Builder lease(Duration lease) {
      this.lease = Objects.requireNonNull(lease, "lease");
      return this;
    }

    /**
     * @param limit the most items one run claims per grants and task (1..10,000)
     * @return this builder
     */
    public Builder claimLimit(int limit) {
      this.claimLimit = limit;
      return this;
    }

    /**
     * @param id the worker id claims are made under (1..256 non-blank characters); unique per runner
     * @return this builder
     */
    public Builder workerId(String id) {
      this.workerId = Objects.requireNonNull(id, "workerId");
      return this;
    }

    /**
     * @param scheduler where the runs go; the caller keeps it and shuts it down, the runner only cancels its
     *     own task on it
     * @return this builder
     */
    public Builder scheduler(ScheduledExecutorService scheduler) {
      this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
      return this;
    }

    /**
     * @param listener who receives each run's report
     * @return this builder
     */
    public Builder listener(MaintenanceListener listener) {
      this.listener = Objects.requireNonNull(listener, "listener");
      return this;
    }

    /**
     * @return the settings
     * @throws InvalidInputException naming the setting that is out of range
     */
    public MaintenanceOptions build() {
      return new MaintenanceOptions(this);
    }
  }
}
