/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.internal;

import dev.engram.Citation;
import dev.engram.DirtyTopic;
import dev.engram.EntryStatus;
import dev.engram.Grants;
import dev.engram.HistoryOptions;
import dev.engram.HistoryPage;
import dev.engram.InvalidInputException;
import dev.engram.MemoryEntry;
import dev.engram.MemoryEvent;
import dev.engram.NotFoundException;
import dev.engram.Revision;
import dev.engram.TopicSummary;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.TopicState;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The read side: topics, audit lists, lookups, history and revisions. Inputs arrive validated; every
 * result is filtered to the scopes the grants can see.
 */
final class Reads {
  static final int MAX_CHANGES = 10_000;
  private static final Comparator<MemoryEntry> NEWEST_FIRST =
      Comparator.comparing(MemoryEntry::versionId).reversed();
  private static final Comparator<MemoryEntry> AUDIT_ORDER =
      Comparator.comparing(MemoryEntry::scope)
          .thenComparingLong(MemoryEntry::createdInRevision)
          .thenComparingInt(MemoryEntry::version)
          .thenComparing(MemoryEntry::versionId);

  private final MemoryStore store;

  Reads(MemoryStore store) {
    this.store = store;
  }

  List<MemoryEntry> read(Grants grants, List<String> topics, int limit) {
    Map<String, MemoryEntry> out = new LinkedHashMap<>();
    for (String topic : topics) {
      for (MemoryEntry e : store.activeByTopic(grants.visibleScopes(), topic, limit)) {
        if (e.isActive() && grants.canSee(e.scope())) {
          out.putIfAbsent(e.entryId(), e);
        }
      }
    }
    List<MemoryEntry> result = new ArrayList<>(out.values());
    result.sort(NEWEST_FIRST);
    return List.copyOf(result);
  }

  List<TopicSummary> scan(Grants grants) {
    List<TopicSummary> out = new ArrayList<>();
    for (TopicState t : store.topics(grants.visibleScopes())) {
      if (grants.canSee(t.scope())) {
        out.add(new TopicSummary(t.scope(), t.topic(), t.activeCount(), t.blurb(), t.lastUpdatedAt(), t.dirty()));
      }
    }
    out.sort(Comparator.comparing(TopicSummary::scope).thenComparing(TopicSummary::topic));
    return List.copyOf(out);
  }

  List<MemoryEntry> list(Grants grants, Collection<String> scopes, @Nullable String topic, Set<EntryStatus> statuses) {
    List<MemoryEntry> out = new ArrayList<>();
    for (MemoryEntry e : store.versionsIn(scopes, statuses)) {
      if (grants.canSee(e.scope()) && statuses.contains(e.status()) && (topic == null || e.topics().contains(topic))) {
        out.add(e);
      }
    }
    out.sort(AUDIT_ORDER);
    return List.copyOf(out);
  }

  MemoryEntry get(Grants grants, Citation citation) {
    MemoryEntry v = store.version(citation.versionId()).orElse(null);
    if (v == null
        || !grants.canSee(v.scope())
        || !v.scope().equals(citation.scope())
        || !v.entryId().equals(citation.entryId())
        || v.createdInRevision() != citation.revision()) {
      throw new NotFoundException("no version matches citation " + citation.render() + " for " + grants);
    }
    return v;
  }

  MemoryEntry current(Grants grants, String entryId) {
    return Entries.visibleCurrent(store, grants, entryId);
  }

  List<MemoryEvent> history(Grants grants, String entryId) {
    MemoryEntry cur = current(grants, entryId);
    List<MemoryEvent> out = new ArrayList<>();
    for (MemoryEvent e : store.events(entryId)) {
      if (e.scope().equals(cur.scope())) {
        out.add(e);
      }
    }
    return List.copyOf(out);
  }

  /**
   * One page of the entry's history. The cursor is {@code <revision>:<eventId>} of the page's last
   * event; events of another scope (an entry id reused across scopes by an import) are left out.
   */
  HistoryPage history(Grants grants, String entryId, HistoryOptions options) {
    MemoryEntry cur = current(grants, entryId);
    long afterRevision = 0;
    String afterEventId = "";
    if (options.after() != null) {
      String cursor = options.after();
      int colon = cursor.indexOf(':');
      try {
        afterRevision = Long.parseLong(cursor.substring(0, Math.max(colon, 0)));
      } catch (NumberFormatException e) {
        afterRevision = -1;
      }
      if (colon < 1 || afterRevision < 0 || colon == cursor.length() - 1) {
        throw new InvalidInputException("after", "'" + cursor + "' is not a cursor from HistoryPage.nextCursor()");
      }
      afterEventId = cursor.substring(colon + 1);
    }
    List<MemoryEvent> page = store.events(entryId, afterRevision, afterEventId, options.limit() + 1);
    boolean more = page.size() > options.limit();
    List<MemoryEvent> shown = more ? page.subList(0, options.limit()) : page;
    List<MemoryEvent> out = new ArrayList<>(shown.size());
    for (MemoryEvent e : shown) {
      if (e.scope().equals(cur.scope())) {
        out.add(e);
      }
    }
    MemoryEvent last = shown.isEmpty() ? null : shown.get(shown.size() - 1);
    return new HistoryPage(out, more && last != null ? last.revision() + ":" + last.eventId() : null);
  }

  /** The event, when the grants can see its scope; {@link NotFoundException} otherwise. */
  MemoryEvent event(Grants grants, String eventId) {
    MemoryEvent event = store.event(eventId).orElse(null);
    if (event == null || !grants.canSee(event.scope())) {
      throw new NotFoundException("event " + eventId + " not found or not visible to " + grants);
    }
    return event;
  }

  long revision(String scope) {
    return store.headRevision(scope);
  }

  List<Revision> changes(String scope, long sinceRevision) {
    return store.revisions(scope, sinceRevision, MAX_CHANGES);
  }

  List<DirtyTopic> dirtyTopics(int limit) {
    List<DirtyTopic> out = new ArrayList<>();
    for (TopicState t : store.dirtyTopics(limit)) {
      out.add(new DirtyTopic(t.scope(), t.topic(), t.lastWriteRevision(), t.lastCuratedRevision()));
    }
    return List.copyOf(out);
  }
}
