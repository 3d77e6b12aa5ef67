/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.internal;

import dev.engram.Change;
import dev.engram.ChangeKind;
import dev.engram.EntryStatus;
import dev.engram.EntryType;
import dev.engram.EventKind;
import dev.engram.InvalidInputException;
import dev.engram.MemoryEntry;
import dev.engram.MemoryEvent;
import dev.engram.Revision;
import dev.engram.spi.CurateOp;
import dev.engram.spi.StoreTransaction;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Applies one curation op proposed by the reasoner to one scope. Each op is validated as untrusted
 * (it may name only entries shown to the reasoner, still active, in this scope) and committed in one
 * transaction, or not at all.
 */
final class Curation {
  private static final int MAX_OP_ENTRIES = 50;
  private final MemoryEngine engine;
  private final String scope;
  private final Set<String> shown;

  Curation(MemoryEngine engine, String scope, Set<String> shown) {
    this.engine = engine;
    this.scope = scope;
    this.shown = shown;
  }

  void apply(CurateOp op) {
    if (op == null) {
      throw new InvalidInputException("op", "operation is null");
    }
    engine.store().inTransaction(scope, tx -> {
      long rev = tx.headRevision(scope) + 1;
      if (op instanceof CurateOp.Merge m) {
        merge(tx, m, rev);
      } else if (op instanceof CurateOp.Rewrite r) {
          MemoryEntry c = active(tx, "entryId", r.entryId());
          String content = content(r.content());
          if (c.contentHash().equals(Text.contentHash(content))) {
            throw new InvalidInputException("content", "rewrite does not change entry " + c.entryId());
          }
          engine.versionFor(tx, c, content, c.topics(), reason(r.reason()), EventKind.UPDATE, ChangeKind.UPDATE, rev);
      } else if (op instanceof CurateOp.Retire r) {
          MemoryEntry c = active(tx, "entryId", r.entryId());
          MemoryEngine.changeStatus(tx, c, EntryStatus.RETIRED, MemoryEngine.CURATOR, reason(r.reason()), rev, engine.now());
      } else if (op instanceof CurateOp.Compact c) {
        compact(tx, c, rev);
      } else if (op instanceof CurateOp.SetCore s) {
          MemoryEntry c = active(tx, "entryId", s.entryId());
          Set<String> topics = new LinkedHashSet<>(c.topics());
          boolean changed = s.core() ? topics.add(Text.CORE_TOPIC) : topics.remove(Text.CORE_TOPIC);
          if (!changed) {
            throw new InvalidInputException("core", "entry " + c.entryId() + " already " + (s.core() ? "has" : "lacks") + " the core topic");
          }
          if (topics.isEmpty()) {
            topics.add(Text.DEFAULT_TOPIC);
          }
          engine.versionFor(tx, c, c.content(), Text.topics("topics", List.copyOf(topics), true),
              s.core() ? "promote to core" : "demote from core",
              EventKind.UPDATE, ChangeKind.METADATA, rev);
      } else {
        throw new InvalidInputException("op", "blurbs are recorded with the curation pass, not applied alone");
      }
      return null;
    });
  }

  private void merge(StoreTransaction tx, CurateOp.Merge m, long rev) {
    MemoryEntry keep = active(tx, "keepEntryId", m.keepEntryId());
    List<MemoryEntry> dups = distinctActive(tx, "duplicateEntryIds", m.duplicateEntryIds(), 1);
    for (MemoryEntry d : dups) {
      if (d.entryId().equals(keep.entryId())) {
        throw new InvalidInputException("duplicateEntryIds", "entry " + keep.entryId() + " cannot be merged into itself");
      }
    }
    Instant now = engine.now();
    List<Change> changes = new ArrayList<>();
    MemoryEntry target = keep;
    Set<String> topics = new LinkedHashSet<>(keep.topics());
    String mergedContent = m.mergedContent() == null ? null : content(m.mergedContent());
    if (mergedContent != null && !Text.contentHash(mergedContent).equals(keep.contentHash())) {
      String content = mergedContent;
      target = new MemoryEntry(keep.entryId(), Ids.next(), keep.version() + 1, keep.versionId(), scope, content,
          keep.topics(), keep.type(), keep.priority(), keep.disclosure(), keep.glossary(), keep.path(),
          MemoryEngine.CURATOR, keep.evidence(), Text.contentHash(content), EntryStatus.ACTIVE, null,
          keep.createdAt(), now, rev);
      tx.updateStatus(keep.versionId(), EntryStatus.SUPERSEDED, target.versionId(), now);
      tx.insertVersion(target);
      changes.add(new Change(ChangeKind.UPDATE, target.entryId(), target.versionId()));
      changes.add(new Change(ChangeKind.SUPERSEDE, keep.entryId(), keep.versionId()));
      tx.appendEvent(new MemoryEvent(Ids.next(), scope, keep.entryId(), EventKind.UPDATE, keep, target,
          MemoryEngine.CURATOR, "merged duplicates", rev, now));
    }
    for (MemoryEntry d : dups) {
      supersedeInto(tx, d, target, changes, rev, now, "merged into " + keep.entryId());
      topics.addAll(d.topics());
    }
    tx.appendRevision(new Revision(scope, rev, changes, now));
    tx.markTopicsWritten(scope, topics, rev, now);
  }

