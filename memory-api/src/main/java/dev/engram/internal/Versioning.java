/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.internal;

import dev.engram.ChangeKind;
import dev.engram.ChangeOptions;
import dev.engram.Citation;
import dev.engram.EntryStateException;
import dev.engram.EntryStatus;
import dev.engram.EventKind;
import dev.engram.Grants;
import dev.engram.MemoryEntry;
import dev.engram.MemoryEvent;
import dev.engram.NotFoundException;
import dev.engram.RevisionConflictException;
import java.util.List;
import java.util.Objects;

/**
 * Changes to existing entries: correct, retire, reactivate and rollback, each one commit. Grants,
 * ids and options arrive validated and authorized by the facade.
 */
final class Versioning {
  private final WriteVectors writeVectors;
  private final Commits commits;

  Versioning(WriteVectors writeVectors, Commits commits) {
    this.writeVectors = writeVectors;
    this.commits = commits;
  }

  MemoryEntry correct(MemoryEntry cur, String content, ChangeOptions opts) {
    String hash = Text.contentHash(content);
    Embeddings.PendingVectors pending = cur.contentHash().equals(hash)
        ? null : writeVectors.pendingFor(cur.scope(), content, cur.disclosure(), cur.glossary(), cur.path());
    return commits.run(cur.scope(), pending == null ? List.of() : List.of(pending), c -> {
      c.expect(opts.expectedRevision());
      c.origin(opts.origin());
      MemoryEntry now = Entries.requireCurrent(c.reader(), cur.entryId());
      Entries.requireActive(now, "correct");
      if (now.contentHash().equals(hash)) {
        return now;
      }
      MemoryEntry next = c.successor(now, content, now.topics(), now.type(), now.priority(), now.disclosure(),
          now.glossary(), opts.source(), now.evidence());
      return c.replace(now, next, EventKind.UPDATE, ChangeKind.UPDATE, opts.source(), opts.reason());
    });
  }

  MemoryEntry setStatus(Grants grants, Citation citation, ChangeOptions opts, EntryStatus target) {
    return commits.run(citation.scope(), c -> {
      c.expect(opts.expectedRevision());
      c.origin(opts.origin());
      MemoryEntry cur = c.current(citation.entryId());
      MemoryEntry cited = c.reader().version(citation.versionId()).orElse(null);
      if (cur == null || cited == null
          || !cited.entryId().equals(citation.entryId())
          || !cited.scope().equals(citation.scope())
          || cited.createdInRevision() != citation.revision()) {
        throw new NotFoundException("no version matches citation " + citation.render() + " for " + grants);
      }
      if (!cur.versionId().equals(citation.versionId())) {
        throw new RevisionConflictException(citation.scope(), null, c.head(),
            "citation names version " + citation.versionId() + " but the current version of entry "
                + cur.entryId() + " is " + cur.versionId() + "; read the current state and decide again");
      }
      if (target == EntryStatus.RETIRED && cur.status() != EntryStatus.ACTIVE) {
        throw new EntryStateException("entry " + cur.entryId() + " is " + cur.status() + ", not ACTIVE; it cannot be retired");
      }
      if (target == EntryStatus.ACTIVE && cur.status() != EntryStatus.RETIRED) {
        throw new EntryStateException("entry " + cur.entryId() + " is " + cur.status() + ", not RETIRED; it cannot be reactivated");
      }
      return c.status(cur, target, opts.source(), opts.reason());
    });
  }

  /**
   * Restores the content, priority, disclosure and glossary of a CREATE, UPDATE or ROLLBACK event as
   * a new version. A retired entry is refused (reactivate it first); an entry merged away into
   * another comes back as a new version while its merged-away version stays exactly as it was.
   */
  MemoryEntry rollback(MemoryEvent event, ChangeOptions opts) {
    MemoryEntry snap = Objects.requireNonNull(event.after(), "event.after");
    return commits.run(event.scope(), c -> {
      c.expect(opts.expectedRevision());
      c.origin(opts.origin());
      MemoryEntry cur = Entries.requireCurrent(c.reader(), event.entryId());
      if (cur.status() == EntryStatus.RETIRED) {
        throw new EntryStateException("entry " + cur.entryId() + " is RETIRED; reactivate it first, then roll back");
      }
      if (cur.isActive()
          && cur.contentHash().equals(snap.contentHash())
          && cur.priority() == snap.priority()
          && Objects.equals(cur.disclosure(), snap.disclosure())
          && cur.glossary().equals(snap.glossary())) {
        return cur;
      }
      String reason = opts.reason() != null ? opts.reason() : "rollback to event " + event.eventId();
      MemoryEntry next = c.successor(cur, snap.content(), cur.topics(), cur.type(), snap.priority(),
          snap.disclosure(), snap.glossary(), opts.source(), cur.evidence());
      return c.replace(cur, next, EventKind.ROLLBACK, ChangeKind.ROLLBACK, opts.source(), reason);
    });
  }
}
