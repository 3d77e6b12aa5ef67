/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.internal;

import dev.engram.ApproveRequest;
import dev.engram.Change;
import dev.engram.ChangeKind;
import dev.engram.Citation;
import dev.engram.Experience;
import dev.engram.ExperienceStatus;
import dev.engram.Grants;
import dev.engram.InvalidInputException;
import dev.engram.MemoryEntry;
import dev.engram.Namespaces;
import dev.engram.NotFoundException;
import dev.engram.RejectRequest;
import dev.engram.ReviewDetail;
import dev.engram.ReviewInbox;
import dev.engram.ReviewItem;
import dev.engram.ReviewListOptions;
import dev.engram.ReviewOutcome;
import dev.engram.ReviewProposal;
import dev.engram.ReviewState;
import dev.engram.ReviseRequest;
import dev.engram.VersionConflictException;
import dev.engram.WriteResult;
import dev.engram.spi.CurateOp;
import dev.engram.spi.MemoryStore;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.UnaryOperator;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The review inbox. Items are read under the grants' visibility; every decision and revision is one
 * commit in the item's scope that first re-reads the item and checks the expected version and that it
 * is still pending ({@link VersionConflictException} otherwise), so two reviewers never both win. An
 * approval validates the proposal again against the state of that commit and applies it the way the step
 * that proposed it would have (incubation: a new experience; curation: {@link Curation#applyIn}, recorded
 * as curation so {@link CurationUndo} can undo it; extraction: {@link Flush#commitCandidate}), with the
 * reviewer as actor; when it no longer applies, the commit rolls back and the item stays pending.
 */
final class ReviewService implements ReviewInbox {
  private static final Logger LOG = LoggerFactory.getLogger(ReviewService.class);
  private static final String ITEM = "review item";

  private final MemoryStore store;
  private final EngineConfig config;
  private final GrantPolicy policy;
  private final Commits commits;
  private final UnaryOperator<Grants> open;
  private final ModelUsageMeter meter;

  ReviewService(MemoryStore store, EngineConfig config, GrantPolicy policy, Commits commits, UnaryOperator<Grants> open,
      ModelUsageMeter meter) {
    this.meter = meter;
    this.store = store;
    this.config = config;
    this.policy = policy;
    this.commits = commits;
    this.open = open;
  }

  private Grants check(Grants grants) {
    Grants g = open.apply(grants);
    ExperienceService.requireCapability(store, "the review inbox");
    return g;
  }

  // ---- reading

  @Override
  public List<ReviewItem> list(Grants grants, ReviewListOptions options) {
    check(grants);
    Objects.requireNonNull(options, "options");
    Collection<String> scopes = new java.util.TreeSet<>(grants.visibleScopes());
    if (options.scope() != null) {
      Namespaces.validate("scope", options.scope());
      policy.requireVisible(grants, options.scope(), "scope " + options.scope());
      scopes = List.of(options.scope());
    }
    List<ReviewItem> out = new ArrayList<>();
    String after = options.after();
    while (out.size() < options.limit()) {
      List<ReviewItem> page = store.reviewItems(scopes, options.states(), after, options.limit());
      for (ReviewItem item : page) {
        if (options.kinds().contains(item.kind()) && out.size() < options.limit()) {
          out.add(item);
        }
      }
      if (page.size() < options.limit()) {
        break;
      }
      after = page.get(page.size() - 1).id();
    }
    return out;
  }

  @Override
  public ReviewDetail get(Grants grants, String itemId) {
    check(grants);
    return ReviewDiffs.detail(store, visible(grants, itemId));
  }

  private ReviewItem visible(Grants grants, String itemId) {
    Text.id("itemId", itemId);
    ReviewItem item = store.reviewItem(itemId).orElse(null);
    if (item == null || !grants.canSee(item.scope())) {
      throw new NotFoundException(ITEM + " " + itemId + " not found or not visible to " + grants);
    }
    return item;
  }

  private ReviewItem writable(Grants grants, String itemId) {
    ReviewItem item = visible(grants, itemId);
    policy.requireWritable(grants, config.writePolicy(), item.scope());
    return item;
  }

  /** The item in the commit's view, at {@code expected} and pending; {@link VersionConflictException} otherwise. */
  private static ReviewItem pendingAt(Commit c, String itemId, long expected) {
    ReviewItem now = c.reader().reviewItem(itemId)
        .orElseThrow(() -> new NotFoundException(ITEM + " " + itemId + " not found"));
    if (now.version() != expected) {
      throw new VersionConflictException(ITEM, itemId, expected, now.version(), ITEM + " " + itemId + " is at version "
          + now.version() + " (" + now.state() + "), not the expected " + expected + "; read it again and decide");
    }
    if (!now.isPending()) {
      throw new VersionConflictException(ITEM, itemId, expected, now.version(), ITEM + " " + itemId + " is "
          + now.state() + " already; only a PENDING item can be decided or revised");
    }
    return now;
  }

  private static ReviewItem decided(ReviewItem now, ReviewState state, ReviewProposal proposal, String by,
      @Nullable String why, List<String> targets, List<String> results, Instant at) {
    return new ReviewItem(now.id(), now.scope(), now.kind(), state, now.version() + 1, proposal, targets,
        now.evidence(), now.proposedBy(), by, why, results, now.createdAt(), at);
  }

  // ---- decisions

  /** An approval commits what the item proposes; the views the reasoner writes for it count as model usage. */
  @Override
  public ReviewOutcome approve(Grants grants, String itemId, ApproveRequest request) {
    try (ModelUsageMeter.Frame usage = meter.open(check(grants))) {
      return approveMetered(grants, itemId, request);
    }
  }

  private ReviewOutcome approveMetered(Grants grants, String itemId, ApproveRequest request) {
    Objects.requireNonNull(request, "request");
    String reviewer = reviewer(request.reviewer());
    String note = request.note() == null ? null : reason("note", request.note());
    ReviewItem item = writable(grants, itemId);
    ReviewOutcome outcome = commits.run(item.scope(), c -> {
      ReviewItem now = pendingAt(c, itemId, request.expectedVersion());
      ReviewProposal p = now.proposal();
      if (p instanceof ReviewProposal.NewExperience x) {
        return approveExperience(c, now, x, reviewer, note);
      }
      if (p instanceof ReviewProposal.Curation k) {
        return approveCuration(c, now, k, reviewer, note);
      }
      return approveExtraction(c, now, (ReviewProposal.Extraction) p, reviewer, note, request.origin());
    });
    LOG.info("Review item {} ({}) of {} approved by {} at version {}", itemId, item.kind(), item.scope(), reviewer,
        outcome.item().version());
    return outcome;
  }

  private static ReviewOutcome approveExperience(Commit c, ReviewItem now, ReviewProposal.NewExperience x,
      String reviewer, @Nullable String note) {
    Experience v = c.insertExperience(new Experience(Ids.next(), Ids.next(), 1, null, now.scope(),
        ExperienceService.field("situation", x.situation()), ExperienceService.field("action", x.action()),
        ExperienceService.field("outcome", x.outcome()), ExperienceService.field("lesson", x.lesson()),
        ExperienceService.evidence(now.evidence()), ExperienceStatus.ACTIVE, reviewer, note, now.id(), c.now(),
        c.now()));
    List<String> targets = new ArrayList<>(now.targets());
    targets.add(v.experienceId());
    ReviewItem done = decided(now, ReviewState.APPROVED, x, reviewer, note, targets, List.of(v.versionId()), c.now());
    c.putReviewItem(done);
    return new ReviewOutcome(done, List.of(), v, null, List.of());
  }

  private ReviewOutcome approveCuration(Commit c, ReviewItem now, ReviewProposal.Curation k, String reviewer,
      @Nullable String note) {
    c.proposedByModel("curation");
    // recorded as curation (the reviewer is the actor), so undoCuration treats the approval as a curation run
    c.origin("curator");
    if (k.op() instanceof CurateOp.Blurb b) {
      c.blurb(k.topic(), Text.shortText("blurb", b.blurb(), Text.MAX_DISCLOSURE_CHARS));
    } else {
      new Curation(commits, config.maxContentBytes(), now.scope(), Set.copyOf(now.targets()), reviewer)
          .applyIn(c, k.op());
    }
    Made made = made(c, now);
    String runId = c.changed()
        ? CurationUndo.runId(List.of(new CurationUndo.Span(now.scope(), c.head(), c.revision()))) : null;
    ReviewItem done = decided(now, ReviewState.APPROVED, k, reviewer, note, made.targets, made.results, c.now());
    c.putReviewItem(done);
    return new ReviewOutcome(done, made.entries, null, runId, List.of());
  }

  private static ReviewOutcome approveExtraction(Commit c, ReviewItem now, ReviewProposal.Extraction x,
      String reviewer, @Nullable String note, String origin) {
    c.proposedByModel("extraction");
    c.origin(origin);
    List<String> warnings = new ArrayList<>();
    WriteResult.Outcome o = Flush.commitCandidate(c, now.scope(), Flush.candidate(x, now.evidence()), reviewer);
    if (o == WriteResult.Outcome.DEDUPED) {
      warnings.add("an active entry of " + now.scope() + " already holds this memory; nothing was changed");
    }
    Made made = made(c, now);
    ReviewItem done = decided(now, ReviewState.APPROVED, x, reviewer, note, made.targets, made.results, c.now());
    c.putReviewItem(done);
    return new ReviewOutcome(done, made.entries, null, null, warnings);
  }

  /** What an approval's commit made current, and the item's targets with the entries it created. */
  private record Made(List<Citation> entries, List<String> results, List<String> targets) {}

  private static Made made(Commit c, ReviewItem now) {
    List<Citation> entries = new ArrayList<>();
    List<String> results = new ArrayList<>();
    LinkedHashSet<String> targets = new LinkedHashSet<>(now.targets());
    Set<ChangeKind> current = EnumSet.of(ChangeKind.APPEND, ChangeKind.UPDATE, ChangeKind.METADATA,
        ChangeKind.RETIRE, ChangeKind.REACTIVATE, ChangeKind.ROLLBACK);
    for (Change ch : c.changes()) {
      if (ch.versionId() == null || !current.contains(ch.kind())) {
        continue;
      }
      MemoryEntry v = c.reader().version(ch.versionId()).orElse(null);
      if (v != null && results.add(v.versionId())) {
        entries.add(v.citation());
        targets.add(v.entryId());
      }
    }
    return new Made(entries, results, List.copyOf(targets));
  }

  @Override
  public ReviewItem reject(Grants grants, String itemId, RejectRequest request) {
    check(grants);
    Objects.requireNonNull(request, "request");
    String reviewer = reviewer(request.reviewer());
    String reason = reason("reason", request.reason());
    ReviewItem item = writable(grants, itemId);
    ReviewItem done = commits.run(item.scope(), c -> {
      ReviewItem now = pendingAt(c, itemId, request.expectedVersion());
      ReviewItem rejected = decided(now, ReviewState.REJECTED, now.proposal(), reviewer, reason, now.targets(),
          List.of(), c.now());
      c.putReviewItem(rejected);
      return rejected;
    });
    LOG.info("Review item {} ({}) of {} rejected by {}", itemId, item.kind(), item.scope(), reviewer);
    return done;
  }

  @Override
  public ReviewItem revise(Grants grants, String itemId, ReviseRequest request) {
    check(grants);
    Objects.requireNonNull(request, "request");
    String reviewer = reviewer(request.reviewer());
    String why = request.reason() == null ? null : reason("reason", request.reason());
    ReviewItem item = writable(grants, itemId);
    revised(item.proposal(), request); // refuses a bad field before the transaction
    return commits.run(item.scope(), c -> {
      ReviewItem now = pendingAt(c, itemId, request.expectedVersion());
      ReviewItem next = decided(now, ReviewState.PENDING, revised(now.proposal(), request), reviewer, why,
          now.targets(), List.of(), c.now());
      c.putReviewItem(next);
      return next;
    });
  }

  /** The proposal with the request's fields replaced; {@link InvalidInputException} for a field its kind lacks. */
  private ReviewProposal revised(ReviewProposal p, ReviseRequest r) {
    boolean experienceFields = r.situation() != null || r.action() != null || r.outcome() != null || r.lesson() != null;
    if (!experienceFields && r.content() == null) {
      throw new InvalidInputException("request", "sets no field to revise");
    }
    if (p instanceof ReviewProposal.NewExperience x) {
      if (r.content() != null) {
        throw new InvalidInputException("content", "an experience has no content; revise its situation, action,"
            + " outcome or lesson");
      }
      return new ReviewProposal.NewExperience(
          r.situation() == null ? x.situation() : ExperienceService.field("situation", r.situation()),
          r.action() == null ? x.action() : ExperienceService.field("action", r.action()),
          r.outcome() == null ? x.outcome() : ExperienceService.field("outcome", r.outcome()),
          r.lesson() == null ? x.lesson() : ExperienceService.field("lesson", r.lesson()));
    }
    if (experienceFields) {
      throw new InvalidInputException("situation", "only an experience has situation, action, outcome and lesson;"
          + " revise the content of a " + p.kind() + " item");
    }
    String raw = Objects.requireNonNull(r.content());
    if (p instanceof ReviewProposal.Extraction x) {
      return new ReviewProposal.Extraction(Text.content("content", raw, config.maxContentBytes()), x.topics(), x.type(),
          x.occurredAt(), x.path(), x.disclosure(), x.glossary(), x.source());
    }
    ReviewProposal.Curation k = (ReviewProposal.Curation) p;
    CurateOp op = k.op();
    CurateOp next;
    if (op instanceof CurateOp.Rewrite w) {
      next = new CurateOp.Rewrite(w.entryId(), Text.content("content", raw, config.maxContentBytes()), w.reason());
    } else if (op instanceof CurateOp.Merge m) {
      next = new CurateOp.Merge(m.keepEntryId(), m.duplicateEntryIds(), Text.content("content", raw, config.maxContentBytes()));
    } else if (op instanceof CurateOp.Compact m) {
      next = new CurateOp.Compact(m.entryIds(), Text.content("content", raw, config.maxContentBytes()));
    } else if (op instanceof CurateOp.Blurb) {
      next = new CurateOp.Blurb(Text.shortText("content", raw, Text.MAX_DISCLOSURE_CHARS));
    } else {
      throw new InvalidInputException("content", "a " + op.getClass().getSimpleName().toLowerCase(java.util.Locale.ROOT)
          + " op carries no text to revise; approve or reject it");
    }
    return new ReviewProposal.Curation(k.topic(), next);
  }

  private static String reviewer(String raw) {
    return Text.shortText("reviewer", raw, Text.MAX_SOURCE_CHARS);
  }

  private static String reason(String field, String raw) {
    return Text.shortText(field, raw, ReviewItem.MAX_REASON_CHARS);
  }
}
