/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.internal;

import dev.engram.ChangeKind;
import dev.engram.ChangeOptions;
import dev.engram.Citation;
import dev.engram.NotFoundException;
import dev.engram.RevisionConflictException;
import dev.engram.EntryPatch;
import dev.engram.EntryStatus;
import dev.engram.EventKind;
import dev.engram.MemoryEntry;
import dev.engram.PathConflictException;
import dev.engram.InvalidInputException;
import dev.engram.WriteResult;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * Edits that keep an entry's content: move to another path, and (with {@link #successor}) the
 * metadata edits. Each is one commit making a new version with its own event; the old version stays
 * in history. Grants, ids and options arrive validated and authorized by the facade.
 */
final class Edits {
  private final WriteVectors writeVectors;
  private final Commits commits;

  Edits(WriteVectors writeVectors, Commits commits) {
    this.writeVectors = writeVectors;
    this.commits = commits;
  }

  /**
   * A new version of {@code cur} made in {@code c}, with every field as given (the path too); the
   * content is {@code cur}'s.
   */
  static MemoryEntry successor(Commit c, MemoryEntry cur, List<String> topics, int priority,
      @Nullable String disclosure, List<String> glossary, @Nullable String path, @Nullable String source) {
    return new MemoryEntry(cur.entryId(), Ids.next(), cur.version() + 1, cur.versionId(), cur.scope(), cur.content(),
        topics, cur.type(), priority, disclosure, glossary, path, source, cur.evidence(), cur.contentHash(),
        EntryStatus.ACTIVE, null, cur.occurredAt(), cur.createdAt(), c.now(), c.revision());
  }

  /**
   * Moves the active entry to {@code path} together with its subtree, in one commit: every active entry
   * of the scope whose path lies below the entry's ({@code <old path>/…}) moves to the same place below
   * {@code path}. Each moved entry gets a new version with its own MOVE event; the old paths are free
   * afterwards. The same path is a no-op. The whole move is checked before anything is written and is
   * refused as a whole when any target is held by an active entry outside the moved set
   * ({@link PathConflictException} naming that path), is a boot node's address, or would be longer than
   * a path may be, and when {@code path} needs a parent that has no active entry staying in place
   * ({@link dev.engram.ParentNotFoundException}).
   */
  MemoryEntry move(MemoryEntry cur, String path, ChangeOptions opts) {
    List<Embeddings.PendingVectors> prepared = new ArrayList<>();
    Embeddings.PendingVectors own = writeVectors.pendingFor(cur.scope(), cur.content(), cur.disclosure(), cur.glossary(), path);
    if (own != null) {
      prepared.add(own);
    }
    if (cur.path() != null && !cur.path().equals(path)) {
      // the subtree as it is now: its vectors are made outside the transaction (the commit re-reads it)
      for (MemoryEntry d : subtree(commits.store().versionsIn(List.of(cur.scope()), EnumSet.of(EntryStatus.ACTIVE)),
          cur)) {
        Embeddings.PendingVectors v = writeVectors.pendingFor(d.scope(), d.content(), d.disclosure(), d.glossary(),
            moved(d, cur.path(), path));
        if (v != null) {
          prepared.add(v);
        }
      }
    }
    return commits.run(cur.scope(), prepared, c -> {
      c.expect(opts.expectedRevision());
      c.origin(opts.origin());
      MemoryEntry now = Entries.requireCurrent(c.reader(), cur.entryId());
      Entries.requireActive(now, "be moved");
      BootNodes.requireMovable(now);
      if (path.equals(now.path())) {
        return now;
      }
      BootNodes.requireNotBootPath(path);
      List<MemoryEntry> moving = new ArrayList<>();
      moving.add(now);
      if (now.path() != null) {
        moving.addAll(subtree(c.reader().versionsIn(List.of(now.scope()), EnumSet.of(EntryStatus.ACTIVE)), now));
      }
      String from = now.path();
      Map<String, String> targets = new LinkedHashMap<>();
      Set<String> ids = new HashSet<>();
      for (MemoryEntry m : moving) {
        ids.add(m.entryId());
      }
      // the new place needs its parent, and a node moving away (into its own subtree) is not one
      c.requireParent(path, ids);
      for (MemoryEntry m : moving) {
        String target = m == now ? path : moved(m, Objects.requireNonNull(from), path);
        if (m != now) {
          BootNodes.requireMovable(m);
          BootNodes.requireNotBootPath(target);
          if (target.length() > Text.MAX_PATH_CHARS) {
            throw new InvalidInputException("newPath", "moving " + m.path() + " with its parent would give it the path "
                + target + ", " + target.length() + " characters; the limit is " + Text.MAX_PATH_CHARS);
          }
        }
        MemoryEntry holder = c.reader().findActiveByPath(now.scope(), target).orElse(null);
        if (holder != null && !ids.contains(holder.entryId())) {
          throw new PathConflictException(now.scope(), target, holder.entryId());
        }
        targets.put(m.entryId(), target);
      }
      // Each move's target must be free when it is applied: a target held by another moved entry is one
      // level of the subtree deeper (moving down) or higher (moving up) than its source, so that entry
      // moves first when the deeper (or higher) sources go first.
      boolean down = from != null && path.length() > from.length();
      List<MemoryEntry> order = new ArrayList<>(moving);
      order.sort(Comparator.comparingInt((MemoryEntry m) -> down ? -pathLength(m) : pathLength(m))
          .thenComparing(MemoryEntry::entryId));
      MemoryEntry result = now;
      for (MemoryEntry m : order) {
        String target = targets.get(m.entryId());
        MemoryEntry next = successor(c, m, m.topics(), m.priority(), m.disclosure(), m.glossary(), target,
            opts.source());
        String reason = m == now
            ? (opts.reason() != null ? opts.reason()
                : "move from " + (from == null ? "no path" : from) + " to " + path)
            : "moved with " + from + " from " + m.path() + " to " + target;
        MemoryEntry done = c.replace(m, next, EventKind.MOVE, ChangeKind.MOVE, opts.source(), reason);
        if (m == now) {
          result = done;
        }
      }
      return result;
    });
  }

