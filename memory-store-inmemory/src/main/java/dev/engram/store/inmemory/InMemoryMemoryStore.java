/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.store.inmemory;

import dev.engram.CapturedSource;
import dev.engram.EntryStatus;
import dev.engram.MemoryEntry;
import dev.engram.MemoryEvent;
import dev.engram.Namespaces;
import dev.engram.StoreException;
import dev.engram.Revision;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.FullTextQuery;
import dev.engram.spi.ScoredEntry;
import dev.engram.spi.SourceFilter;
import dev.engram.spi.SourceState;
import dev.engram.spi.StoreCapability;
import dev.engram.spi.StoredVector;
import dev.engram.spi.StoreTransaction;
import dev.engram.spi.TopicState;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.locks.ReentrantReadWriteLock;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The reference store: everything in memory, guarded by one read/write lock. Transactions are
 * serialized and roll back through an undo log when their work throws. Thread-safe; nothing survives
 * the process.
 */
public final class InMemoryMemoryStore implements MemoryStore {
  private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
  private final Data data = new Data();

  private static final class TopicRow {
    @Nullable String blurb;
    long lastWrite;
    long lastCurated;
    @Nullable Instant lastUpdatedAt;

    TopicRow copy() {
      TopicRow r = new TopicRow();
      r.blurb = blurb;
      r.lastWrite = lastWrite;
      r.lastCurated = lastCurated;
      r.lastUpdatedAt = lastUpdatedAt;
      return r;
    }
  }

  /** All state; only touched under the lock. */
  private static final class Data {
    final Map<String, MemoryEntry> versions = new HashMap<>();
    final Map<String, TreeMap<Integer, String>> entryVersions = new HashMap<>();
    /** scope -> versionId -> version (sorted by id, i.e. by creation). */
    final Map<String, TreeMap<String, MemoryEntry>> byScope = new HashMap<>();
    final Map<String, Long> heads = new HashMap<>();
    final Map<String, List<Revision>> revisions = new HashMap<>();
    final Map<String, MemoryEvent> events = new HashMap<>();
    final Map<String, List<String>> entryEvents = new HashMap<>();
    final Map<String, TreeMap<String, TopicRow>> topics = new HashMap<>();
    /** scope -> ("h:" + content hash | "p:" + path) -> active versionIds, for dedupe and path lookups. */
    final Map<String, Map<String, TreeSet<String>>> activeKeys = new HashMap<>();
    /** scope -> full-text index of its active versions. */
    final Map<String, TextIndex> text = new HashMap<>();
    /** profile -> versionId -> vectors of that version's views. */
    final Map<String, Map<String, List<StoredVector>>> vectors = new HashMap<>();
    /** scope -> position -> captured source. */
    final Map<String, TreeMap<Long, CapturedSource>> sources = new HashMap<>();
    /** scope -> source id -> position. */
    final Map<String, Map<String, Long>> sourceIds = new HashMap<>();
    /** scope -> last position and cursor. */
    final Map<String, SourceState> sourceStates = new HashMap<>();
  }

  private volatile boolean closed;

  @Override
  public Set<StoreCapability> capabilities() {
    return EnumSet.of(StoreCapability.FULL_TEXT_SEARCH, StoreCapability.VECTOR_STORAGE, StoreCapability.SOURCES);
  }

  @Override
  public <T> T inTransaction(String scope, StoreWork<T> work) {
    checkOpen();
    lock.writeLock().lock();
    Tx tx = new Tx(scope);
    try {
      T result = work.run(tx);
      tx.undo.clear();
      return result;
    } catch (RuntimeException | Error e) {
      tx.rollback();
      throw e;
    } finally {
      tx.closed = true;
      lock.writeLock().unlock();
    }
  }

  @Override
  public void close() {
    closed = true;
  }

  private void checkOpen() {
    if (closed) {
      throw StoreException.closed("InMemoryMemoryStore is closed");
    }
  }

  private <T> T read(Supplier<T> query) {
    checkOpen();
    lock.readLock().lock();
    try {
      return query.get();
    } finally {
      lock.readLock().unlock();
    }
  }

  // ---- StoreReader, each call under the read lock

  @Override
  public long headRevision(String scope) {
    return read(() -> Queries.headRevision(data, scope));
  }

  @Override
  public Optional<MemoryEntry> version(String versionId) {
    return read(() -> Optional.ofNullable(data.versions.get(versionId)));
  }

