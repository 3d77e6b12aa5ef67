/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.internal;

import dev.engram.Change;
import dev.engram.ChangeKind;
import dev.engram.CurationRunConflictException;
import dev.engram.EntryStatus;
import dev.engram.EventKind;
import dev.engram.InvalidInputException;
import dev.engram.MemoryEntry;
import dev.engram.MemoryEvent;
import dev.engram.Namespaces;
import dev.engram.Revision;
import dev.engram.spi.StoreReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Undoing the most recent curation run. A run id names, per scope, the revisions the run committed
 * ({@code from} exclusive, {@code to} inclusive); an approved curation op of the review inbox is a run of
 * one revision. An undo re-checks inside each scope's commit that
 * every change in that span was curation's, that no later revision touched what it touched and that no
 * later curation ran there; then it restores each touched entry to its state before the run as new
 * versions (ROLLBACK events), retires the summaries the run created, and reactivates what it retired.
 * Each scope is one commit; the spans of all scopes are checked before the first is undone.
 */
final class CurationUndo {
  /** The actor recorded on the versions and events an undo makes. */
  static final String UNDO_ACTOR = "curator-undo";
  private static final String PREFIX = "run1.";
  private static final int MAX_REVISIONS = 100_000;

  record Span(String scope, long from, long to) {}

  private final Commits commits;

  CurationUndo(Commits commits) {
    this.commits = commits;
  }

  static String runId(List<Span> spans) {
    StringBuilder sb = new StringBuilder();
    for (Span s : spans) {
      sb.append(s.scope()).append('\t').append(s.from()).append('\t').append(s.to()).append('\n');
    }
    return PREFIX + Base64.getUrlEncoder().withoutPadding().encodeToString(sb.toString().getBytes(StandardCharsets.UTF_8));
  }

  static List<Span> parse(String runId) {
    if (runId == null) {
      throw new NullPointerException("runId");
    }
    if (!runId.startsWith(PREFIX) || runId.length() > 64 * 1024) {
      throw new InvalidInputException("runId", "is not a run id returned by curate");
    }
    String text;
    try {
      text = new String(Base64.getUrlDecoder().decode(runId.substring(PREFIX.length())), StandardCharsets.UTF_8);
    } catch (IllegalArgumentException e) {
      throw new InvalidInputException("runId", "is not a run id returned by curate (" + e.getMessage() + ")");
    }
    List<Span> out = new ArrayList<>();
    Set<String> scopes = new LinkedHashSet<>();
    for (String line : text.split("\n")) {
      String[] f = line.split("\t", -1);
      try {
        if (f.length != 3) {
          throw new IllegalArgumentException("expected scope, from and to");
        }
        Span s = new Span(Namespaces.validate("runId.scope", f[0]), Long.parseLong(f[1]), Long.parseLong(f[2]));
        if (s.from() < 0 || s.to() <= s.from() || !scopes.add(s.scope())) {
          throw new IllegalArgumentException("bad revision span of " + s.scope());
        }
        out.add(s);
      } catch (IllegalArgumentException e) {
        throw new InvalidInputException("runId", "is not a run id returned by curate (" + e.getMessage() + ")");
      }
    }
    return out;
  }

  List<MemoryEntry> undo(StoreReader store, String runId, List<Span> spans) {
    for (Span s : spans) {
      touched(store, runId, s, store.headRevision(s.scope()));
    }
    List<MemoryEntry> out = new ArrayList<>();
    for (Span s : spans) {
      out.addAll(commits.run(s.scope(), c -> revert(c, runId, touched(c.reader(), runId, s, c.head()))));
    }
    return List.copyOf(out);
  }