  /** The active entries of {@code versions} whose path lies below {@code node}'s (none when it has no path). */
  private static List<MemoryEntry> subtree(List<MemoryEntry> versions, MemoryEntry node) {
    List<MemoryEntry> out = new ArrayList<>();
    if (node.path() == null) {
      return out;
    }
    String prefix = node.path() + "/";
    for (MemoryEntry v : versions) {
      if (v.isActive() && v.scope().equals(node.scope()) && v.path() != null && v.path().startsWith(prefix)
          && !v.entryId().equals(node.entryId())) {
        out.add(v);
      }
    }
    return out;
  }

  /** The path {@code descendant} takes when the node at {@code from} moves to {@code to}. */
  private static String moved(MemoryEntry descendant, String from, String to) {
    return to + Objects.requireNonNull(descendant.path()).substring(from.length());
  }

  private static int pathLength(MemoryEntry e) {
    return e.path() == null ? 0 : e.path().length();
  }

  /** A patch of the fields given; a null field is left unset (kept). */
  static EntryPatch patchOf(@Nullable Integer priority, @Nullable String disclosure, @Nullable List<String> glossary,
      @Nullable List<String> topics) {
    EntryPatch.Builder b = EntryPatch.builder();
    if (priority != null) {
      b.priority(priority);
    }
    if (disclosure != null) {
      b.disclosure(disclosure);
    }
    if (glossary != null) {
      b.glossary(glossary);
    }
    if (topics != null) {
      b.topics(topics);
    }
    return b.build();
  }

  /**
   * Applies a validated patch as a new version with an UPDATE event (a METADATA change): each field
   * the patch sets replaces the current value, the others are kept. A patch that changes nothing is
   * {@code DEDUPED}.
   */
  WriteResult update(MemoryEntry cur, EntryPatch patch, ChangeOptions opts) {
    return metadata(cur, opts, "metadata update", now -> patchOf(
        patch.priority() != null ? patch.priority() : now.priority(),
        patch.disclosure() != null ? patch.disclosure() : now.disclosure(),
        patch.glossary() != null ? patch.glossary() : now.glossary(),
        patch.topics() != null ? patch.topics() : now.topics()));
  }

  /** Adds glossary terms (case-insensitively new ones only, in order). */
  MemoryEntry glossaryAdd(MemoryEntry cur, List<String> terms, ChangeOptions opts) {
    return metadata(cur, opts, "glossary add", now -> {
      List<String> next = new ArrayList<>(now.glossary());
      next.addAll(terms);
      return patchOf(now.priority(), now.disclosure(), Text.glossary("terms", next), now.topics());
    }).entry();
  }