  @Override
  public List<MemoryEntry> versions(String entryId) {
    return read(() -> Queries.versions(data, entryId));
  }

  @Override
  public Optional<MemoryEntry> findActiveByHash(String scope, String contentHash) {
    return read(() -> Queries.findActive(data, scope, "h:" + contentHash));
  }

  @Override
  public Optional<MemoryEntry> findActiveByPath(String scope, String path) {
    return read(() -> Queries.findActive(data, scope, "p:" + path));
  }

  @Override
  public List<MemoryEntry> activeByTopic(Collection<String> scopes, String topic, int limit) {
    return read(() -> Queries.activeByTopic(data, scopes, topic, limit));
  }

  @Override
  public List<MemoryEntry> versionsIn(Collection<String> scopes, Set<EntryStatus> statuses) {
    return read(() -> Queries.versionsIn(data, scopes, statuses));
  }

  @Override
  public List<MemoryEvent> events(String entryId) {
    return read(() -> Queries.events(data, entryId));
  }

  @Override
  public Optional<MemoryEvent> event(String eventId) {
    return read(() -> Optional.ofNullable(data.events.get(eventId)));
  }

  @Override
  public List<Revision> revisions(String scope, long sinceExclusive, int limit) {
    return read(() -> Queries.revisions(data, scope, sinceExclusive, limit));
  }

  @Override
  public List<TopicState> topics(Collection<String> scopes) {
    return read(() -> Queries.topics(data, scopes));
  }

  @Override
  public List<TopicState> dirtyTopics(int limit) {
    return read(() -> Queries.dirtyTopics(data, limit));
  }

  @Override
  public int countActiveWithPriority(String namespace, int priority) {
    return read(() -> Queries.countActiveWithPriority(data, namespace, priority));
  }

  @Override
  public List<String> scopes(String prefix, boolean recursive) {
    return read(() -> Queries.scopes(data, prefix, recursive));
  }

  @Override
  public List<ScoredEntry> searchFullText(Collection<String> scopes, FullTextQuery query, int limit) {
    return read(() -> Queries.searchFullText(data, scopes, query, limit));
  }

  @Override
  public List<StoredVector> activeVectors(String scope, String profileId) {
    return read(() -> Queries.activeVectors(data, scope, profileId));
  }

  @Override
  public int countActiveWithoutVectors(String scope, String profileId) {
    return read(() -> Queries.countActiveWithoutVectors(data, scope, profileId));
  }

  @Override
  public SourceState sourceState(String scope) {
    return read(() -> Queries.sourceState(data, scope));
  }

  @Override
  public Optional<CapturedSource> source(String scope, String sourceId) {
    return read(() -> Queries.source(data, scope, sourceId));
  }

  @Override
  public List<CapturedSource> sources(String scope, SourceFilter filter) {
    return read(() -> Queries.sources(data, scope, filter));
  }

  /** Queries over {@link Data}; the caller holds a lock. */
  private static final class Queries {
    static long headRevision(Data d, String scope) {
      return d.heads.getOrDefault(scope, 0L);
    }

    static List<MemoryEntry> versions(Data d, String entryId) {
      TreeMap<Integer, String> ids = d.entryVersions.get(entryId);
      if (ids == null) {
        return List.of();
      }
      List<MemoryEntry> out = new ArrayList<>(ids.size());
      for (String id : ids.values()) {
        out.add(d.versions.get(id));
      }
      return out;
    }

    /** The newest active version of {@code scope} under {@code key} ({@code h:hash} or {@code p:path}). */
    static Optional<MemoryEntry> findActive(Data d, String scope, String key) {
      TreeSet<String> ids = d.activeKeys.getOrDefault(scope, Map.of()).get(key);
      return ids == null || ids.isEmpty() ? Optional.empty() : Optional.of(d.versions.get(ids.last()));
    }

    static List<String> keys(MemoryEntry e) {
      return e.path() == null ? List.of("h:" + e.contentHash()) : List.of("h:" + e.contentHash(), "p:" + e.path());
    }

    static List<MemoryEntry> activeByTopic(Data d, Collection<String> scopes, String topic, int limit) {
      TreeSet<MemoryEntry> best = new TreeSet<>((a, b) -> b.versionId().compareTo(a.versionId()));
      for (String scope : new HashSet<>(scopes)) {
        TreeMap<String, MemoryEntry> s = d.byScope.get(scope);
        if (s == null) {
          continue;
        }
        int taken = 0;
        for (MemoryEntry e : s.descendingMap().values()) {
          if (e.isActive() && e.topics().contains(topic)) {
            best.add(e);
            if (++taken >= limit) {
              break;
            }
          }
        }
      }
      List<MemoryEntry> out = new ArrayList<>(Math.min(limit, best.size()));
      Iterator<MemoryEntry> it = best.iterator();
      while (it.hasNext() && out.size() < limit) {
        out.add(it.next());
      }
      return out;
    }

