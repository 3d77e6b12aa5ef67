/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.internal;

import dev.engram.ChangeKind;
import dev.engram.EntryStatus;
import dev.engram.EntryType;
import dev.engram.EventKind;
import dev.engram.InvalidInputException;
import dev.engram.MemoryEntry;
import dev.engram.spi.CurateOp;
import dev.engram.spi.StoreReader;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Applies one curation op proposed by the reasoner to one scope. Each op is validated as untrusted
 * (it may name only entries shown to the reasoner, still active, in this scope) and applied as one
 * {@link Commit}, or not at all; the commit's invariants (canonical dedupe, paths, caps) hold for
 * curation as for every other change. The commit is {@linkplain Commit#proposedByModel made from model
 * output}, so an op that would change a boot node is refused there, whatever the reasoner was shown.
 */
final class Curation {
  private static final int MAX_OP_ENTRIES = 50;
  private final Commits commits;
  private final int maxContentBytes;
  private final String scope;
  private final Set<String> shown;
  /** The actor of the events: the curator, or the reviewer who approved the op. */
  private final String actor;

  Curation(Commits commits, int maxContentBytes, String scope, Set<String> shown) {
    this(commits, maxContentBytes, scope, shown, Entries.CURATOR);
  }

  Curation(Commits commits, int maxContentBytes, String scope, Set<String> shown, String actor) {
    this.commits = commits;
    this.maxContentBytes = maxContentBytes;
    this.scope = scope;
    this.shown = shown;
    this.actor = actor;
  }

  void apply(@Nullable CurateOp op) {
    if (op == null) {
      throw new InvalidInputException("op", "operation is null");
    }
    if (op instanceof CurateOp.Blurb) {
      throw new InvalidInputException("op", "blurbs are recorded with the curation pass, not applied alone");
    }
    commits.run(scope, c -> {
      c.proposedByModel("curation");
      applyIn(c, op);
      return null;
    });
  }

  /**
   * Checks an op as it would be applied now, without applying it: the entries it names were shown, are
   * active in the scope, and its texts are valid. What review queues has passed this check.
   */
  void check(StoreReader reader, @Nullable CurateOp op) {
    if (op == null) {
      throw new InvalidInputException("op", "operation is null");
    }
    if (op instanceof CurateOp.Blurb b) {
      Text.shortText("blurb", b.blurb(), Text.MAX_DISCLOSURE_CHARS);
    } else if (op instanceof CurateOp.Merge m) {
      active(reader, "keepEntryId", m.keepEntryId());
      checkIds(reader, "duplicateEntryIds", m.duplicateEntryIds(), 1);
      if (m.mergedContent() != null) {
        content(m.mergedContent());
      }
    } else if (op instanceof CurateOp.Rewrite r) {
      active(reader, "entryId", r.entryId());
      content(r.content());
      reason(r.reason());
    } else if (op instanceof CurateOp.Retire r) {
      active(reader, "entryId", r.entryId());
      reason(r.reason());
    } else if (op instanceof CurateOp.Compact k) {
      checkIds(reader, "entryIds", k.entryIds(), 2);
      content(k.summary());
    } else if (op instanceof CurateOp.SetCore sc) {
      active(reader, "entryId", sc.entryId());
    } else {
      throw new InvalidInputException("op", "unknown operation " + op.getClass().getSimpleName());
    }
  }

  private void checkIds(StoreReader reader, String field, @Nullable List<String> ids, int min) {
    if (ids == null || ids.size() < min) {
      throw new InvalidInputException(field, "needs at least " + min + " entry id(s)");
    }
    if (ids.size() > MAX_OP_ENTRIES) {
      throw new InvalidInputException(field, ids.size() + " ids; the limit is " + MAX_OP_ENTRIES);
    }
    for (int i = 0; i < ids.size(); i++) {
      active(reader, field + "[" + i + "]", ids.get(i));
    }
  }