  /** Removes glossary terms, compared case-insensitively; terms the entry does not carry change nothing. */
  MemoryEntry glossaryRemove(MemoryEntry cur, List<String> terms, ChangeOptions opts) {
    Set<String> gone = new TreeSet<>();
    for (String t : terms) {
      gone.add(t.toLowerCase(Locale.ROOT));
    }
    return metadata(cur, opts, "glossary remove", now -> patchOf(now.priority(), now.disclosure(),
        now.glossary().stream().filter(t -> !gone.contains(t.toLowerCase(Locale.ROOT))).toList(), now.topics()))
        .entry();
  }

  /** One metadata commit: {@code fields} gives every field of the next version from the current one. */
  private WriteResult metadata(MemoryEntry cur, ChangeOptions opts, String defaultReason,
      java.util.function.Function<MemoryEntry, EntryPatch> fields) {
    EntryPatch planned = fields.apply(cur);
    Embeddings.PendingVectors pending = writeVectors.pendingFor(cur.scope(), cur.content(), planned.disclosure(),
        Objects.requireNonNull(planned.glossary()), cur.path());
    return commits.run(cur.scope(), pending == null ? List.of() : List.of(pending), c -> {
      c.expect(opts.expectedRevision());
      c.origin(opts.origin());
      MemoryEntry now = Entries.requireCurrent(c.reader(), cur.entryId());
      Entries.requireActive(now, "be updated");
      EntryPatch f = fields.apply(now);
      int priority = Objects.requireNonNull(f.priority());
      List<String> glossary = Objects.requireNonNull(f.glossary());
      List<String> topics = Objects.requireNonNull(f.topics());
      if (priority == now.priority() && Objects.equals(f.disclosure(), now.disclosure())
          && glossary.equals(now.glossary()) && topics.equals(now.topics())) {
        return new WriteResult(WriteResult.Outcome.DEDUPED, now, c.head());
      }
      MemoryEntry next = successor(c, now, topics, priority, f.disclosure(), glossary, now.path(), opts.source());
      c.replace(now, next, EventKind.UPDATE, ChangeKind.METADATA, opts.source(),
          opts.reason() != null ? opts.reason() : defaultReason);
      return new WriteResult(WriteResult.Outcome.UPDATED, next, c.revision(), DisclosureCheck.warnings(next.disclosure(), next.path()));
    });
  }

  /**
   * Corrects the cited version: it must still be its entry's current version, otherwise the caller
   * decided on a stale read and gets a {@link RevisionConflictException}. Equal content is a no-op.
   */
  MemoryEntry correct(Citation citation, String content, ChangeOptions opts) {
    String hash = Text.contentHash(content);
    return commits.run(citation.scope(), c -> {
      c.expect(opts.expectedRevision());
      c.origin(opts.origin());
      MemoryEntry now = requireCited(c, citation);
      Entries.requireActive(now, "be corrected");
      if (now.contentHash().equals(hash)) {
        return now;
      }
      MemoryEntry next = c.successor(now, content, now.topics(), now.type(), now.priority(), now.disclosure(),
          now.glossary(), opts.source(), now.evidence());
      return c.replace(now, next, EventKind.UPDATE, ChangeKind.UPDATE, opts.source(), opts.reason());
    });
  }

  /** The entry's current version, when it is exactly the cited one. */
  private static MemoryEntry requireCited(Commit c, Citation citation) {
    MemoryEntry cur = c.current(citation.entryId());
    MemoryEntry cited = c.reader().version(citation.versionId()).orElse(null);
    if (cur == null || cited == null
        || !cited.entryId().equals(citation.entryId())
        || !cited.scope().equals(citation.scope())
        || cited.createdInRevision() != citation.revision()) {
      throw new NotFoundException("no version matches citation " + citation.render());
    }
    if (!cur.versionId().equals(citation.versionId())) {
      throw new RevisionConflictException(citation.scope(), null, c.head(),
          "citation names version " + citation.versionId() + " but the current version of entry " + cur.entryId()
              + " is " + cur.versionId() + "; read the current state and decide again");
    }
    return cur;
  }
}