    static List<MemoryEntry> versionsIn(Data d, Collection<String> scopes, Set<EntryStatus> statuses) {
      List<MemoryEntry> out = new ArrayList<>();
      for (String scope : new HashSet<>(scopes)) {
        TreeMap<String, MemoryEntry> s = d.byScope.get(scope);
        if (s != null) {
          for (MemoryEntry e : s.values()) {
            if (statuses.contains(e.status())) {
              out.add(e);
            }
          }
        }
      }
      return out;
    }

    static List<MemoryEvent> events(Data d, String entryId) {
      List<String> ids = d.entryEvents.get(entryId);
      if (ids == null) {
        return List.of();
      }
      List<MemoryEvent> out = new ArrayList<>();
      for (String id : ids) {
        out.add(d.events.get(id));
      }
      out.sort((a, b) -> a.revision() != b.revision()
          ? Long.compare(a.revision(), b.revision())
          : a.eventId().compareTo(b.eventId()));
      return out;
    }

    static List<Revision> revisions(Data d, String scope, long since, int limit) {
      List<Revision> all = d.revisions.getOrDefault(scope, List.of());
      List<Revision> out = new ArrayList<>();
      for (Revision r : all) {
        if (r.revision() > since && out.size() < limit) {
          out.add(r);
        }
      }
      return out;
    }

    static List<TopicState> topics(Data d, Collection<String> scopes) {
      List<TopicState> out = new ArrayList<>();
      for (String scope : new TreeSet<>(scopes)) {
        TreeMap<String, TopicRow> rows = d.topics.get(scope);
        if (rows != null) {
          rows.forEach((topic, row) -> out.add(state(d, scope, topic, row)));
        }
      }
      return out;
    }

    static List<TopicState> dirtyTopics(Data d, int limit) {
      List<TopicState> out = new ArrayList<>();
      for (String scope : new TreeSet<>(d.topics.keySet())) {
        for (Map.Entry<String, TopicRow> e : d.topics.get(scope).entrySet()) {
          if (e.getValue().lastWrite > e.getValue().lastCurated && out.size() < limit) {
            out.add(state(d, scope, e.getKey(), e.getValue()));
          }
        }
      }
      return out;
    }

    static TopicState state(Data d, String scope, String topic, TopicRow row) {
      int count = 0;
      TreeMap<String, MemoryEntry> s = d.byScope.get(scope);
      if (s != null) {
        for (MemoryEntry e : s.values()) {
          if (e.isActive() && e.topics().contains(topic)) {
            count++;
          }
        }
      }
      return new TopicState(scope, topic, count, row.blurb, row.lastWrite, row.lastCurated, row.lastUpdatedAt);
    }

    static int countActiveWithPriority(Data d, String scope, int priority) {
      int n = 0;
      for (MemoryEntry e : d.byScope.getOrDefault(scope, new TreeMap<>()).values()) {
        if (e.isActive() && e.priority() == priority) {
          n++;
        }
      }
      return n;
    }

    static List<ScoredEntry> searchFullText(Data d, Collection<String> scopes, FullTextQuery query, int limit) {
      List<TextIndex> indexes = new ArrayList<>();
      for (String scope : new HashSet<>(scopes)) {
        TextIndex ix = d.text.get(scope);
        if (ix != null) {
          indexes.add(ix);
        }
      }
      Set<String> terms = new LinkedHashSet<>(query.terms());
      return TextIndex.search(indexes, terms, limit, versionId -> {
        MemoryEntry e = d.versions.get(versionId);
        if (e == null || !e.isActive()) {
          return null;
        }
        if (!query.topics().isEmpty() && e.topics().stream().noneMatch(query.topics()::contains)) {
          return null;
        }
        if (!query.types().isEmpty() && !query.types().contains(e.type())) {
          return null;
        }
        return e;
      });
    }

