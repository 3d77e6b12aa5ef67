/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.internal;

import dev.engram.CurateReport;
import dev.engram.DirtyTopic;
import dev.engram.ErrorCode;
import dev.engram.FlushReport;
import dev.engram.Grants;
import dev.engram.MaintenanceOptions;
import dev.engram.MaintenanceReport;
import dev.engram.MaintenanceRunner;
import dev.engram.MemoryException;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.StoreCapability;
import dev.engram.spi.TopicState;
import dev.engram.spi.WorkClaim;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The engine's {@link MaintenanceRunner}: a task on a scheduler that, per run and per grants, claims dirty
 * topics and pending source scopes (on stores with {@link StoreCapability#WORK_CLAIMS}), curates and flushes
 * what it claimed through the engine, releases the claims and reports. One pass at a time ({@link #running}).
 */
final class Maintenance implements MaintenanceRunner {
  private static final Logger LOG = LoggerFactory.getLogger(Maintenance.class);
  private static final AtomicInteger THREADS = new AtomicInteger();

  private final MemoryEngine engine;
  private final MemoryStore store;
  private final List<Grants> grants;
  private final MaintenanceOptions options;
  private final Clock clock;
  private final Consumer<Maintenance> onClose;
  private final String workerId;
  private final boolean curate;
  private final boolean flush;
  private final boolean claims;
  private final ScheduledExecutorService scheduler;
  /** The scheduler this runner started for itself, shut down on close; null when one was handed in. */
  private final @Nullable ScheduledExecutorService own;
  private final ReentrantLock running = new ReentrantLock();
  private final AtomicBoolean closed = new AtomicBoolean();
  private final AtomicLong runs = new AtomicLong();
  private volatile @Nullable ScheduledFuture<?> task;

  Maintenance(MemoryEngine engine, MemoryStore store, List<Grants> grants, MaintenanceOptions options, Clock clock,
      Consumer<Maintenance> onClose) {
    this.engine = engine;
    this.store = store;
    this.grants = List.copyOf(grants);
    this.options = options;
    this.clock = clock;
    this.onClose = onClose;
    this.workerId = options.workerId() != null ? options.workerId()
        : "engram-" + ProcessHandle.current().pid() + "-" + UUID.randomUUID().toString().substring(0, 8);
    this.curate = options.curate() && engine.curates();
    this.flush = options.flush() && engine.flushes();
    this.claims = store.capabilities().contains(StoreCapability.WORK_CLAIMS);
    if (options.curate() && !curate) {
      LOG.info("maintenance {}: curation is off, the reasoner has no curate step", workerId);
    }
    if (options.flush() && !flush) {
      LOG.info("maintenance {}: flush is off, the store does not declare SOURCES or the reasoner does not extract",
          workerId);
    }
    if (!claims) {
      LOG.info("maintenance {}: {} does not declare WORK_CLAIMS; runs curate and flush without claims, so runners"
          + " in other processes may repeat the same work", workerId, store.getClass().getSimpleName());
    }
    if (options.scheduler() == null) {
      this.own = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "engram-maintenance-" + THREADS.incrementAndGet());
        t.setDaemon(true);
        return t;
      });
      this.scheduler = own;
    } else {
      this.own = null;
      this.scheduler = options.scheduler();
    }
  }

  /** Schedules the runs. */
  void start() {
    ScheduledFuture<?> t = scheduler.scheduleWithFixedDelay(this::scheduled, options.initialDelay().toNanos(),
        options.interval().toNanos(), TimeUnit.NANOSECONDS);
    task = t;
    if (closed.get()) {
      t.cancel(false);
    }
    LOG.info("maintenance {} started: every {} over {} grants (curate {}, flush {}, claims {})", workerId,
        options.interval(), grants.size(), curate, flush, claims);
  }

  /** A scheduled run: nothing it throws may reach the scheduler, which would cancel every later run. */
  private void scheduled() {
    if (closed.get()) {
      return;
    }
    try {
      run();
    } catch (VirtualMachineError e) {
      throw e;
    } catch (Throwable e) {
      LOG.warn("maintenance {}: a run failed; the next runs stay scheduled", workerId, e);
    }
  }

  @Override
  public MaintenanceReport runNow() {
    if (closed.get()) {
      throw new IllegalStateException("this maintenance runner (" + workerId + ") is closed");
    }
    return run();
  }

  @Override
  public String workerId() {
    return workerId;
  }

  @Override
  public Set<MaintenanceReport.Task> tasks() {
    java.util.EnumSet<MaintenanceReport.Task> out = java.util.EnumSet.noneOf(MaintenanceReport.Task.class);
    if (curate) {
      out.add(MaintenanceReport.Task.CURATE);
    }
    if (flush) {
      out.add(MaintenanceReport.Task.FLUSH);
    }
    return java.util.Collections.unmodifiableSet(out);
  }

  @Override
  public boolean isClosed() {
    return closed.get();
  }

  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    ScheduledFuture<?> t = task;
    if (t != null) {
      t.cancel(false);
    }
    if (own != null) {
      own.shutdown();
    }
    onClose.accept(this);
    LOG.info("maintenance {} stopped after {} runs", workerId, runs.get());
  }

  private MaintenanceReport run() {
    running.lock();
    try {
      long n = runs.incrementAndGet();
      Instant started = clock.instant();
      Pass pass = new Pass();
      for (Grants g : grants) {
        if (closed.get()) {
          break;
        }
        if (curate) {
          pass.curate(g);
        }
        if (flush && !closed.get()) {
          pass.flush(g);
        }
      }
      MaintenanceReport report = new MaintenanceReport(n, workerId, started, clock.instant(), claims, pass.curations,
          pass.flushes, pass.topicsElsewhere, pass.scopesElsewhere, pass.failures);
      log(report);
      try {
        options.listener().onRun(report);
      } catch (RuntimeException e) {
        LOG.warn("maintenance {}: the listener failed on run {}", workerId, n, e);
      }
      return report;
    } finally {
      running.unlock();
    }
  }

  private void log(MaintenanceReport r) {
    if (r.idle()) {
      LOG.debug("maintenance {} run {}: nothing to do", workerId, r.run());
      return;
    }
    String summary = "maintenance " + workerId + " run " + r.run() + ": curated " + r.topicsCurated().size()
        + " topics, flushed " + r.windowsFlushed() + " windows in " + r.scopesFlushed().size() + " scopes, skipped "
        + r.topicsClaimedElsewhere().size() + " topics and " + r.scopesClaimedElsewhere().size()
        + " scopes claimed elsewhere, " + r.failures().size() + " failures";
    if (r.failed()) {
      LOG.warn("{}: {}", summary, r.failures());
    } else {
      LOG.info(summary);
    }
  }

  /** What one run gathers. */
  private final class Pass {
    final List<CurateReport> curations = new ArrayList<>();
    final List<FlushReport> flushes = new ArrayList<>();
    final List<DirtyTopic> topicsElsewhere = new ArrayList<>();
    final List<String> scopesElsewhere = new ArrayList<>();
    final List<MaintenanceReport.Failure> failures = new ArrayList<>();

    void curate(Grants g) {
      if (!claims) {
        try {
          curations.add(engine.curate(g));
        } catch (RuntimeException e) {
          fail(MaintenanceReport.Task.CURATE, null, e);
        }
        return;
      }
      List<WorkClaim> got;
      List<TopicState> dirty = new ArrayList<>();
      try {
        List<String> scopes = engine.curatableScopes(g);
        if (scopes.isEmpty()) {
          return;
        }
        for (TopicState t : store.topics(scopes)) {
          if (t.dirty() && scopes.contains(t.scope())) {
            dirty.add(t);
          }
        }
        if (dirty.isEmpty()) {
          return;
        }
        got = store.claimDirtyTopics(workerId, scopes, options.claimLimit(), options.lease());
      } catch (RuntimeException e) {
        fail(MaintenanceReport.Task.CURATE, null, e);
        return;
      }
      try {
        Map<String, Set<String>> byScope = new TreeMap<>();
        Set<String> held = new HashSet<>();
        for (WorkClaim c : got) {
          byScope.computeIfAbsent(c.scope(), k -> new TreeSet<>()).add(c.topic());
          held.add(c.scope() + '\u0000' + c.topic());
        }
        if (got.size() < options.claimLimit()) {
          for (TopicState t : dirty) {
            if (!held.contains(t.scope() + '\u0000' + t.topic())) {
              topicsElsewhere.add(new DirtyTopic(t.scope(), t.topic(), t.lastWriteRevision(), t.lastCuratedRevision()));
            }
          }
        }
        for (Map.Entry<String, Set<String>> e : byScope.entrySet()) {
          if (closed.get()) {
            break;
          }
          String scope = e.getKey();
          Set<String> topics = e.getValue();
          try {
            curations.add(engine.curate(g, t -> t.scope().equals(scope) && topics.contains(t.topic()), List.of(scope)));
          } catch (RuntimeException ex) {
            fail(MaintenanceReport.Task.CURATE, scope, ex);
          }
        }
      } finally {
        release(got);
      }
    }

    void flush(Grants g) {
      if (!claims) {
        try {
          add(engine.flush(g, options.flushOptions()));
        } catch (RuntimeException e) {
          fail(MaintenanceReport.Task.FLUSH, null, e);
        }
        return;
      }
      List<String> pending;
      List<WorkClaim> got;
      try {
        pending = engine.pendingSourceScopes(g);
        if (pending.isEmpty()) {
          return;
        }
        got = store.claimPendingSources(workerId, pending, options.claimLimit(), options.lease());
      } catch (RuntimeException e) {
        fail(MaintenanceReport.Task.FLUSH, null, e);
        return;
      }
      try {
        Set<String> held = new HashSet<>();
        for (WorkClaim c : got) {
          held.add(c.scope());
        }
        if (got.size() < options.claimLimit()) {
          for (String scope : pending) {
            if (!held.contains(scope)) {
              scopesElsewhere.add(scope);
            }
          }
        }
        for (WorkClaim c : got) {
          if (closed.get()) {
            break;
          }
          try {
            add(engine.flush(g, options.flushOptions(), Set.of(c.scope())));
          } catch (RuntimeException e) {
            fail(MaintenanceReport.Task.FLUSH, c.scope(), e);
          }
        }
      } finally {
        release(got);
      }
    }

    private void add(FlushReport r) {
      flushes.add(r);
      for (FlushReport.Failure f : r.failures()) {
        failures.add(new MaintenanceReport.Failure(MaintenanceReport.Task.FLUSH, f.scope(), f.code(),
            "window " + f.fromPosition() + ".." + f.toPosition() + ": " + f.message()));
      }
    }

    private void fail(MaintenanceReport.Task what, @Nullable String scope, RuntimeException e) {
      ErrorCode code = e instanceof MemoryException m ? m.code() : null;
      String message = e.getMessage() == null ? e.getClass().getSimpleName()
          : (e instanceof MemoryException ? e.getMessage() : e.getClass().getSimpleName() + ": " + e.getMessage());
      LOG.warn("maintenance {}: {} {} failed ({}): {}", workerId, what.name().toLowerCase(java.util.Locale.ROOT),
          scope == null ? "" : "of " + scope, code == null ? e.getClass().getSimpleName() : code, message);
      failures.add(new MaintenanceReport.Failure(what, scope, code, message));
    }

    private void release(List<WorkClaim> held) {
      for (WorkClaim c : held) {
        try {
          store.releaseClaim(c);
        } catch (RuntimeException e) {
          LOG.warn("maintenance {}: could not release the claim on {}{} ({}); it ends with its lease at {}", workerId,
              c.scope(), c.topic() == null ? "" : "/" + c.topic(), e.toString(), c.claimedUntil());
        }
      }
    }
  }
}