  /** Applies a (non-blurb) op inside {@code c}, which the caller marked as model-made. */
  void applyIn(Commit c, CurateOp op) {
    if (op instanceof CurateOp.Merge m) {
      merge(c, m);
    } else if (op instanceof CurateOp.Rewrite r) {
      MemoryEntry cur = active(c, "entryId", r.entryId());
      String content = content(r.content());
      if (cur.contentHash().equals(Text.contentHash(content))) {
        throw new InvalidInputException("content", "rewrite does not change entry " + cur.entryId());
      }
      c.replace(cur, curated(c, cur, content, cur.topics()), EventKind.UPDATE, ChangeKind.UPDATE,
          actor, reason(r.reason()));
    } else if (op instanceof CurateOp.Retire r) {
      MemoryEntry cur = active(c, "entryId", r.entryId());
      c.status(cur, EntryStatus.RETIRED, actor, reason(r.reason()));
    } else if (op instanceof CurateOp.Compact k) {
      compact(c, k);
    } else if (op instanceof CurateOp.SetCore s) {
      MemoryEntry cur = active(c, "entryId", s.entryId());
      Set<String> topics = new LinkedHashSet<>(cur.topics());
      boolean changed = s.core() ? topics.add(Text.CORE_TOPIC) : topics.remove(Text.CORE_TOPIC);
      if (!changed) {
        throw new InvalidInputException("core", "entry " + cur.entryId() + " already " + (s.core() ? "has" : "lacks") + " the core topic");
      }
      if (topics.isEmpty()) {
        topics.add(Text.DEFAULT_TOPIC);
      }
      c.replace(cur, curated(c, cur, cur.content(), Text.topics("topics", List.copyOf(topics), true)),
          EventKind.UPDATE, ChangeKind.METADATA, actor, s.core() ? "promote to core" : "demote from core");
    } else {
      throw new InvalidInputException("op", "unknown operation " + op.getClass().getSimpleName());
    }
  }

  private static MemoryEntry curated(Commit c, MemoryEntry cur, String content, List<String> topics) {
    return c.successor(cur, content, topics, cur.type(), cur.priority(), cur.disclosure(), cur.glossary(),
        Entries.CURATOR, cur.evidence());
  }

  private void merge(Commit c, CurateOp.Merge m) {
    MemoryEntry keep = active(c, "keepEntryId", m.keepEntryId());
    List<MemoryEntry> dups = distinctActive(c, "duplicateEntryIds", m.duplicateEntryIds(), 1);
    for (MemoryEntry d : dups) {
      if (d.entryId().equals(keep.entryId())) {
        throw new InvalidInputException("duplicateEntryIds", "entry " + keep.entryId() + " cannot be merged into itself");
      }
    }
    String mergedContent = m.mergedContent() == null ? null : content(m.mergedContent());
    MemoryEntry target = mergedContent != null && !Text.contentHash(mergedContent).equals(keep.contentHash())
        ? curated(c, keep, mergedContent, keep.topics())
        : keep;
    // The duplicates leave first, so the merged content may be one of theirs.
    for (MemoryEntry d : dups) {
      c.supersedeInto(d, target.versionId(), actor, "merged into " + keep.entryId());
    }
    if (target != keep) {
      c.replace(keep, target, EventKind.UPDATE, ChangeKind.UPDATE, actor, "merged duplicates");
    }
  }

  private void compact(Commit c, CurateOp.Compact k) {
    List<MemoryEntry> olds = distinctActive(c, "entryIds", k.entryIds(), 2);
    String content = content(k.summary());
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
        null, List.of(), null, Entries.CURATOR, List.of(), Text.contentHash(content), EntryStatus.ACTIVE, null,
        null, c.now(), c.now(), c.revision());
    for (MemoryEntry o : olds) {
      c.supersedeInto(o, summary.versionId(), actor, "compacted into " + summary.entryId());
    }
    c.append(summary, actor, "compacted " + olds.size() + " entries");
  }

  private List<MemoryEntry> distinctActive(Commit c, String field, @Nullable List<String> ids, int min) {
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
      out.add(active(c, field + "[" + i + "]", ids.get(i)));
    }
    return out;
  }

  private MemoryEntry active(Commit c, String field, @Nullable String entryId) {
    return active(c.reader(), field, entryId);
  }

  private MemoryEntry active(StoreReader reader, String field, @Nullable String entryId) {
    if (entryId == null || !shown.contains(entryId)) {
      throw new InvalidInputException(field, "entry '" + entryId + "' was not among the entries shown to the reasoner");
    }
    MemoryEntry cur = Entries.current(reader, entryId);
    if (cur == null || !cur.scope().equals(scope) || !cur.isActive()) {
      throw new InvalidInputException(field, "entry '" + entryId + "' is no longer active in " + scope);
    }
    return cur;
  }

  private String content(String raw) {
    return Text.content("content", raw, maxContentBytes);
  }

  private static @Nullable String reason(@Nullable String raw) {
    return raw == null ? null : Text.shortText("reason", raw, Text.MAX_REASON_CHARS);
  }
}