    static List<StoredVector> activeVectors(Data d, String scope, String profileId) {
      Map<String, List<StoredVector>> byVersion = d.vectors.getOrDefault(profileId, Map.of());
      List<StoredVector> out = new ArrayList<>();
      TreeMap<String, MemoryEntry> s = d.byScope.get(scope);
      if (s != null) {
        for (MemoryEntry e : s.values()) {
          if (e.isActive()) {
            out.addAll(byVersion.getOrDefault(e.versionId(), List.of()));
          }
        }
      }
      return out;
    }

    static int countActiveWithoutVectors(Data d, String scope, String profileId) {
      Map<String, List<StoredVector>> byVersion = d.vectors.getOrDefault(profileId, Map.of());
      int n = 0;
      TreeMap<String, MemoryEntry> s = d.byScope.get(scope);
      if (s != null) {
        for (MemoryEntry e : s.values()) {
          if (e.isActive() && !byVersion.containsKey(e.versionId())) {
            n++;
          }
        }
      }
      return n;
    }

    static SourceState sourceState(Data d, String scope) {
      return d.sourceStates.getOrDefault(scope, SourceState.EMPTY);
    }

    static Optional<CapturedSource> source(Data d, String scope, String sourceId) {
      Long position = d.sourceIds.getOrDefault(scope, Map.of()).get(sourceId);
      return position == null ? Optional.empty() : Optional.of(d.sources.get(scope).get(position));
    }

    static List<CapturedSource> sources(Data d, String scope, SourceFilter f) {
      TreeMap<Long, CapturedSource> all = d.sources.get(scope);
      List<CapturedSource> out = new ArrayList<>();
      if (all == null) {
        return out;
      }
      for (CapturedSource s : all.tailMap(f.afterPosition(), false).values()) {
        if ((f.sessionId() == null || f.sessionId().equals(s.sessionId()))
            && (f.from() == null || !s.occurredAt().isBefore(f.from()))
            && (f.to() == null || s.occurredAt().isBefore(f.to()))) {
          out.add(s);
          if (out.size() >= f.limit()) {
            break;
          }
        }
      }
      return out;
    }

    static List<String> scopes(Data d, String prefix, boolean recursive) {
      TreeSet<String> out = new TreeSet<>();
      for (String s : d.sourceStates.keySet()) {
        if (recursive ? Namespaces.isSelfOrAncestor(prefix, s) : s.equals(prefix)) {
          out.add(s);
        }
      }
      for (String s : d.byScope.keySet()) {
        if (recursive ? Namespaces.isSelfOrAncestor(prefix, s) : s.equals(prefix)) {
          out.add(s);
        }
      }
      for (String s : d.topics.keySet()) {
        if (recursive ? Namespaces.isSelfOrAncestor(prefix, s) : s.equals(prefix)) {
          out.add(s);
        }
      }
      return List.copyOf(out);
    }
  }

  /** A transaction: direct access to {@link Data} under the write lock, with an undo log. */
  private final class Tx implements StoreTransaction {
    private final String scope;
    final Deque<Runnable> undo = new ArrayDeque<>();
    boolean closed;

    Tx(String scope) {
      this.scope = scope;
    }

    void rollback() {
      while (!undo.isEmpty()) {
        undo.pop().run();
      }
    }

    private Data d() {
      if (closed) {
        throw new IllegalStateException("transaction on " + scope + " is closed");
      }
      return data;
    }

    @Override
    public String scope() {
      return scope;
    }

    @Override
    public void insertVersion(MemoryEntry v) {
      Data d = d();
      if (d.versions.containsKey(v.versionId())) {
        throw new IllegalStateException("version " + v.versionId() + " already exists");
      }
      if (v.isActive()) {
        requireUniqueActive(d, v);
      }
      d.versions.put(v.versionId(), v);
      d.entryVersions.computeIfAbsent(v.entryId(), k -> new TreeMap<>()).put(v.version(), v.versionId());
      d.byScope.computeIfAbsent(v.scope(), k -> new TreeMap<>()).put(v.versionId(), v);
      if (v.isActive()) {
        indexText(v);
      }
      undo.push(() -> {
        d.versions.remove(v.versionId());
        TreeMap<Integer, String> ids = d.entryVersions.get(v.entryId());
        ids.remove(v.version());
        if (ids.isEmpty()) {
          d.entryVersions.remove(v.entryId());
        }
        TreeMap<String, MemoryEntry> s = d.byScope.get(v.scope());
        s.remove(v.versionId());
        if (s.isEmpty()) {
          d.byScope.remove(v.scope());
        }
      });
    }