  private void compact(StoreTransaction tx, CurateOp.Compact c, long rev) {
    List<MemoryEntry> olds = distinctActive(tx, "entryIds", c.entryIds(), 2);
    String content = content(c.summary());
    Instant now = engine.now();
    Set<String> topics = new LinkedHashSet<>();
    int priority = Integer.MAX_VALUE;
    for (MemoryEntry o : olds) {
      topics.addAll(o.topics());
      priority = Math.min(priority, o.priority());
    }
    List<String> union = List.copyOf(topics);
    List<String> topicList = Text.topics("topics", union.subList(0, Math.min(union.size(), Text.MAX_TOPICS)), true);
    MemoryEntry summary = new MemoryEntry(Ids.next(), Ids.next(), 1, null, scope, content,
        topicList, EntryType.SUMMARY, Math.max(priority, 2),
        null, List.of(), null, MemoryEngine.CURATOR, List.of(), Text.contentHash(content), EntryStatus.ACTIVE, null,
        now, now, rev);
    tx.insertVersion(summary);
    List<Change> changes = new ArrayList<>();
    changes.add(new Change(ChangeKind.APPEND, summary.entryId(), summary.versionId()));
    tx.appendEvent(new MemoryEvent(Ids.next(), scope, summary.entryId(), EventKind.CREATE, null, summary,
        MemoryEngine.CURATOR, "compacted " + olds.size() + " entries", rev, now));
    for (MemoryEntry o : olds) {
      supersedeInto(tx, o, summary, changes, rev, now, "compacted into " + summary.entryId());
    }
    tx.appendRevision(new Revision(scope, rev, changes, now));
    tx.markTopicsWritten(scope, topics, rev, now);
  }

  private void supersedeInto(
      StoreTransaction tx, MemoryEntry old, MemoryEntry into, List<Change> changes, long rev, Instant now, String reason) {
    tx.updateStatus(old.versionId(), EntryStatus.SUPERSEDED, into.versionId(), now);
    changes.add(new Change(ChangeKind.SUPERSEDE, old.entryId(), old.versionId()));
    tx.appendEvent(new MemoryEvent(Ids.next(), scope, old.entryId(), EventKind.MERGE, old,
        old.withStatus(EntryStatus.SUPERSEDED, into.versionId(), now), MemoryEngine.CURATOR, reason, rev, now));
  }

  private List<MemoryEntry> distinctActive(StoreTransaction tx, String field, List<String> ids, int min) {
    if (ids == null || ids.size() < min) {
      throw new InvalidInputException(field, "needs at least " + min + " entry id(s)");
    }
    if (ids.size() > MAX_OP_ENTRIES) {
      throw new InvalidInputException(field, ids.size() + " ids; the limit is " + MAX_OP_ENTRIES);
    }
    Set<String> seen = new LinkedHashSet<>();
    List<MemoryEntry> out = new ArrayList<>();
    for (int i = 0; i < ids.size(); i++) {
      if (!seen.add(String.valueOf(ids.get(i)))) {
        throw new InvalidInputException(field, "entry id '" + ids.get(i) + "' is listed twice");
      }
      out.add(active(tx, field + "[" + i + "]", ids.get(i)));
    }
    return out;
  }

  private MemoryEntry active(StoreTransaction tx, String field, String entryId) {
    if (entryId == null || !shown.contains(entryId)) {
      throw new InvalidInputException(field, "entry '" + entryId + "' was not among the entries shown to the reasoner");
    }
    MemoryEntry c = MemoryEngine.current(tx, entryId);
    if (c == null || !c.scope().equals(scope) || !c.isActive()) {
      throw new InvalidInputException(field, "entry '" + entryId + "' is no longer active in " + scope);
    }
    return c;
  }

  private String content(String raw) {
    return Text.content("content", raw, engine.config().maxContentBytes());
  }

  private static String reason(String raw) {
    return raw == null ? null : Text.shortText("reason", raw, Text.MAX_REASON_CHARS);
  }
}
