/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.internal;

import dev.engram.CapturedSource;
import dev.engram.ErrorCode;
import dev.engram.Experience;
import dev.engram.ExperienceStatus;
import dev.engram.FlushReport;
import dev.engram.Grants;
import dev.engram.IncubateOptions;
import dev.engram.IncubationReport;
import dev.engram.InvalidInputException;
import dev.engram.ReasonerException;
import dev.engram.ReviewItem;
import dev.engram.ReviewKind;
import dev.engram.ReviewProposal;
import dev.engram.ReviewState;
import dev.engram.spi.IncubateRequest;
import dev.engram.spi.IncubatedExperience;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.Reasoner;
import dev.engram.spi.SourceFilter;
import dev.engram.spi.SourceState;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Incubation: per writable scope, the captured task outcomes after the scope's incubation cursor, in
 * windows of at most {@link IncubateOptions#MAX_WINDOW_RECORDS} → {@link Reasoner#incubate} → candidates
 * validated as untrusted (each field non-blank and bounded, evidence only ids of the window) → pending
 * {@link ReviewKind#EXPERIENCE} items, committed in one transaction with the cursor advance. Nothing is
 * approved here: a person decides in the review inbox.
 *
 * <p>The cursor is incubation's own: extraction's cursor and incubation's move independently over the
 * same records. Records that are not task outcomes are passed over (the cursor moves past them). The
 * window is read and the reasoner runs outside the transaction; the commit checks that the cursor is
 * still where the window began, so a window another caller committed first is not queued twice. A
 * reasoner failure or a refused answer stops its scope for this call with nothing of the window queued.
 */
final class Incubation {
  private static final Logger LOG = LoggerFactory.getLogger(Incubation.class);
  /** Records read per page while looking for task outcomes. */
  private static final int PAGE = 256;
  /** The most records one window passes over while looking for task outcomes. */
  private static final int MAX_EXAMINED = 4096;
  /** Active experience of the scope shown to the reasoner so it does not restate it. */
  private static final int KNOWN = 20;
  static final String PROPOSER = "incubation";

  private final MemoryStore store;
  private final Reasoner reasoner;
  private final EngineConfig config;
  private final GrantPolicy policy;
  private final Commits commits;

  private final ModelUsageMeter meter;

  Incubation(MemoryStore store, Reasoner reasoner, EngineConfig config, GrantPolicy policy, Commits commits,
      ModelUsageMeter meter) {
    this.meter = meter;
    this.store = store;
    this.reasoner = reasoner;
    this.config = config;
    this.policy = policy;
    this.commits = commits;
  }

  /** The task outcomes of one window and the position the cursor moves to once it is committed. */
  private record Window(List<CapturedSource> outcomes, long end) {}

  /** A validated candidate. */
  private record Candidate(ReviewProposal.NewExperience proposal, List<String> evidence) {}

  IncubationReport incubate(Grants grants, IncubateOptions options) {
    try (ModelUsageMeter.Frame usage = meter.open(grants)) {
      return incubateMetered(grants, options);
    }
  }

  private IncubationReport incubateMetered(Grants grants, IncubateOptions options) {
    if (!store.capabilities().contains(dev.engram.spi.StoreCapability.SOURCES)) {
      throw new dev.engram.CapabilityNotSupportedException(
          store.getClass().getSimpleName() + " does not declare SOURCES; incubation reads captured task outcomes");
    }
    if (!reasoner.incubates()) {
      LOG.info("incubation skipped: {} does not incubate experience", ModelUsageMeter.nameOf(reasoner));
      return new IncubationReport(false, List.of(), 0, 0, List.of(), List.of());
    }
    List<String> processed = new ArrayList<>();
    List<ReviewItem> pending = new ArrayList<>();
    List<FlushReport.Failure> failures = new ArrayList<>();
    int windows = 0;
    int outcomes = 0;
    for (String scope : scopes(grants)) {
      boolean moved = false;
      for (int w = 0; w < options.maxWindows(); w++) {
        SourceState state = store.sourceState(scope);
        long cursor = store.incubationCursor(scope);
        if (cursor >= state.lastPosition()) {
          break;
        }
        Window window = read(scope, cursor, state.lastPosition(), options.windowRecords());
        List<Candidate> candidates = List.of();
        if (!window.outcomes.isEmpty()) {
          try {
            candidates = validate(ask(new IncubateRequest(scope, window.outcomes, known(scope))), window.outcomes);
          } catch (ReasonerException e) {
            long from = window.outcomes.get(0).position();
            long to = window.outcomes.get(window.outcomes.size() - 1).position();
            LOG.warn("incubation of {} stopped at the window of positions {}..{}: {} ({}); nothing of it was queued, "
                + "the incubation cursor stays at {}", scope, from, to, e.code(), e.getClass().getSimpleName(), cursor);
            failures.add(new FlushReport.Failure(scope, from, to, e.code(),
                e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
            break;
          }
        }
        List<Candidate> queued = candidates;
        List<ReviewItem> items = commits.run(scope, c -> {
          if (c.reader().incubationCursor(scope) != cursor) {
            return null;
          }
          List<ReviewItem> made = new ArrayList<>();
          for (Candidate k : queued) {
            ReviewItem item = new ReviewItem(Ids.next(), scope, ReviewKind.EXPERIENCE, ReviewState.PENDING, 1,
                k.proposal, List.of(), k.evidence, PROPOSER, null, null, List.of(), c.now(), c.now());
            c.putReviewItem(item);
            made.add(item);
          }
          c.advanceIncubation(window.end);
          return made;
        });
        if (items == null) {
          continue;
        }
        moved = true;
        if (!window.outcomes.isEmpty()) {
          windows++;
          outcomes += window.outcomes.size();
        }
        pending.addAll(items);
      }
      if (moved) {
        processed.add(scope);
      }
    }
    LOG.info("Incubation: {} windows of {} task outcomes, {} experience items queued for review, {} windows failed",
        windows, outcomes, pending.size(), failures.size());
    return new IncubationReport(true, processed, windows, outcomes, pending, failures);
  }

  /** Writable scopes at or below the grants that hold sources. */
  private List<String> scopes(Grants grants) {
    TreeSet<String> out = new TreeSet<>();
    for (String grant : grants.namespaces()) {
      for (String scope : store.scopesFrom(grant)) {
        if (policy.writable(grants, config.writePolicy(), scope)) {
          out.add(scope);
        }
      }
    }
    return List.copyOf(out);
  }

  /**
   * The next window: up to {@code max} task outcomes after {@code cursor}, passing over other records.
   * {@code last} is the scope's last position read before the window: every record up to it was captured
   * already, so when all of them were read the cursor may move to it.
   */
  private Window read(String scope, long cursor, long last, int max) {
    List<CapturedSource> found = new ArrayList<>();
    long after = cursor;
    int examined = 0;
    while (found.size() < max && examined < MAX_EXAMINED) {
      List<CapturedSource> page = store.sources(scope, SourceFilter.after(after, PAGE));
      for (CapturedSource s : page) {
        examined++;
        after = s.position();
        if (s.isTaskOutcome()) {
          found.add(s);
          if (found.size() == max) {
            break;
          }
        }
      }
      if (page.size() < PAGE) {
        if (found.size() < max) {
          // every record after the cursor was read (or erased): the cursor may move to the last position
          after = Math.max(after, last);
        }
        break;
      }
    }
    return new Window(List.copyOf(found), after);
  }

  private List<Experience> known(String scope) {
    return store.experiences(List.of(scope), EnumSet.of(ExperienceStatus.ACTIVE), KNOWN);
  }

  private List<IncubatedExperience> ask(IncubateRequest request) {
    List<IncubatedExperience> out;
    try {
      out = reasoner.incubate(request);
    } catch (ReasonerException e) {
      throw e;
    } catch (RuntimeException e) {
      throw new ReasonerException(ErrorCode.REASONER_FAILED, "reasoner.incubate failed: " + e.getMessage(), e);
    }
    if (out == null) {
      throw ReasonerException.invalidOutput("incubate returned null");
    }
    return out;
  }

  /** Every candidate checked as untrusted; the first bad one fails the window. */
  private static List<Candidate> validate(List<IncubatedExperience> proposed, List<CapturedSource> window) {
    if (proposed.size() > window.size()) {
      throw ReasonerException.invalidOutput(proposed.size() + " experiences for a window of " + window.size()
          + " task outcomes; the limit is one per outcome");
    }
    Map<String, CapturedSource> ids = new LinkedHashMap<>();
    for (CapturedSource s : window) {
      ids.put(s.id(), s);
    }
    List<Candidate> out = new ArrayList<>();
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < proposed.size(); i++) {
      IncubatedExperience x = proposed.get(i);
      String at = "experience " + i + ": ";
      if (x == null) {
        throw ReasonerException.invalidOutput(at + "null");
      }
      if (x.evidence() == null || x.evidence().isEmpty()) {
        throw ReasonerException.invalidOutput(at + "evidence is missing; every experience cites the outcomes it rests on");
      }
      try {
        ReviewProposal.NewExperience p = new ReviewProposal.NewExperience(
            ExperienceService.field("situation", x.situation()), ExperienceService.field("action", x.action()),
            ExperienceService.field("outcome", x.outcome()), ExperienceService.field("lesson", x.lesson()));
        List<String> evidence = ExperienceService.evidence(x.evidence());
        for (String ref : evidence) {
          if (!ids.containsKey(ref)) {
            throw ReasonerException.invalidOutput(at + "evidence '" + Text.printableForMessage(ref)
                + "' is not the id of a task outcome in this window (" + window.size() + " outcomes of "
                + window.get(0).scope() + ")");
          }
        }
        if (seen.add(p.situation() + "\n" + p.action() + "\n" + p.outcome() + "\n" + p.lesson())) {
          out.add(new Candidate(p, evidence));
        }
      } catch (InvalidInputException e) {
        throw ReasonerException.invalidOutput(at + e.getMessage());
      }
    }
    return out;
  }
}