    @Override
    public void updateStatus(String versionId, EntryStatus status, @Nullable String supersededBy, Instant at) {
      Data d = d();
      MemoryEntry old = d.versions.get(versionId);
      if (old == null) {
        throw new IllegalStateException("version " + versionId + " does not exist");
      }
      MemoryEntry updated = old.withStatus(status, supersededBy, at);
      if (!old.isActive() && updated.isActive()) {
        requireUniqueActive(d, updated);
      }
      if (old.isActive() && !updated.isActive()) {
        unindexText(old);
      } else if (!old.isActive() && updated.isActive()) {
        indexText(updated);
      }
      d.versions.put(versionId, updated);
      d.byScope.get(old.scope()).put(versionId, updated);
      undo.push(() -> {
        d.versions.put(versionId, old);
        d.byScope.get(old.scope()).put(versionId, old);
      });
    }

    /**
     * Refuses a second active version with one path, or a second active path-less version with one
     * content hash, in a scope (the partial unique indexes of the SQL stores).
     */
    private static void requireUniqueActive(Data d, MemoryEntry v) {
      Map<String, TreeSet<String>> keys = d.activeKeys.getOrDefault(v.scope(), Map.of());
      String key = v.path() == null ? "h:" + v.contentHash() : "p:" + v.path();
      for (String id : keys.getOrDefault(key, new TreeSet<>())) {
        MemoryEntry holder = d.versions.get(id);
        if (!id.equals(v.versionId()) && (v.path() != null || holder.path() == null)) {
          throw new IllegalStateException("scope " + v.scope() + " already has active version " + id + " with "
              + (v.path() == null ? "content hash " + v.contentHash() : "path " + v.path()));
        }
      }
    }

    /** Adds an active version to the lookup keys and the full-text index of its scope. */
    private void indexText(MemoryEntry v) {
      Data d = d();
      Map<String, TreeSet<String>> keys = d.activeKeys.computeIfAbsent(v.scope(), k -> new HashMap<>());
      for (String key : Queries.keys(v)) {
        keys.computeIfAbsent(key, k -> new TreeSet<>()).add(v.versionId());
      }
      undo.push(() -> removeKeys(d, v));
      d.text.computeIfAbsent(v.scope(), k -> new TextIndex()).add(v);
      undo.push(() -> {
        TextIndex ix = d.text.get(v.scope());
        ix.remove(v);
        if (ix.isEmpty()) {
          d.text.remove(v.scope());
        }
      });
    }

    private void removeKeys(Data d, MemoryEntry v) {
      Map<String, TreeSet<String>> keys = d.activeKeys.get(v.scope());
      if (keys == null) {
        return;
      }
      for (String key : Queries.keys(v)) {
        TreeSet<String> ids = keys.get(key);
        if (ids != null) {
          ids.remove(v.versionId());
          if (ids.isEmpty()) {
            keys.remove(key);
          }
        }
      }
      if (keys.isEmpty()) {
        d.activeKeys.remove(v.scope());
      }
    }

    /** Removes an active version from the lookup keys and the full-text index of its scope. */
    private void unindexText(MemoryEntry v) {
      Data d = d();
      removeKeys(d, v);
      undo.push(() -> {
        Map<String, TreeSet<String>> keys = d.activeKeys.computeIfAbsent(v.scope(), k -> new HashMap<>());
        for (String key : Queries.keys(v)) {
          keys.computeIfAbsent(key, k -> new TreeSet<>()).add(v.versionId());
        }
      });
      TextIndex ix = d.text.get(v.scope());
      if (ix == null) {
        return;
      }
      ix.remove(v);
      if (ix.isEmpty()) {
        d.text.remove(v.scope());
      }
      undo.push(() -> d.text.computeIfAbsent(v.scope(), k -> new TextIndex()).add(v));
    }

    @Override
    public void putVectors(String profileId, List<StoredVector> vectors) {
      Data d = d();
      Map<String, List<StoredVector>> grouped = new LinkedHashMap<>();
      for (StoredVector v : vectors) {
        if (!d.versions.containsKey(v.versionId())) {
          throw new IllegalStateException("version " + v.versionId() + " does not exist");
        }
        grouped.computeIfAbsent(v.versionId(), k -> new ArrayList<>()).add(v);
      }
      Map<String, List<StoredVector>> byVersion = d.vectors.computeIfAbsent(profileId, k -> new HashMap<>());
      for (Map.Entry<String, List<StoredVector>> g : grouped.entrySet()) {
        List<StoredVector> previous = byVersion.put(g.getKey(), List.copyOf(g.getValue()));
        undo.push(() -> {
          if (previous == null) {
            byVersion.remove(g.getKey());
          } else {
            byVersion.put(g.getKey(), previous);
          }
        });
      }
    }

