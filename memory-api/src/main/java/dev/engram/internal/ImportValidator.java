/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.internal;

import dev.engram.Change;
import dev.engram.EntryStatus;
import dev.engram.InvalidInputException;
import dev.engram.MemoryEntry;
import dev.engram.MemoryEvent;
import dev.engram.Namespaces;
import dev.engram.Revision;
import dev.engram.spi.MemoryStore;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * The rules an import is checked against before anything is written: each version exactly what the
 * engine would have stored ({@link #checkVersion}), and across the whole file ({@link #validate}) the
 * chains, the per-scope rules the engine keeps and what the target store already holds.
 */
final class ImportValidator {
  private final MemoryStore store;
  private final EngineConfig config;
  /** A restore: ids the target store holds in the scope being replaced are free (that scope is erased first). */
  private final boolean replace;

  ImportValidator(MemoryStore store, EngineConfig config) {
    this(store, config, false);
  }

  ImportValidator(MemoryStore store, EngineConfig config, boolean replace) {
    this.store = store;
    this.config = config;
    this.replace = replace;
  }

  /**
   * Whether an id the target store holds in {@code holderScope} (null: it holds none) is taken for an
   * import of {@code scope}: always, except in a restore when it lies in the scope being replaced.
   */
  boolean taken(@Nullable String holderScope, String scope) {
    return holderScope != null && !(replace && holderScope.equals(scope));
  }

  private static @Nullable String scopeOfVersions(List<MemoryEntry> versions) {
    return versions.isEmpty() ? null : versions.get(0).scope();
  }

  /** A version must be exactly what the engine would have stored. */
  MemoryEntry checkVersion(MemoryEntry v) {
    Namespaces.validate("scope", v.scope());
    Text.id("entryId", v.entryId());
    Text.id("versionId", v.versionId());
    String content = Text.content("content", v.content(), config.maxContentBytes());
    if (!content.equals(v.content())) {
      throw new InvalidInputException("content", "version " + v.versionId() + " content is not in normalized form");
    }
    if (!Text.contentHash(content).equals(v.contentHash())) {
      throw new InvalidInputException("contentHash", "version " + v.versionId() + " hash does not match its content");
    }
    if (!Text.topics("topics", v.topics(), true).equals(v.topics())) {
      throw new InvalidInputException("topics", "version " + v.versionId() + " topics are not normalized");
    }
    Text.priority("priority", v.priority());
    normalized("disclosure", v.disclosure(), Text.optionalShort("disclosure", v.disclosure(), Text.MAX_DISCLOSURE_CHARS));
    normalized("glossary", v.glossary(), Text.glossary("glossary", v.glossary()));
    Text.path("path", v.path());
    normalized("source", v.source(), Text.optionalShort("source", v.source(), Text.MAX_SOURCE_CHARS));
    normalized("evidence", v.evidence(), Text.evidence("evidence", v.evidence()));
    if (v.status() == EntryStatus.SUPERSEDED ? v.supersededBy() == null : v.supersededBy() != null) {
      throw new InvalidInputException("supersededBy", "version " + v.versionId() + " is " + v.status()
          + (v.supersededBy() == null ? " without" : " with") + " a supersededBy");
    }
    if (v.supersededBy() != null) {
      Text.id("supersededBy", v.supersededBy());
      if (v.supersededBy().equals(v.versionId())) {
        throw new InvalidInputException("supersededBy", "version " + v.versionId() + " names itself as superseding it");
      }
    }
    return v;
  }

  /** A stored value must be in the form the engine stores (the engine's own rules, applied once more, change nothing). */
  static void normalized(String field, @Nullable Object stored, @Nullable Object normal) {
    if (!Objects.equals(stored, normal)) {
      throw new InvalidInputException(field, "is not in the normalized form the engine stores");
    }
  }

  /**
   * Cross-record consistency: ids unique across the whole file, every version chain one the engine
   * could have made, the engine's per-scope rules (one active entry per content hash and per path,
   * priority caps), stamps within the scope's revision, change sets and snapshots naming only ids of
   * their own scope; and that nothing collides with the target store.
   */
  void validate(Map<String, ImportedScope> scopes) {
    Map<String, String> versionScope = new HashMap<>();
    Map<String, MemoryEntry> versionsById = new HashMap<>();
    Map<String, String> entryScope = new HashMap<>();
    Map<String, String> eventScope = new HashMap<>();
    for (ImportedScope d : scopes.values()) {
      for (MemoryEntry v : d.versions.values()) {
        String other = versionScope.putIfAbsent(v.versionId(), d.scope);
        if (other != null) {
          throw new InvalidInputException("versionId", "version " + v.versionId() + " appears in " + other + " and in " + d.scope);
        }
        versionsById.put(v.versionId(), v);
        String entryOther = entryScope.putIfAbsent(v.entryId(), d.scope);
        if (entryOther != null && !entryOther.equals(d.scope)) {
          throw new InvalidInputException("entryId", "entry " + v.entryId() + " appears in more than one scope ("
              + entryOther + ", " + d.scope + ")");
        }
      }
      for (MemoryEvent e : d.events) {
        String other = eventScope.putIfAbsent(e.eventId(), d.scope);
        if (other != null) {
          throw new InvalidInputException("eventId", "event " + e.eventId() + " appears "
              + (other.equals(d.scope) ? "twice in " + d.scope : "in " + other + " and in " + d.scope));
        }
      }
    }
    for (ImportedScope d : scopes.values()) {
      validateScope(d, versionScope, versionsById, entryScope);
    }
    Set<String> reviewIds = new HashSet<>();
    for (ImportedScope d : scopes.values()) {
      reviews().validate(d.scope, d.review, d.sourceState, reviewIds);
    }
  }

  /** The experience and review part of an import, over this validator's store. */
  ReviewTransfer reviews() {
    return new ReviewTransfer(store, config, this);
  }

  private void validateScope(
      ImportedScope d, Map<String, String> versionScope, Map<String, MemoryEntry> versionsById, Map<String, String> entryScope) {
    long expect = 1;
    for (long r : d.revisions.keySet()) {
      if (r != expect) {
        throw new InvalidInputException("revision", "revisions of " + d.scope + " are not gap-free: expected " + expect + ", found " + r);
      }
      expect++;
    }
    if (d.revisions.size() != d.revision) {
      throw new InvalidInputException("revision", "scope " + d.scope + " declares revision " + d.revision
          + " but carries " + d.revisions.size() + " revisions");
    }
    Map<String, List<MemoryEntry>> byEntry = new HashMap<>();
    for (MemoryEntry v : d.versions.values()) {
      if (!v.scope().equals(d.scope)) {
        throw new InvalidInputException("scope", "version " + v.versionId() + " is filed under " + d.scope + " but names " + v.scope());
      }
      if (v.createdInRevision() < 1 || v.createdInRevision() > d.revision) {
        throw new InvalidInputException("createdInRevision", "version " + v.versionId() + " cites revision " + v.createdInRevision()
            + " outside 1.." + d.revision);
      }
      byEntry.computeIfAbsent(v.entryId(), k -> new ArrayList<>()).add(v);
      if (taken(store.version(v.versionId()).map(MemoryEntry::scope).orElse(null), d.scope)) {
        throw new InvalidInputException("versionId", "version " + v.versionId() + " already exists in the target store"
            + (replace ? " outside " + d.scope : ""));
      }
    }
    Map<String, MemoryEntry> activeByHash = new HashMap<>();
    Map<String, MemoryEntry> activeByPath = new HashMap<>();
    int[] activeWithPriority = new int[2];
    for (Map.Entry<String, List<MemoryEntry>> e : byEntry.entrySet()) {
      if (taken(scopeOfVersions(store.versions(e.getKey())), d.scope)) {
        throw new InvalidInputException("entryId", "entry " + e.getKey() + " already exists in the target store"
            + (replace ? " outside " + d.scope : ""));
      }
      List<MemoryEntry> chain = e.getValue();
      chain.sort((a, b) -> Integer.compare(a.version(), b.version()));
      for (int i = 0; i < chain.size(); i++) {
        MemoryEntry v = chain.get(i);
        if (v.version() != i + 1) {
          throw new InvalidInputException("version", "entry " + e.getKey() + " versions are not 1.." + chain.size());
        }
        String prev = i == 0 ? null : chain.get(i - 1).versionId();
        if (!Objects.equals(prev, v.previousVersionId())) {
          throw new InvalidInputException("previousVersionId", "version " + v.versionId() + " breaks the chain of entry " + e.getKey());
        }
        boolean head = i == chain.size() - 1;
        if (!head && v.status() != EntryStatus.SUPERSEDED) {
          throw new InvalidInputException("status", "version " + v.versionId() + " of entry " + e.getKey() + " is " + v.status()
              + " but a later version exists; only the newest version of an entry may be current");
        }
        if (v.supersededBy() != null) {
          MemoryEntry by = versionsById.get(v.supersededBy());
          if (by == null || !d.scope.equals(versionScope.get(v.supersededBy()))) {
            throw new InvalidInputException("supersededBy", "version " + v.versionId() + " is superseded by " + v.supersededBy()
                + ", which is not a version of " + d.scope + " in this export");
          }
          if (head && by.entryId().equals(v.entryId())) {
            throw new InvalidInputException("supersededBy", "version " + v.versionId() + " is the newest of entry " + e.getKey()
                + " but names its own entry's version " + v.supersededBy() + " as superseding it");
          }
        }
        if (v.status() == EntryStatus.ACTIVE) {
          MemoryEntry twin = activeByHash.putIfAbsent(v.contentHash(), v);
          if (twin != null) {
            throw new InvalidInputException("contentHash", "entries " + twin.entryId() + " and " + v.entryId() + " of " + d.scope
                + " are both active with one content; the engine keeps one active entry per content");
          }
          if (v.path() != null) {
            MemoryEntry holder = activeByPath.putIfAbsent(v.path(), v);
            if (holder != null) {
              throw new InvalidInputException("path", "entries " + holder.entryId() + " and " + v.entryId() + " of " + d.scope
                  + " are both active at path " + v.path());
            }
          }
          if (v.priority() <= 1) {
            activeWithPriority[v.priority()]++;
          }
        }
      }
    }
    int[] caps = {config.corePriorityCap(), config.keyPriorityCap()};
    for (int p = 0; p < caps.length; p++) {
      if (activeWithPriority[p] > caps[p]) {
        throw new InvalidInputException("priority", "scope " + d.scope + " holds " + activeWithPriority[p]
            + " active entries of priority " + p + "; the cap is " + caps[p]);
      }
    }
    for (MemoryEvent ev : d.events) {
      if (!ev.scope().equals(d.scope) || !byEntry.containsKey(ev.entryId())) {
        throw new InvalidInputException("event", "event " + ev.eventId() + " names an entry not exported with scope " + d.scope);
      }
      if (ev.revision() < 1 || ev.revision() > d.revision) {
        throw new InvalidInputException("event", "event " + ev.eventId() + " cites revision " + ev.revision() + " outside 1.." + d.revision);
      }
      for (MemoryEntry snap : java.util.Arrays.asList(ev.before(), ev.after())) {
        if (snap == null) {
          continue;
        }
        MemoryEntry stored = versionsById.get(snap.versionId());
        if (!snap.scope().equals(d.scope) || !snap.entryId().equals(ev.entryId()) || stored == null
            || !stored.entryId().equals(ev.entryId()) || !d.scope.equals(versionScope.get(snap.versionId()))) {
          throw new InvalidInputException("event", "event " + ev.eventId() + " holds a snapshot of version " + snap.versionId()
              + " that is not a version of entry " + ev.entryId() + " in " + d.scope);
        }
      }
      if (taken(store.event(ev.eventId()).map(MemoryEvent::scope).orElse(null), d.scope)) {
        throw new InvalidInputException("eventId", "event " + ev.eventId() + " already exists in the target store"
            + (replace ? " outside " + d.scope : ""));
      }
    }
    for (Revision r : d.revisions.values()) {
      for (Change c : r.changes()) {
        Text.id("entryId", c.entryId());
        String owner = entryScope.get(c.entryId());
        boolean foreign = owner != null ? !owner.equals(d.scope)
            : taken(scopeOfVersions(store.versions(c.entryId())), d.scope);
        if (c.versionId() != null) {
          Text.id("versionId", c.versionId());
          MemoryEntry v = versionsById.get(c.versionId());
          foreign |= v != null ? !v.entryId().equals(c.entryId()) || !d.scope.equals(versionScope.get(c.versionId()))
              : taken(store.version(c.versionId()).map(MemoryEntry::scope).orElse(null), d.scope);
        }
        if (foreign) {
          throw new InvalidInputException("changes", "revision " + r.revision() + " of " + d.scope + " names entry " + c.entryId()
              + (c.versionId() == null ? "" : " version " + c.versionId()) + ", which belongs to another scope");
        }
      }
    }
    for (ImportedScope.Topic t : d.topics) {
      if (t.lastWrite() < 0 || t.lastWrite() > d.revision) {
        throw new InvalidInputException("lastWriteRevision", "topic " + t.topic() + " of " + d.scope + " was written at revision "
            + t.lastWrite() + ", outside 0.." + d.revision);
      }
      if (t.lastCurated() < 0 || t.lastCurated() > d.revision) {
        throw new InvalidInputException("lastCuratedRevision", "topic " + t.topic() + " of " + d.scope + " was curated at revision "
            + t.lastCurated() + ", outside 0.." + d.revision);
      }
    }
    if (!replace && (store.headRevision(d.scope) != 0 || store.hasScope(d.scope))) {
      throw new InvalidInputException("scope", "scope '" + d.scope + "' is not empty in the target store; import only into empty scopes");
    }
  }
}