  /** The first event of each entry the run touched in the span, after checking it may be undone. */
  private static Map<String, MemoryEvent> touched(StoreReader reader, String runId, Span span, long head) {
    if (head < span.to() || head - span.from() > MAX_REVISIONS) {
      throw conflict(runId, span, head, "scope " + span.scope() + " is at revision " + head
          + ", which this run's span (" + span.from() + ", " + span.to() + "] does not fit");
    }
    Map<String, MemoryEvent> touched = new LinkedHashMap<>();
    for (Revision r : reader.revisions(span.scope(), span.from(), (int) (head - span.from()))) {
      boolean inRun = r.revision() <= span.to();
      for (String entryId : entryIds(r)) {
        List<MemoryEvent> events = eventsAt(reader, entryId, r.revision());
        if (inRun) {
          if (events.isEmpty()) {
            throw conflict(runId, span, head, "entry " + entryId + " of this run was erased since");
          }
          for (MemoryEvent e : events) {
            if (!byCuration(e)) {
              throw conflict(runId, span, head, "revision " + r.revision() + " of " + span.scope()
                  + " was not made by this curation run; only a run's own revisions can be undone");
            }
            touched.putIfAbsent(entryId, e);
          }
        } else {
          if (events.stream().anyMatch(CurationUndo::byCuration)) {
            throw conflict(runId, span, head, "a later curation run committed revision " + r.revision() + " of "
                + span.scope() + "; only the most recent run can be undone");
          }
          if (touched.containsKey(entryId)) {
            throw conflict(runId, span, head, "entry " + entryId + " changed at revision " + r.revision()
                + " after the run; undoing would overwrite that change");
          }
        }
      }
    }
    return touched;
  }

  /**
   * Whether curation made the event: the curator itself, or a reviewer approving a queued curation op
   * (recorded with origin {@code curator} and the reviewer as actor). An undo's own
   * events are not curation.
   */
  static boolean byCuration(MemoryEvent e) {
    return Entries.CURATOR.equals(e.actor())
        || ("curator".equals(e.origin()) && !UNDO_ACTOR.equals(e.actor()));
  }

  private static Set<String> entryIds(Revision r) {
    Set<String> ids = new LinkedHashSet<>();
    for (Change c : r.changes()) {
      ids.add(c.entryId());
    }
    return ids;
  }

  private static List<MemoryEvent> eventsAt(StoreReader reader, String entryId, long revision) {
    List<MemoryEvent> out = new ArrayList<>();
    for (MemoryEvent e : reader.events(entryId)) {
      if (e.revision() == revision) {
        out.add(e);
      }
    }
    return out;
  }

  /**
   * Restores the touched entries: created ones are retired first, then entries still active get their
   * earlier version back, then retired ones are reactivated, then merged-away ones come back, so no
   * content is ever held twice on the way.
   */
  private static List<MemoryEntry> revert(Commit c, String runId, Map<String, MemoryEvent> touched) {
    String reason = "undo curation run " + (runId.length() > 64 ? runId.substring(0, 64) + "…" : runId);
    List<MemoryEntry> out = new ArrayList<>();
    for (int phase = 0; phase < 4; phase++) {
      for (MemoryEvent first : touched.values()) {
        MemoryEntry before = first.before();
        MemoryEntry cur = Entries.requireCurrent(c.reader(), first.entryId());
        int kind = before == null ? 0
            : cur.versionId().equals(before.versionId())
                ? (cur.status() == EntryStatus.RETIRED ? 2 : cur.status() == EntryStatus.SUPERSEDED ? 3 : -1)
                : (cur.isActive() ? 1 : 3);
        if (kind != phase) {
          continue;
        }
        if (phase == 0) {
          if (cur.isActive()) {
            out.add(c.status(cur, EntryStatus.RETIRED, UNDO_ACTOR, reason));
          }
        } else if (phase == 2) {
          out.add(c.status(cur, EntryStatus.ACTIVE, UNDO_ACTOR, reason));
        } else {
          MemoryEntry next = c.successor(cur, before.content(), before.topics(), before.type(), before.priority(),
              before.disclosure(), before.glossary(), UNDO_ACTOR, before.evidence());
          out.add(c.replace(cur, next, EventKind.ROLLBACK, ChangeKind.ROLLBACK, UNDO_ACTOR, reason));
        }
      }
    }
    return out;
  }

  private static CurationRunConflictException conflict(String runId, Span span, long head, String message) {
    return new CurationRunConflictException(runId, span.scope(), head, "curation run cannot be undone: " + message);
  }
}