    private void eraseVectors(String versionId) {
      Data d = d();
      for (Map<String, List<StoredVector>> byVersion : d.vectors.values()) {
        List<StoredVector> previous = byVersion.remove(versionId);
        if (previous != null) {
          undo.push(() -> byVersion.put(versionId, previous));
        }
      }
    }

    @Override
    public void appendEvent(MemoryEvent e) {
      Data d = d();
      if (d.events.containsKey(e.eventId())) {
        throw new IllegalStateException("event " + e.eventId() + " already exists");
      }
      d.events.put(e.eventId(), e);
      d.entryEvents.computeIfAbsent(e.entryId(), k -> new ArrayList<>()).add(e.eventId());
      undo.push(() -> {
        d.events.remove(e.eventId());
        List<String> ids = d.entryEvents.get(e.entryId());
        ids.remove(e.eventId());
        if (ids.isEmpty()) {
          d.entryEvents.remove(e.entryId());
        }
      });
    }

    @Override
    public void appendRevision(Revision r) {
      Data d = d();
      if (!r.scope().equals(scope)) {
        throw new IllegalStateException("revision for " + r.scope() + " in a transaction on " + scope);
      }
      long head = d.heads.getOrDefault(scope, 0L);
      if (r.revision() != head + 1) {
        throw new IllegalStateException("revision " + r.revision() + " does not follow head " + head + " of " + scope);
      }
      d.heads.put(scope, r.revision());
      d.revisions.computeIfAbsent(scope, k -> new ArrayList<>()).add(r);
      undo.push(() -> {
        List<Revision> list = d.revisions.get(scope);
        list.remove(list.size() - 1);
        if (head == 0) {
          d.heads.remove(scope);
        } else {
          d.heads.put(scope, head);
        }
      });
    }

    @Override
    public void markTopicsWritten(String topicScope, Collection<String> topics, long revision, Instant at) {
      for (String topic : topics) {
        TopicRow row = row(topicScope, topic);
        row.lastWrite = Math.max(row.lastWrite, revision);
        row.lastUpdatedAt = at;
      }
    }

    @Override
    public void markTopicCurated(String topicScope, String topic, long revision, @Nullable String blurb) {
      TopicRow row = row(topicScope, topic);
      row.lastCurated = Math.max(row.lastCurated, revision);
      if (blurb != null) {
        row.blurb = blurb;
      }
    }

    /** The row, created if missing, with its prior state pushed to the undo log. */
    private TopicRow row(String topicScope, String topic) {
      Data d = d();
      TreeMap<String, TopicRow> rows = d.topics.computeIfAbsent(topicScope, k -> new TreeMap<>());
      TopicRow existing = rows.get(topic);
      if (existing == null) {
        TopicRow created = new TopicRow();
        rows.put(topic, created);
        undo.push(() -> {
          rows.remove(topic);
          if (rows.isEmpty()) {
            d.topics.remove(topicScope);
          }
        });
        return created;
      }
      TopicRow before = existing.copy();
      undo.push(() -> rows.put(topic, before));
      TopicRow live = existing.copy();
      rows.put(topic, live);
      return live;
    }

