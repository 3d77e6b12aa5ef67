/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.internal;

import dev.engram.BootNodeException;
import dev.engram.CapabilityNotSupportedException;
import dev.engram.CapturedSource;
import dev.engram.ChangeKind;
import dev.engram.EntryStatus;
import dev.engram.EntryType;
import dev.engram.ErrorCode;
import dev.engram.EventKind;
import dev.engram.FlushOptions;
import dev.engram.FlushReport;
import dev.engram.Grants;
import dev.engram.InvalidInputException;
import dev.engram.MemoryEntry;
import dev.engram.ReasonerException;
import dev.engram.WriteResult;
import dev.engram.spi.EntryViews;
import dev.engram.spi.ExtractRequest;
import dev.engram.spi.ExtractedMemory;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.Reasoner;
import dev.engram.spi.SourceFilter;
import dev.engram.spi.SourceState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * Extraction: per writable scope, the records after its cursor in bounded windows → {@link
 * Reasoner#extract} → candidates validated as untrusted (evidence must be ids of the window) →
 * canonical dedupe → one commit of the new entries, their revision and the cursor advance.
 *
 * <p>The window is read and the reasoner runs outside the store transaction; the commit then checks
 * that the cursor is still where the window began. When another flusher committed that window first,
 * the candidates are discarded (reported as {@code lost}) and the next window is read: no window is
 * committed twice and none is skipped. A failure anywhere leaves nothing of the window, and the cursor
 * where it was, so the next flush extracts it again. A reasoner that fails or answers with an invalid
 * candidate stops its scope for this call: the window is reported on {@link FlushReport#failures()}
 * and logged, and the other scopes are still flushed. Store failures are thrown.
 *
 * <p>The window's commit is {@linkplain Commit#proposedByModel made from model output}: a candidate that
 * would create or change a boot node is refused by the commit before anything of it is written,
 * reported on {@link FlushReport#rejected()} and logged, and the rest of the window still commits.
 */
final class Flush {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Flush.class);
  /** Active entries of the scope shown to a reasoner that looks at context. */
  private static final int NEARBY = 20;
  /** The most candidates one window may yield, per record in it. */
  private static final int CANDIDATES_PER_RECORD = 4;
  private static final String REASON = "extracted from sources";

  private final MemoryStore store;
  private final Reasoner reasoner;
  private final EngineConfig config;
  private final GrantPolicy policy;
  private final WriteVectors writeVectors;
  private final Commits commits;
  private final Sources sources;

  Flush(MemoryStore store, Reasoner reasoner, EngineConfig config, GrantPolicy policy, WriteVectors writeVectors,
      Commits commits, Sources sources) {
    this.store = store;
    this.reasoner = reasoner;
    this.config = config;
    this.policy = policy;
    this.writeVectors = writeVectors;
    this.commits = commits;
    this.sources = sources;
  }

  /** A validated candidate. */
  record Candidate(String content, String hash, List<String> topics, EntryType type, List<String> evidence,
      Instant occurredAt, @Nullable String path, @Nullable String disclosure, List<String> glossary,
      @Nullable String source, Embeddings.@Nullable PendingVectors vectors) {}

  /** What the commit of one window did. */
  private record Outcome(boolean lost, int appended, int updated, int deduped, int skipped,
      List<FlushReport.Rejected> rejected, List<dev.engram.ReviewItem> pending) {
    Outcome(boolean lost, int appended, int updated, int deduped, int skipped, List<FlushReport.Rejected> rejected) {
      this(lost, appended, updated, deduped, skipped, rejected, List.of());
    }

    static Outcome lostWindow() {
      return new Outcome(true, 0, 0, 0, 0, List.of());
    }

    static Outcome emptyWindow() {
      return new Outcome(false, 0, 0, 0, 0, List.of());
    }
  }

  FlushReport flush(Grants grants, FlushOptions options) {
    return flush(grants, options, null);
  }

  /** Whether the store keeps sources and the reasoner extracts: what {@link #flush} needs. */
  boolean available() {
    return store.capabilities().contains(dev.engram.spi.StoreCapability.SOURCES) && reasoner.extracts();
  }

  /** The writable scopes at or below the grants with records after their cursor. */
  List<String> pendingScopes(Grants grants) {
    List<String> out = new ArrayList<>();
    for (String scope : scopes(grants)) {
      if (store.sourceState(scope).pending()) {
        out.add(scope);
      }
    }
    return out;
  }

  /** Flushes the scopes of the grants that are in {@code only} (all of them when null). */
  FlushReport flush(Grants grants, FlushOptions options, @Nullable Set<String> only) {
    sources.requireCapability();
    if (!reasoner.extracts()) {
      throw new CapabilityNotSupportedException(
          ModelUsageMeter.nameOf(reasoner) + " does not extract (Reasoner.extracts() is false); flush needs one that does");
    }
    List<String> processed = new ArrayList<>();
    int windows = 0;
    int appended = 0;
    int updated = 0;
    int deduped = 0;
    int skipped = 0;
    int lost = 0;
    List<FlushReport.Failure> failures = new ArrayList<>();
    List<FlushReport.Rejected> rejected = new ArrayList<>();
    List<dev.engram.ReviewItem> pending = new ArrayList<>();
    for (String scope : scopes(grants)) {
      if (only != null && !only.contains(scope)) {
        continue;
      }
      boolean moved = false;
      for (int w = 0; w < options.maxWindows(); w++) {
        SourceState state = store.sourceState(scope);
        if (!state.pending()) {
          break;
        }
        List<CapturedSource> window = store.sources(scope, SourceFilter.after(state.cursor(), options.windowRecords()));
        Outcome o;
        try {
          o = window.isEmpty()
              ? commitEmpty(scope, state)
              : extractWindow(scope, state.cursor(), window);
        } catch (ReasonerException e) {
          long from = window.get(0).position();
          long to = window.get(window.size() - 1).position();
          LOG.warn("flush of {} stopped at the window of positions {}..{}: {} ({}); nothing of it was written, "
              + "the cursor stays at {}", scope, from, to, e.code(), e.getClass().getSimpleName(), state.cursor());
          failures.add(new FlushReport.Failure(scope, from, to, e.code(),
              e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage()));
          break;
        }
        if (o.lost) {
          lost++;
          continue;
        }
        moved = true;
        windows++;
        appended += o.appended;
        updated += o.updated;
        deduped += o.deduped;
        skipped += o.skipped;
        pending.addAll(o.pending);
        for (FlushReport.Rejected r : o.rejected) {
          LOG.warn("flush of {} refused candidate {} of the window after position {} ({}): {}", scope, r.candidate(),
              state.cursor(), r.path() == null ? "no path" : r.path(), r.reason());
          rejected.add(r);
        }
      }
      if (moved) {
        processed.add(scope);
      }
    }
    return new FlushReport(processed, windows, appended, updated, deduped, skipped, lost, failures, rejected, pending);
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

  /** Every record after the cursor was deleted: the cursor moves to the last position. */
  private Outcome commitEmpty(String scope, SourceState state) {
    return commits.run(scope, c -> {
      SourceState now = c.reader().sourceState(scope);
      if (now.cursor() != state.cursor()) {
        return Outcome.lostWindow();
      }
      c.advanceCursor(now.lastPosition());
      return Outcome.emptyWindow();
    });
  }

  private Outcome extractWindow(String scope, long cursor, List<CapturedSource> window) {
    List<MemoryEntry> nearby = reasoner.usesContext() ? nearby(scope) : List.of();
    List<CapturedSource> before = List.of();
    if (cursor > 0) {
      before = store.sources(scope, SourceFilter.after(cursor - 1, 1)).stream()
          .filter(s -> s.position() == cursor).toList();
    }
    List<ExtractedMemory> proposed = extract(new ExtractRequest(scope, window, nearby, writeVectors.embedsOnWrite(), before));
    List<Candidate> candidates = validate(proposed, window);
    long end = window.get(window.size() - 1).position();
    return commits.run(scope, pending(candidates), c -> {
      SourceState now = c.reader().sourceState(scope);
      if (now.cursor() != cursor) {
        return Outcome.lostWindow();
      }
      c.proposedByModel("extraction");
      if (config.reviews(dev.engram.ReviewKind.EXTRACTION)) {
        return queue(c, scope, candidates, window, end);
      }
      int appended = 0;
      int updated = 0;
      int deduped = 0;
      List<FlushReport.Rejected> rejected = new ArrayList<>();
      Set<String> cited = new HashSet<>();
      for (int i = 0; i < candidates.size(); i++) {
        Candidate k = candidates.get(i);
        try {
          switch (commitCandidate(c, scope, k)) {
            case APPENDED -> appended++;
            case UPDATED -> updated++;
            case DEDUPED -> deduped++;
          }
          cited.addAll(k.evidence);
        } catch (BootNodeException | dev.engram.ParentNotFoundException e) {
          // The commit refused this one candidate before writing anything of it; the others still commit.
          rejected.add(new FlushReport.Rejected(scope, i, k.path, e.getMessage()));
        }
      }
      int skipped = 0;
      for (CapturedSource s : window) {
        if (!cited.contains(s.id())) {
          skipped++;
        }
      }
      c.advanceCursor(end);
      return new Outcome(false, appended, updated, deduped, skipped, rejected);
    });
  }

  /**
   * With review on for extraction: each candidate becomes a pending item, committed with the cursor
   * advance instead of the entries; a boot node's path is refused as the commit would refuse it.
   */
  private static Outcome queue(Commit c, String scope, List<Candidate> candidates, List<CapturedSource> window,
      long end) {
    List<dev.engram.ReviewItem> items = new ArrayList<>();
    List<FlushReport.Rejected> rejected = new ArrayList<>();
    Set<String> cited = new HashSet<>();
    for (int i = 0; i < candidates.size(); i++) {
      Candidate k = candidates.get(i);
      if (BootNodes.isBootPath(k.path)) {
        rejected.add(new FlushReport.Rejected(scope, i, k.path,
            BootNodeException.modelMade(k.path, "extraction").getMessage()));
        continue;
      }
      MemoryEntry atPath = k.path == null ? null : c.reader().findActiveByPath(scope, k.path).orElse(null);
      dev.engram.ReviewItem item = ReviewQueue.extraction(scope, proposal(k), k.evidence,
          atPath == null ? null : atPath.entryId(), c.now());
      c.putReviewItem(item);
      items.add(item);
      cited.addAll(k.evidence);
    }
    int skipped = 0;
    for (CapturedSource s : window) {
      if (!cited.contains(s.id())) {
        skipped++;
      }
    }
    c.advanceCursor(end);
    return new Outcome(false, 0, 0, 0, skipped, rejected, items);
  }

  /** The proposal of a queued candidate. */
  static dev.engram.ReviewProposal.Extraction proposal(Candidate k) {
    return new dev.engram.ReviewProposal.Extraction(k.content, k.topics, k.type, k.occurredAt, k.path, k.disclosure,
        k.glossary, k.source);
  }

  /** The candidate an approved proposal commits. */
  static Candidate candidate(dev.engram.ReviewProposal.Extraction p, List<String> evidence) {
    return new Candidate(p.content(), Text.contentHash(p.content()), p.topics(), p.type(), evidence, p.occurredAt(),
        p.path(), p.disclosure(), p.glossary(), p.source(), null);
  }

  /** Commits one validated candidate: a new entry, a new version of the entry at its path, or nothing (a duplicate). */
  private static WriteResult.Outcome commitCandidate(Commit c, String scope, Candidate k) {
    return commitCandidate(c, scope, k, k.source);
  }

  /** {@link #commitCandidate(Commit, String, Candidate)} with {@code actor} on the events (a reviewer's approval). */
  static WriteResult.Outcome commitCandidate(Commit c, String scope, Candidate k, @Nullable String actor) {
    if (k.path == null) {
      if (c.reader().findActiveByHash(scope, k.hash).isPresent()) {
        return WriteResult.Outcome.DEDUPED;
      }
      c.append(new MemoryEntry(Ids.next(), Ids.next(), 1, null, scope, k.content, k.topics, k.type, 2,
          k.disclosure, k.glossary, null, k.source, k.evidence, k.hash, EntryStatus.ACTIVE, null, k.occurredAt,
          c.now(), c.now(), c.revision()), actor, REASON);
      return WriteResult.Outcome.APPENDED;
    }
    MemoryEntry existing = c.reader().findActiveByPath(scope, k.path).orElse(null);
    if (existing == null) {
      c.append(new MemoryEntry(Ids.next(), Ids.next(), 1, null, scope, k.content, k.topics, k.type, 2,
          k.disclosure, k.glossary, k.path, k.source, k.evidence, k.hash, EntryStatus.ACTIVE, null, k.occurredAt,
          c.now(), c.now(), c.revision()), actor, REASON);
      return WriteResult.Outcome.APPENDED;
    }
    if (existing.contentHash().equals(k.hash) && existing.topics().equals(k.topics)
        && existing.type() == k.type && Objects.equals(existing.disclosure(), k.disclosure)
        && existing.glossary().equals(k.glossary)) {
      return WriteResult.Outcome.DEDUPED;
    }
    MemoryEntry next = c.successor(existing, k.content, k.topics, k.type, existing.priority(), k.disclosure,
        k.glossary, k.source, k.evidence, k.occurredAt);
    c.replace(existing, next, EventKind.UPDATE, ChangeKind.UPDATE, actor, REASON);
    return WriteResult.Outcome.UPDATED;
  }

  private List<ExtractedMemory> extract(ExtractRequest request) {
    List<ExtractedMemory> out;
    try {
      out = reasoner.extract(request);
    } catch (ReasonerException e) {
      throw e;
    } catch (RuntimeException e) {
      throw new ReasonerException(ErrorCode.REASONER_FAILED, "reasoner.extract failed: " + e.getMessage(), e);
    }
    if (out == null) {
      throw ReasonerException.invalidOutput("extract returned null");
    }
    return out;
  }

  private List<MemoryEntry> nearby(String scope) {
    Map<String, MemoryEntry> out = new LinkedHashMap<>();
    for (String topic : List.of(Text.DEFAULT_TOPIC, "core")) {
      for (MemoryEntry e : store.activeByTopic(List.of(scope), topic, NEARBY)) {
        if (out.size() < NEARBY) {
          out.putIfAbsent(e.entryId(), e);
        }
      }
    }
    return List.copyOf(out.values());
  }

  /** Every candidate checked as untrusted; the first bad one fails the window. */
  private List<Candidate> validate(List<ExtractedMemory> proposed, List<CapturedSource> window) {
    int max = window.size() * CANDIDATES_PER_RECORD;
    if (proposed.size() > max) {
      throw ReasonerException.invalidOutput(
          proposed.size() + " candidates for a window of " + window.size() + " records; the limit is " + max);
    }
    Map<String, CapturedSource> ids = new LinkedHashMap<>();
    for (CapturedSource s : window) {
      ids.put(s.id(), s);
    }
    List<Candidate> out = new ArrayList<>(proposed.size());
    for (int i = 0; i < proposed.size(); i++) {
      ExtractedMemory m = proposed.get(i);
      String at = "candidate " + i + ": ";
      if (m == null) {
        throw ReasonerException.invalidOutput(at + "null");
      }
      if (m.content() == null) {
        throw ReasonerException.invalidOutput(at + "content is missing");
      }
      if (m.type() == null) {
        throw ReasonerException.invalidOutput(at + "type is missing");
      }
      if (m.evidence() == null || m.evidence().isEmpty()) {
        throw ReasonerException.invalidOutput(at + "evidence is missing; every candidate cites the records it rests on");
      }
      try {
        String content = Text.content("content", m.content(), config.maxContentBytes());
        List<String> topics = Text.topics("topics", m.topics() == null ? List.of() : m.topics(), true);
        List<String> evidence = Text.evidence("evidence", m.evidence());
        Instant occurredAt = m.occurredAt();
        CapturedSource first = null;
        for (String ref : evidence) {
          CapturedSource s = ids.get(ref);
          if (s == null) {
            throw ReasonerException.invalidOutput(at + "evidence '" + Text.printableForMessage(ref)
                + "' is not the id of a record in this window (" + window.size() + " records of " + window.get(0).scope()
                + ", positions " + window.get(0).position() + ".." + window.get(window.size() - 1).position() + ")");
          }
          if (first == null) {
            first = s;
          }
          if (m.occurredAt() == null && (occurredAt == null || s.occurredAt().isAfter(occurredAt))) {
            occurredAt = s.occurredAt();
          }
        }
        String path = Text.lorePath("path", m.path());
        String disclosure = Text.optionalShort("disclosure", m.disclosure(), Text.MAX_DISCLOSURE_CHARS);
        List<String> glossary = Text.glossary("glossary", m.glossary() == null ? List.of() : m.glossary());
        String source = "session:" + first.sessionId();
        out.add(new Candidate(content, Text.contentHash(content), topics, m.type(), evidence, occurredAt, path,
            disclosure, glossary, source, null));
      } catch (InvalidInputException e) {
        throw ReasonerException.invalidOutput(at + e.getMessage());
      }
    }
    List<Candidate> withVectors = new ArrayList<>(out.size());
    for (int i = 0; i < out.size(); i++) {
      Candidate k = out.get(i);
      EntryViews views = proposed.get(i).views();
      boolean likelyDuplicate = k.path == null && store.findActiveByHash(window.get(0).scope(), k.hash).isPresent();
      // queued for review, a candidate stores nothing now; its approval makes the vectors
      Embeddings.PendingVectors v = likelyDuplicate || config.reviews(dev.engram.ReviewKind.EXTRACTION)
          ? null : writeVectors.pendingFor(window.get(0).scope(), k.content, k.disclosure, k.glossary, k.path, views);
      withVectors.add(new Candidate(k.content, k.hash, k.topics, k.type, k.evidence, k.occurredAt, k.path,
          k.disclosure, k.glossary, k.source, v));
    }
    return withVectors;
  }

  private static List<Embeddings.PendingVectors> pending(List<Candidate> candidates) {
    List<Embeddings.PendingVectors> out = new ArrayList<>();
    for (Candidate k : candidates) {
      if (k.vectors != null) {
        out.add(k.vectors);
      }
    }
    return out;
  }
}
