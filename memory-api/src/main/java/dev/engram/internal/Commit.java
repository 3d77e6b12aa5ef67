/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.internal;

import dev.engram.Change;
import dev.engram.ChangeKind;
import dev.engram.EntryStateException;
import dev.engram.EntryStatus;
import dev.engram.EventKind;
import dev.engram.MemoryEntry;
import dev.engram.MemoryEvent;
import dev.engram.PriorityCapExceededException;
import dev.engram.Revision;
import dev.engram.RevisionConflictException;
import dev.engram.spi.StoreTransaction;
import dev.engram.spi.TopicState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * One change of one scope, inside one store transaction. Every mutation of the engine goes through a
 * commit: it applies the version rows and status changes (so later reads of the same transaction see
 * them), collects the change set, the events and the topic marks, enforces the invariants the engine
 * keeps, and {@link #finish() appends exactly one revision} when anything changed.
 *
 * <p>The invariants checked before a version becomes active:
 * <ul>
 *   <li>canonical dedupe: an entry without a path may not become active with content that another
 *       active entry of the scope holds (refused with an {@link EntryStateException} naming the holder);
 *       an entry with a path is addressed by its path and may share content;
 *   <li>one active entry per path;
 *   <li>Lore addressing: a new entry at a path of a Lore domain below the top level needs an active entry
 *       of this scope at its parent path ({@link Text#requiredParent}), refused with a
 *       {@link dev.engram.ParentNotFoundException} otherwise (a move checks its own target:
 *       {@link #requireParent});
 *   <li>priority caps, counted among the active entries of this scope only;
 *   <li>boot nodes: a commit {@link #proposedByModel made from model output} (extraction, curation)
 *       creates, changes, retires or merges no boot node ({@link BootNodes}); such a change is refused
 *       with a {@link dev.engram.BootNodeException} naming the node. A trusted caller's own edit of a
 *       boot node is an ordinary change.
 * </ul>
 * Every check runs before the mutation it guards, so a check that fails throws with the transaction
 * exactly as it was: a single change then rolls back (nothing was written), and a batch
 * ({@link WritePipeline}) rejects that one item and goes on with the next.
 */
final class Commit {
  private final StoreTransaction tx;
  private final String scope;
  private final Commits.Rules rules;
  private final Commits.Vectors vectors;
  private final long head;
  private final Instant now;
  private final List<Change> changes = new ArrayList<>();
  private final List<MemoryEvent> events = new ArrayList<>();
  private final Set<String> topics = new LinkedHashSet<>();
  private @Nullable String origin;
  private @Nullable String proposer;
  private boolean restored;
  private boolean finished;
  private long cursorTo = -1;
  private long incubationTo = -1;
  /**
   * Active holders of content hashes in this transaction's view, as far as this commit knows them: a
   * lookup is remembered, and every mutation of this commit updates or forgets what it changes.
   */
  private final java.util.Map<String, java.util.Optional<MemoryEntry>> holders = new java.util.HashMap<>();

  Commit(StoreTransaction tx, String scope, Commits.Rules rules, Commits.Vectors vectors) {
    this.tx = tx;
    this.scope = scope;
    this.rules = rules;
    this.vectors = vectors;
    this.head = tx.headRevision(scope);
    this.now = rules.clock().instant();
  }

  /** The transaction's view of the store (it sees this commit's own changes). */
  StoreTransaction reader() {
    return tx;
  }

  String scope() {
    return scope;
  }

  /** The scope's revision before this commit. */
  long head() {
    return head;
  }

  /** The revision this commit appends if it changes anything. */
  long revision() {
    return head + 1;
  }

  Instant now() {
    return now;
  }

  /** Fails with a conflict unless the scope is at {@code expected} (null: no expectation). */
  void expect(@Nullable Long expected) {
    if (expected != null && expected != head) {
      throw new RevisionConflictException(scope, expected, head,
          "scope " + scope + " is at revision " + head + ", not the expected " + expected);
    }
  }

  /** The current (newest) version of an entry in this transaction's view, or null. */
  @Nullable MemoryEntry current(String entryId) {
    return Entries.current(tx, entryId);
  }

  /**
   * The active entry of this scope holding {@code contentHash} in this transaction's view, or null.
   * The answer is remembered (and kept current by this commit's own mutations), so the dedupe check
   * of an {@link #append} that follows does not read it again.
   */
  @Nullable MemoryEntry activeWithContent(String contentHash) {
    java.util.Optional<MemoryEntry> known = holders.get(contentHash);
    if (known == null) {
      known = tx.findActiveByHash(scope, contentHash);
      holders.put(contentHash, known);
    }
    return known.orElse(null);
  }

  /** Looks up the active holders of many content hashes at once, for the {@link #activeWithContent} that follow. */
  void prefetchContent(Collection<String> contentHashes) {
    List<String> unknown = new ArrayList<>();
    for (String h : contentHashes) {
      if (!holders.containsKey(h)) {
        unknown.add(h);
      }
    }
    if (unknown.isEmpty()) {
      return;
    }
    java.util.Map<String, MemoryEntry> found = tx.findActiveByHashes(scope, unknown);
    for (String h : unknown) {
      holders.put(h, java.util.Optional.ofNullable(found.get(h)));
    }
  }

  /** Records {@code o} as the origin of this commit's events (null: inferred from each event's actor). */
  void origin(@Nullable String o) {
    this.origin = o;
  }

  /**
   * Marks every change of this commit as made from model output; {@code step} names the step that
   * proposed it ("extraction", "curation"). Such a commit refuses any change that would create or
   * touch a boot node, before it writes anything.
   */
  void proposedByModel(String step) {
    this.proposer = java.util.Objects.requireNonNull(step, "step");
  }

  private String originOf(@Nullable String actor) {
    return origin != null ? origin : MemoryEvent.inferredOrigin(actor);
  }

  // ---- mutations

  /** Stores {@code entry} (version 1 of a new entry, created in {@link #revision()}). */
  MemoryEntry append(MemoryEntry entry, @Nullable String actor, @Nullable String reason) {
    requireTrusted(entry);
    requireParent(entry.path(), java.util.Set.of());
    requireActivatable(entry, entry.priority(), null);
    tx.insertVersion(entry);
    holders.put(entry.contentHash(), java.util.Optional.of(entry));
    vectors.index(tx, entry, true);
    changes.add(new Change(ChangeKind.APPEND, entry.entryId(), entry.versionId()));
    events.add(new MemoryEvent(Ids.next(), scope, entry.entryId(), EventKind.CREATE, null, entry, actor, reason,
        revision(), now, originOf(actor)));
    topics.addAll(entry.topics());
    return entry;
  }

  /**
   * Makes {@code next} the new current version of {@code cur}'s entry. An active {@code cur} becomes
   * SUPERSEDED by it; an inactive one (merged away) is left exactly as it is: versions never change
   * once they are history.
   */
  MemoryEntry replace(
      MemoryEntry cur, MemoryEntry next, EventKind eventKind, ChangeKind changeKind, @Nullable String actor,
      @Nullable String reason) {
    requireTrusted(cur);
    requireTrusted(next);
    requireActivatable(next, next.priority(), cur.isActive() ? cur : null);
    if (cur.isActive()) {
      holders.remove(cur.contentHash());
      tx.updateStatus(cur.versionId(), EntryStatus.SUPERSEDED, next.versionId(), now);
    }
    tx.insertVersion(next);
    holders.put(next.contentHash(), java.util.Optional.of(next));
    vectors.index(tx, next, true);
    changes.add(new Change(changeKind, next.entryId(), next.versionId()));
    if (cur.isActive()) {
      changes.add(new Change(ChangeKind.SUPERSEDE, cur.entryId(), cur.versionId()));
    }
    events.add(new MemoryEvent(Ids.next(), scope, cur.entryId(), eventKind, cur, next, actor, reason, revision(), now, originOf(actor)));
    topics.addAll(cur.topics());
    topics.addAll(next.topics());
    return next;
  }

  /** A new version of {@code cur} with the given fields, created in this commit. */
  MemoryEntry successor(
      MemoryEntry cur, String content, List<String> topics, dev.engram.EntryType type, int priority,
      @Nullable String disclosure, List<String> glossary, @Nullable String source, List<String> evidence) {
    return successor(cur, content, topics, type, priority, disclosure, glossary, source, evidence, cur.occurredAt());
  }

  /** {@link #successor} with another event time. */
  MemoryEntry successor(
      MemoryEntry cur, String content, List<String> topics, dev.engram.EntryType type, int priority,
      @Nullable String disclosure, List<String> glossary, @Nullable String source, List<String> evidence,
      @Nullable Instant occurredAt) {
    return new MemoryEntry(cur.entryId(), Ids.next(), cur.version() + 1, cur.versionId(), scope, content, topics,
        type, priority, disclosure, glossary, cur.path(), source, evidence, Text.contentHash(content),
        EntryStatus.ACTIVE, null, occurredAt, cur.createdAt(), now, revision());
  }

  /** Retires an active, or reactivates a retired, current version. */
  MemoryEntry status(MemoryEntry cur, EntryStatus target, @Nullable String actor, @Nullable String reason) {
    requireTrusted(cur);
    MemoryEntry after = cur.withStatus(target, null, now);
    if (target == EntryStatus.ACTIVE) {
      requireActivatable(after, after.priority(), null);
    }
    holders.remove(cur.contentHash());
    tx.updateStatus(cur.versionId(), target, null, now);
    if (target == EntryStatus.ACTIVE) {
      vectors.index(tx, after, false);
    }
    ChangeKind kind = target == EntryStatus.RETIRED ? ChangeKind.RETIRE : ChangeKind.REACTIVATE;
    changes.add(new Change(kind, cur.entryId(), cur.versionId()));
    events.add(new MemoryEvent(Ids.next(), scope, cur.entryId(),
        target == EntryStatus.RETIRED ? EventKind.RETIRE : EventKind.REACTIVATE, cur, after, actor, reason,
        revision(), now, originOf(actor)));
    topics.addAll(cur.topics());
    return after;
  }

  /** Supersedes the active {@code old} into {@code intoVersionId} (another entry's version): a merge. */
  void supersedeInto(MemoryEntry old, String intoVersionId, @Nullable String actor, String reason) {
    requireTrusted(old);
    holders.remove(old.contentHash());
    tx.updateStatus(old.versionId(), EntryStatus.SUPERSEDED, intoVersionId, now);
    changes.add(new Change(ChangeKind.SUPERSEDE, old.entryId(), old.versionId()));
    events.add(new MemoryEvent(Ids.next(), scope, old.entryId(), EventKind.MERGE, old,
        old.withStatus(EntryStatus.SUPERSEDED, intoVersionId, now), actor, reason, revision(), now, originOf(actor)));
    topics.addAll(old.topics());
  }

  /** Erases an entry everywhere; returns the versions removed (0 when it was not there). */
  int eraseEntry(String entryId) {
    Set<String> carried = new LinkedHashSet<>();
    for (MemoryEntry v : tx.versions(entryId)) {
      carried.addAll(v.topics());
    }
    holders.clear();
    int removed = tx.eraseEntry(entryId);
    if (removed > 0) {
      eraseReviewItemsNaming(entryId);
      changes.add(new Change(ChangeKind.DELETE, entryId, null));
      for (TopicState t : tx.topics(List.of(scope))) {
        if (carried.contains(t.topic())) {
          topics.add(t.topic());
        }
      }
    }
    return removed;
  }

  /** Erases the scope's content (its revision log of ids stays); returns the entries removed. */
  int eraseScopeContent() {
    Set<String> entryIds = new java.util.TreeSet<>();
    for (MemoryEntry v : tx.versionsIn(List.of(scope), java.util.EnumSet.allOf(EntryStatus.class))) {
      entryIds.add(v.entryId());
    }
    holders.clear();
    int removed = tx.eraseScopeContent();
    for (String id : entryIds) {
      changes.add(new Change(ChangeKind.DELETE, id, null));
    }
    return removed;
  }

  /** Records a curation pass of {@code topic}: clean as of this commit, with a new blurb when non-null. */
  void markCurated(String topic, @Nullable String blurb) {
    if (!changes.isEmpty()) {
      throw new IllegalStateException("a curation mark is its own commit");
    }
    tx.markTopicCurated(scope, topic, head, blurb);
  }

  // ---- experience and review items: their own records beside the entries. They make no revision (the
  // revision log is the entries' manifest); an experience has its own version numbers, a review item its
  // own version, and both are written in this commit's transaction, with whatever else it changes.

  /** Stores an experience version of this scope (a new version of a new or existing experience). */
  dev.engram.Experience insertExperience(dev.engram.Experience version) {
    tx.insertExperience(version);
    return version;
  }

  /** Changes the status of an experience version of this scope. */
  void experienceStatus(String versionId, dev.engram.ExperienceStatus status) {
    tx.updateExperienceStatus(versionId, status, now);
  }

  /** Erases an experience of this scope and the review items that name it; returns the versions removed. */
  int eraseExperience(String experienceId) {
    int removed = tx.eraseExperience(experienceId);
    if (removed > 0) {
      eraseReviewItemsNaming(experienceId);
    }
    return removed;
  }

  /** Stores a review item of this scope (a new one, or the next version of one it holds). */
  void putReviewItem(dev.engram.ReviewItem item) {
    tx.putReviewItem(item);
  }

  /**
   * Erases the review items of this scope whose proposal names {@code id} (an entry or experience being
   * erased): their diffs and proposals would otherwise keep its content.
   */
  private void eraseReviewItemsNaming(String id) {
    if (!rules.reviewItems()) {
      return;
    }
    java.util.Set<dev.engram.ReviewState> all = java.util.EnumSet.allOf(dev.engram.ReviewState.class);
    String after = "";
    while (true) {
      List<dev.engram.ReviewItem> page = tx.reviewItems(List.of(scope), all, after, 500);
      for (dev.engram.ReviewItem item : page) {
        if (item.targets().contains(id) || item.results().contains(id)) {
          tx.eraseReviewItem(item.id());
        }
      }
      if (page.size() < 500) {
        return;
      }
      after = page.get(page.size() - 1).id();
    }
  }

  /** Replaces the blurb of {@code topic} without marking the topic curated again (an approved blurb op). */
  void blurb(String topic, String blurb) {
    long curated = 0;
    for (TopicState t : tx.topics(List.of(scope))) {
      if (t.topic().equals(topic)) {
        curated = t.lastCuratedRevision();
      }
    }
    tx.markTopicCurated(scope, topic, curated, blurb);
  }

  /** Moves the incubation cursor to {@code position} when this commit finishes. */
  void advanceIncubation(long position) {
    if (position < 0) {
      throw new IllegalArgumentException("incubation cursor position must be >= 0, was " + position);
    }
    incubationTo = position;
  }

  /** The changes collected so far, in order. */
  List<Change> changes() {
    return List.copyOf(changes);
  }

  // ---- sources: captured records and the extraction cursor. Capture changes no entry, so it makes no
  // revision; the cursor advance is part of the commit of the entries extracted from its window.

  /** Stores a captured record of this scope (its position follows the scope's last one). */
  void capture(dev.engram.CapturedSource source) {
    tx.insertSource(source);
  }

  /** Erases one captured record of this scope; false when there was none. */
  boolean eraseSource(String sourceId) {
    return tx.eraseSource(sourceId);
  }

  /** Moves the extraction cursor to {@code position} when this commit finishes, with its entries. */
  void advanceCursor(long position) {
    if (position < 0) {
      throw new IllegalArgumentException("cursor position must be >= 0, was " + position);
    }
    cursorTo = position;
  }

  // ---- restore (import): the declared history is written as it is, after validation

  /**
   * Erases everything of the scope, its revision log and head included, for a restore that writes it anew in
   * this commit ({@link dev.engram.spi.StoreTransaction#eraseScope}); moves the vector epoch so every process
   * drops what it cached of the scope. Returns the active entries the scope held.
   */
  int eraseForRestore(boolean storesVectors) {
    if (!changes.isEmpty() || restored) {
      throw new IllegalStateException("a scope is erased for a restore before anything else of its commit");
    }
    int active = tx.versionsIn(List.of(scope), java.util.EnumSet.of(dev.engram.EntryStatus.ACTIVE)).size();
    holders.clear();
    tx.eraseScope();
    if (storesVectors) {
      tx.advanceVectorEpoch();
    }
    return active;
  }

  /** Fails unless the scope holds nothing at all. */
  void requireEmptyScope() {
    if (tx.headRevision(scope) != 0 || tx.hasScope(scope)) {
      throw new dev.engram.InvalidInputException("scope", "scope '" + scope + "' is not empty in the target store");
    }
  }

  /**
   * Writes an imported scope: versions (ordered by id), events, the declared revisions and topic
   * rows. A restore appends the revisions it carries instead of one new revision.
   */
  void restore(Collection<MemoryEntry> versions, List<MemoryEvent> restoredEvents, Collection<Revision> revisions,
      List<RestoredTopic> restoredTopics) {
    requireEmptyScope();
    restored = true;
    holders.clear();
    List<MemoryEntry> ordered = new ArrayList<>(versions);
    ordered.sort((a, b) -> a.versionId().compareTo(b.versionId()));
    for (MemoryEntry v : ordered) {
      tx.insertVersion(v);
    }
    for (MemoryEvent e : restoredEvents) {
      tx.appendEvent(e);
    }
    for (Revision r : revisions) {
      tx.appendRevision(r);
    }
    for (RestoredTopic t : restoredTopics) {
      if (t.lastWrite() > 0) {
        tx.markTopicsWritten(scope, List.of(t.topic()), t.lastWrite(), t.lastUpdatedAt());
      }
      tx.markTopicCurated(scope, t.topic(), t.lastCurated(), t.blurb());
    }
  }

  /**
   * Writes the retrieval keys of imported versions, after {@link #restore}; a store without
   * {@link dev.engram.spi.StoreCapability#RETRIEVAL_KEYS} keeps none (the caller reports it).
   */
  void restoreKeys(java.util.Map<String, List<String>> keys) {
    if (!restored) {
      throw new IllegalStateException("restoreKeys runs after restore");
    }
    for (java.util.Map.Entry<String, List<String>> k : keys.entrySet()) {
      tx.putKeys(k.getKey(), k.getValue());
    }
  }

  /**
   * Writes an imported scope's captured records (in position order) and its source bookkeeping, after
   * {@link #restore}: the records keep their ids and positions, the cursor stays where the export had it,
   * so a flush after the import extracts only what was pending before.
   */
  void restoreSources(Collection<dev.engram.CapturedSource> records, dev.engram.spi.SourceState state) {
    if (!restored) {
      throw new IllegalStateException("sources are restored with the rest of an imported scope");
    }
    List<dev.engram.CapturedSource> ordered = new ArrayList<>(records);
    ordered.sort((a, b) -> Long.compare(a.position(), b.position()));
    for (dev.engram.CapturedSource s : ordered) {
      tx.insertSource(s);
    }
    tx.restoreSourceState(state);
  }

  /** A topic row as an export carries it. */
  record RestoredTopic(String topic, @Nullable String blurb, long lastWrite, long lastCurated, Instant lastUpdatedAt) {}

  // ---- vectors

  /**
   * {@code result} with the vector gap of its entry version reported, when this commit stored it without
   * vectors (the embedder failed or was late); otherwise {@code result} itself.
   */
  dev.engram.WriteResult reportVectors(dev.engram.WriteResult result) {
    String gap = vectors.gap(result.entry().versionId());
    if (gap == null) {
      return result;
    }
    List<String> warnings = new ArrayList<>(result.warnings());
    warnings.add("stored without vectors: " + gap + "; search finds this entry by full text only until reindex");
    return new dev.engram.WriteResult(result.outcome(), result.entry(), result.revision(), warnings, true);
  }

  // ---- finishing

  /** Whether anything changed so far. */
  boolean changed() {
    return !changes.isEmpty();
  }

  /**
   * Appends the revision with its change set, the events and the topic marks; nothing when nothing
   * changed. Returns the scope's head afterwards.
   */
  long finish() {
    if (finished) {
      throw new IllegalStateException("commit on " + scope + " already finished");
    }
    finished = true;
    if (cursorTo >= 0) {
      tx.advanceSourceCursor(cursorTo);
    }
    if (incubationTo >= 0) {
      tx.advanceIncubationCursor(incubationTo);
    }
    if (restored || changes.isEmpty()) {
      return restored ? tx.headRevision(scope) : head;
    }
    tx.appendRevision(new Revision(scope, revision(), changes, now));
    for (MemoryEvent e : events) {
      tx.appendEvent(e);
    }
    if (!topics.isEmpty()) {
      tx.markTopicsWritten(scope, topics, revision(), now);
    }
    return revision();
  }

  // ---- invariants

  /**
   * Fails with a {@link dev.engram.ParentNotFoundException} when {@code path} needs a parent
   * ({@link Text#requiredParent}) and no active entry of this scope other than those of {@code leaving}
   * (entries moving away in this change) is at it, in this transaction's view.
   */
  void requireParent(@Nullable String path, Set<String> leaving) {
    String parent = Text.requiredParent(path);
    if (parent == null) {
      return;
    }
    MemoryEntry holder = tx.findActiveByPath(scope, parent).orElse(null);
    if (holder == null || leaving.contains(holder.entryId())) {
      throw new dev.engram.ParentNotFoundException(scope, java.util.Objects.requireNonNull(path), parent);
    }
  }

  /** Fails when this commit is made from model output and {@code e} is (or would become) a boot node. */
  private void requireTrusted(MemoryEntry e) {
    if (proposer != null && BootNodes.isBootNode(e)) {
      throw dev.engram.BootNodeException.modelMade(java.util.Objects.requireNonNull(e.path()), proposer);
    }
  }

  /**
   * Checks that {@code next} may become active; {@code leaving} is the active version it replaces (it
   * stops counting against the cap), or null.
   */
  private void requireActivatable(MemoryEntry next, int priority, @Nullable MemoryEntry leaving) {
    if (next.path() == null) {
      MemoryEntry holder = activeWithContent(next.contentHash());
      if (holder != null && !holder.entryId().equals(next.entryId())) {
        throw new EntryStateException("entry " + holder.entryId() + " already holds this content in " + scope
            + "; two active entries never share one content (retire or change that entry first)");
      }
    } else {
      MemoryEntry holder = tx.findActiveByPath(scope, next.path()).orElse(null);
      if (holder != null && !holder.entryId().equals(next.entryId())) {
        throw new EntryStateException("path '" + next.path() + "' is now held by active entry " + holder.entryId());
      }
    }
    if (priority <= 1) {
      int cap = priority == 0 ? rules.corePriorityCap() : rules.keyPriorityCap();
      int active = tx.countActiveWithPriority(scope, priority);
      if (leaving != null && leaving.priority() == priority) {
        active--;
      }
      if (active >= cap) {
        throw new PriorityCapExceededException(scope, priority, cap);
      }
    }
  }
}