    @Override
    public int eraseEntry(String entryId) {
      Data d = d();
      List<MemoryEntry> versions = Queries.versions(d, entryId);
      if (versions.isEmpty()) {
        return 0;
      }
      String entryScope = versions.get(0).scope();
      Map<String, MemoryEntry> savedVersions = new HashMap<>();
      for (MemoryEntry v : versions) {
        if (v.isActive()) {
          unindexText(v);
        }
        eraseVectors(v.versionId());
        savedVersions.put(v.versionId(), v);
        d.versions.remove(v.versionId());
        d.byScope.get(v.scope()).remove(v.versionId());
      }
      TreeMap<Integer, String> savedIds = d.entryVersions.remove(entryId);
      List<String> savedEventIds = d.entryEvents.remove(entryId);
      Map<String, MemoryEvent> savedEvents = new HashMap<>();
      if (savedEventIds != null) {
        for (String id : savedEventIds) {
          savedEvents.put(id, d.events.remove(id));
        }
      }
      TreeMap<String, MemoryEntry> scopeMap = d.byScope.get(entryScope);
      boolean scopeEmptied = scopeMap != null && scopeMap.isEmpty();
      if (scopeEmptied) {
        d.byScope.remove(entryScope);
      }
      Set<String> stillCarried = new HashSet<>();
      if (scopeMap != null) {
        for (MemoryEntry e : scopeMap.values()) {
          stillCarried.addAll(e.topics());
        }
      }
      TreeMap<String, TopicRow> rows = d.topics.get(entryScope);
      Map<String, TopicRow> removedRows = new HashMap<>();
      if (rows != null) {
        for (MemoryEntry v : versions) {
          for (String t : v.topics()) {
            if (!stillCarried.contains(t) && rows.containsKey(t)) {
              removedRows.put(t, rows.remove(t));
            }
          }
        }
        if (rows.isEmpty()) {
          d.topics.remove(entryScope);
        }
      }
      undo.push(() -> {
        if (rows != null) {
          d.topics.putIfAbsent(entryScope, rows);
          rows.putAll(removedRows);
        }
        if (scopeEmptied) {
          d.byScope.put(entryScope, scopeMap);
        }
        d.events.putAll(savedEvents);
        if (savedEventIds != null) {
          d.entryEvents.put(entryId, savedEventIds);
        }
        d.entryVersions.put(entryId, savedIds);
        for (MemoryEntry v : savedVersions.values()) {
          d.versions.put(v.versionId(), v);
          d.byScope.computeIfAbsent(v.scope(), k -> new TreeMap<>()).put(v.versionId(), v);
        }
      });
      return versions.size();
    }

    @Override
    public int eraseScopeContent() {
      Data d = d();
      TreeMap<String, MemoryEntry> scopeMap = d.byScope.get(scope);
      Set<String> entryIds = new TreeSet<>();
      if (scopeMap != null) {
        for (MemoryEntry e : new ArrayList<>(scopeMap.values())) {
          entryIds.add(e.entryId());
        }
      }
      for (String id : entryIds) {
        eraseEntry(id);
      }
      TreeMap<String, TopicRow> rows = d.topics.remove(scope);
      if (rows != null) {
        undo.push(() -> d.topics.put(scope, rows));
      }
      eraseSources();
      return entryIds.size();
    }

    @Override
    public void insertSource(CapturedSource source) {
      Data d = d();
      if (!source.scope().equals(scope)) {
        throw new IllegalStateException("source of " + source.scope() + " in a transaction on " + scope);
      }
      SourceState before = d.sourceStates.get(scope);
      SourceState state = before == null ? SourceState.EMPTY : before;
      if (source.position() <= state.lastPosition()) {
        throw new IllegalStateException("source position " + source.position() + " does not follow "
            + state.lastPosition() + " in " + scope);
      }
      Map<String, Long> ids = d.sourceIds.computeIfAbsent(scope, k -> new HashMap<>());
      if (ids.containsKey(source.id())) {
        throw new IllegalStateException("source " + source.id() + " already exists in " + scope);
      }
      ids.put(source.id(), source.position());
      d.sources.computeIfAbsent(scope, k -> new TreeMap<>()).put(source.position(), source);
      d.sourceStates.put(scope, new SourceState(source.position(), state.cursor()));
      undo.push(() -> {
        ids.remove(source.id());
        if (ids.isEmpty()) {
          d.sourceIds.remove(scope);
        }
        TreeMap<Long, CapturedSource> all = d.sources.get(scope);
        all.remove(source.position());
        if (all.isEmpty()) {
          d.sources.remove(scope);
        }
        restoreState(d, before);
      });
    }

    private void restoreState(Data d, @Nullable SourceState before) {
      if (before == null) {
        d.sourceStates.remove(scope);
      } else {
        d.sourceStates.put(scope, before);
      }
    }

    @Override
    public void advanceSourceCursor(long position) {
      Data d = d();
      SourceState before = d.sourceStates.get(scope);
      SourceState state = before == null ? SourceState.EMPTY : before;
      if (position < state.cursor() || position > state.lastPosition()) {
        throw new IllegalStateException("cursor " + position + " outside " + state.cursor() + ".."
            + state.lastPosition() + " in " + scope);
      }
      d.sourceStates.put(scope, new SourceState(state.lastPosition(), position));
      undo.push(() -> restoreState(d, before));
    }

    @Override
    public void restoreSourceState(SourceState state) {
      Data d = d();
      SourceState before = d.sourceStates.get(scope);
      long last = before == null ? 0 : before.lastPosition();
      if (state.lastPosition() < last) {
        throw new IllegalStateException("last position " + state.lastPosition() + " is below " + last + " in " + scope);
      }
      d.sourceStates.put(scope, state);
      undo.push(() -> restoreState(d, before));
    }

    @Override
    public boolean eraseSource(String sourceId) {
      Data d = d();
      Map<String, Long> ids = d.sourceIds.get(scope);
      Long position = ids == null ? null : ids.remove(sourceId);
      if (position == null) {
        return false;
      }
      if (ids.isEmpty()) {
        d.sourceIds.remove(scope);
      }
      TreeMap<Long, CapturedSource> all = d.sources.get(scope);
      CapturedSource removed = all.remove(position);
      if (all.isEmpty()) {
        d.sources.remove(scope);
      }
      undo.push(() -> {
        d.sourceIds.computeIfAbsent(scope, k -> new HashMap<>()).put(sourceId, position);
        d.sources.computeIfAbsent(scope, k -> new TreeMap<>()).put(position, removed);
      });
      return true;
    }

    private void eraseSources() {
      Data d = d();
      TreeMap<Long, CapturedSource> all = d.sources.remove(scope);
      Map<String, Long> ids = d.sourceIds.remove(scope);
      SourceState state = d.sourceStates.remove(scope);
      undo.push(() -> {
        if (all != null) {
          d.sources.put(scope, all);
        }
        if (ids != null) {
          d.sourceIds.put(scope, ids);
        }
        if (state != null) {
          d.sourceStates.put(scope, state);
        }
      });
    }

    // reads inside the transaction see its own writes

    @Override
    public SourceState sourceState(String s) {
      return Queries.sourceState(d(), s);
    }

    @Override
    public Optional<CapturedSource> source(String s, String sourceId) {
      return Queries.source(d(), s, sourceId);
    }

    @Override
    public List<CapturedSource> sources(String s, SourceFilter filter) {
      return Queries.sources(d(), s, filter);
    }

    @Override
    public long headRevision(String s) {
      return Queries.headRevision(d(), s);
    }

    @Override
    public Optional<MemoryEntry> version(String versionId) {
      return Optional.ofNullable(d().versions.get(versionId));
    }

    @Override
    public List<MemoryEntry> versions(String entryId) {
      return Queries.versions(d(), entryId);
    }

    @Override
    public Optional<MemoryEntry> findActiveByHash(String s, String contentHash) {
      return Queries.findActive(d(), s, "h:" + contentHash);
    }

    @Override
    public Optional<MemoryEntry> findActiveByPath(String s, String path) {
      return Queries.findActive(d(), s, "p:" + path);
    }

    @Override
    public List<MemoryEntry> activeByTopic(Collection<String> scopes, String topic, int limit) {
      return Queries.activeByTopic(d(), scopes, topic, limit);
    }

    @Override
    public List<MemoryEntry> versionsIn(Collection<String> scopes, Set<EntryStatus> statuses) {
      return Queries.versionsIn(d(), scopes, statuses);
    }

    @Override
    public List<MemoryEvent> events(String entryId) {
      return Queries.events(d(), entryId);
    }

    @Override
    public Optional<MemoryEvent> event(String eventId) {
      return Optional.ofNullable(d().events.get(eventId));
    }

    @Override
    public List<Revision> revisions(String s, long sinceExclusive, int limit) {
      return Queries.revisions(d(), s, sinceExclusive, limit);
    }

    @Override
    public List<TopicState> topics(Collection<String> scopes) {
      return Queries.topics(d(), scopes);
    }

    @Override
    public List<TopicState> dirtyTopics(int limit) {
      return Queries.dirtyTopics(d(), limit);
    }

    @Override
    public int countActiveWithPriority(String namespace, int priority) {
      return Queries.countActiveWithPriority(d(), namespace, priority);
    }

    @Override
    public List<String> scopes(String prefix, boolean recursive) {
      return Queries.scopes(d(), prefix, recursive);
    }

    @Override
    public List<ScoredEntry> searchFullText(Collection<String> scopes, FullTextQuery query, int limit) {
      return Queries.searchFullText(d(), scopes, query, limit);
    }

    @Override
    public List<StoredVector> activeVectors(String s, String profileId) {
      return Queries.activeVectors(d(), s, profileId);
    }

    @Override
    public int countActiveWithoutVectors(String s, String profileId) {
      return Queries.countActiveWithoutVectors(d(), s, profileId);
    }
  }

}
