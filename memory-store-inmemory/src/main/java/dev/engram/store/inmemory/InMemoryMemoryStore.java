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
import dev.engram.spi.WorkClaim;
import java.time.Duration;
import java.util.UUID;
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
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The reference store: everything in memory, guarded by one read/write lock. Transactions are
 * serialized and roll back through an undo log when their work throws. Thread-safe; nothing survives
 * the process. One job, the SPI's writes over the maps (reads are {@link InMemoryReads}'): its length is one
 * method per SPI write, each with its undo entry.
 */
public final class InMemoryMemoryStore extends InMemoryReads implements MemoryStore {
  private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
  private final Data data = new Data();
  /** The work claims by kind, scope and topic; guarded by itself. */
  private final Map<String, WorkClaim> claims = new HashMap<>();

  private volatile boolean closed;
  /** The innermost running transaction; only touched by the thread holding the write lock. */
  private @Nullable Tx active;

  @Override
  public Set<StoreCapability> capabilities() {
    return EnumSet.of(StoreCapability.FULL_TEXT_SEARCH, StoreCapability.VECTOR_STORAGE, StoreCapability.SOURCES,
        StoreCapability.RETRIEVAL_KEYS, StoreCapability.REVIEW, StoreCapability.WORK_CLAIMS,
        StoreCapability.REPLACE_SCOPE, StoreCapability.MODEL_USAGE);
  }

  /**
   * Claims dirty topics of {@code scopes} among the claimers of this store object (one process; leases on
   * the system clock).
   */
  @Override
  public List<WorkClaim> claimDirtyTopics(String workerId, Collection<String> scopes, int limit, Duration lease) {
    List<String> checked = WorkClaim.checkClaim(workerId, scopes, limit, lease);
    List<TopicState> dirty = new ArrayList<>();
    for (TopicState t : topics(checked)) {
      if (t.dirty() && checked.contains(t.scope())) {
        dirty.add(t);
      }
    }
    dirty.sort(java.util.Comparator.comparing(TopicState::scope).thenComparing(TopicState::topic));
    List<WorkClaim> out = new ArrayList<>();
    synchronized (claims) {
      Instant now = Instant.now();
      String token = UUID.randomUUID().toString();
      for (TopicState t : dirty) {
        if (out.size() == limit) {
          break;
        }
        WorkClaim c = new WorkClaim(WorkClaim.Kind.DIRTY_TOPIC, t.scope(), t.topic(), workerId, token, now.plus(lease));
        if (take(c, now)) {
          out.add(c);
        }
      }
    }
    return List.copyOf(out);
  }

  /** Claims scopes of {@code scopes} with pending sources, as {@link #claimDirtyTopics} claims topics. */
  @Override
  public List<WorkClaim> claimPendingSources(String workerId, Collection<String> scopes, int limit, Duration lease) {
    List<String> checked = WorkClaim.checkClaim(workerId, scopes, limit, lease);
    List<String> pending = new ArrayList<>();
    for (String scope : checked) {
      if (sourceState(scope).pending()) {
        pending.add(scope);
      }
    }
    List<WorkClaim> out = new ArrayList<>();
    synchronized (claims) {
      Instant now = Instant.now();
      String token = UUID.randomUUID().toString();
      for (String scope : pending) {
        if (out.size() == limit) {
          break;
        }
        WorkClaim c = new WorkClaim(WorkClaim.Kind.PENDING_SOURCES, scope, null, workerId, token, now.plus(lease));
        if (take(c, now)) {
          out.add(c);
        }
      }
    }
    return List.copyOf(out);
  }

  @Override
  public boolean releaseClaim(WorkClaim claim) {
    java.util.Objects.requireNonNull(claim, "claim");
    checkOpen();
    synchronized (claims) {
      WorkClaim held = claims.get(claimKey(claim));
      if (held == null || !held.token().equals(claim.token())) {
        return false;
      }
      claims.remove(claimKey(claim));
      return true;
    }
  }

  /** Records {@code c} unless another claim on its item is still leased; the caller holds {@link #claims}. */
  private boolean take(WorkClaim c, Instant now) {
    String key = claimKey(c);
    WorkClaim held = claims.get(key);
    if (held != null && held.claimedUntil().isAfter(now)) {
      return false;
    }
    claims.put(key, c);
    return true;
  }

  private static String claimKey(WorkClaim c) {
    return c.kind() + "\u0000" + c.scope() + "\u0000" + (c.topic() == null ? "" : c.topic());
  }

  /**
   * Runs {@code work} under the write lock. Called from inside a transaction on the same thread it runs
   * as a nested unit of that transaction: its undo log joins the outer one when it returns, and is
   * played back at once when it throws.
   *
   * @param <T> what the work returns
   * @param scope the scope the transaction may write
   * @param work the work to run
   * @return what the work returned
   * @throws NullPointerException if {@code scope} or {@code work} is null
   * @throws dev.engram.StoreException ({@code STORE_CLOSED}) when the store was closed
   */
  @Override
  public <T> T inTransaction(String scope, StoreWork<T> work) {
    java.util.Objects.requireNonNull(scope, "scope");
    java.util.Objects.requireNonNull(work, "work");
    checkOpen();
    lock.writeLock().lock();
    Tx outer = active;
    Tx tx = new Tx(scope);
    active = tx;
    try {
      T result = work.run(tx);
      if (outer != null) {
        for (Iterator<Runnable> it = tx.undo.descendingIterator(); it.hasNext(); ) {
          outer.undo.push(it.next());
        }
      }
      tx.undo.clear();
      return result;
    } catch (RuntimeException | Error e) {
      tx.rollback();
      throw e;
    } finally {
      tx.closed = true;
      active = outer;
      lock.writeLock().unlock();
    }
  }

  @Override
  public List<String> vectorProfiles() {
    return read(d -> d.vectors.entrySet().stream()
        .filter(e -> e.getValue().values().stream().anyMatch(v -> !v.isEmpty()))
        .map(Map.Entry::getKey).sorted().toList());
  }

  @Override
  public void close() {
    closed = true;
  }

  /**
   * What this store holds that mentions {@code needle}: each entry of its maps (versions, events,
   * revisions, topic rows, lookup keys, vectors, sources, the full-text terms) whose rendering contains
   * it, as {@code "<map>: <entry>"}. The TCK's erasure layer uses it to check that erasure leaves no trace.
   */
  List<String> rowsMentioning(String needle) {
    java.util.Objects.requireNonNull(needle, "needle");
    return read(d -> d.rowsMentioning(needle));
  }

  private void checkOpen() {
    if (closed) {
      throw StoreException.closed("InMemoryMemoryStore is closed");
    }
  }

  @Override
  <T> T read(Function<Data, T> query) {
    checkOpen();
    lock.readLock().lock();
    try {
      return query.apply(data);
    } finally {
      lock.readLock().unlock();
    }
  }

  /** A transaction: direct access to {@link Data} under the write lock, with an undo log. */
  private final class Tx extends InMemoryReads implements StoreTransaction {
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

    /** Refuses a write for another scope than the one this transaction is bound to. */
    private void requireScope(String written, String what) {
      if (!written.equals(scope)) {
        throw new IllegalStateException(what + " of scope " + written + " in a transaction on " + scope);
      }
    }

    @Override
    public void insertVersion(MemoryEntry v) {
      Data d = d();
      requireScope(v.scope(), "version " + v.versionId());
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
      requireScope(old.scope(), "status change of version " + versionId);
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

    /** Adds an active version to the per-topic index of its scope (newest first reads, active counts). */
    private void indexTopics(Data d, MemoryEntry v) {
      for (String topic : v.topics()) {
        d.activeTopics.computeIfAbsent(v.scope(), k -> new HashMap<>())
            .computeIfAbsent(topic, k -> new TreeSet<>()).add(v.versionId());
      }
      undo.push(() -> removeTopics(d, v));
    }

    private void unindexTopics(Data d, MemoryEntry v) {
      removeTopics(d, v);
      undo.push(() -> {
        for (String topic : v.topics()) {
          d.activeTopics.computeIfAbsent(v.scope(), k -> new HashMap<>())
              .computeIfAbsent(topic, k -> new TreeSet<>()).add(v.versionId());
        }
      });
    }

    private static void removeTopics(Data d, MemoryEntry v) {
      Map<String, TreeSet<String>> byTopic = d.activeTopics.get(v.scope());
      if (byTopic == null) {
        return;
      }
      for (String topic : v.topics()) {
        TreeSet<String> ids = byTopic.get(topic);
        if (ids != null && ids.remove(v.versionId()) && ids.isEmpty()) {
          byTopic.remove(topic);
        }
      }
      if (byTopic.isEmpty()) {
        d.activeTopics.remove(v.scope());
      }
    }

    /** Adds an active version to the lookup keys and the full-text index of its scope. */
    private void indexText(MemoryEntry v) {
      Data d = d();
      indexTopics(d, v);
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
      indexKeys(d, v.scope(), v.versionId());
    }

    /** Adds the retrieval keys of an active version (if it has any) to its scope's key index. */
    private void indexKeys(Data d, String versionScope, String versionId) {
      List<String> keys = d.keys.get(versionId);
      if (keys == null) {
        return;
      }
      List<String> terms = Queries.keyTerms(keys);
      d.keyText.computeIfAbsent(versionScope, k -> new TextIndex()).add(versionId, terms);
      undo.push(() -> removeKeyText(d, versionScope, versionId, terms));
    }

    private static void removeKeyText(Data d, String versionScope, String versionId, List<String> terms) {
      TextIndex ix = d.keyText.get(versionScope);
      if (ix != null) {
        ix.remove(versionId, terms);
        if (ix.isEmpty()) {
          d.keyText.remove(versionScope);
        }
      }
    }

    /** Removes the retrieval keys of a version that stops being active from its scope's key index. */
    private void unindexKeys(Data d, String versionScope, String versionId) {
      List<String> keys = d.keys.get(versionId);
      if (keys == null) {
        return;
      }
      List<String> terms = Queries.keyTerms(keys);
      removeKeyText(d, versionScope, versionId, terms);
      undo.push(() -> d.keyText.computeIfAbsent(versionScope, k -> new TextIndex()).add(versionId, terms));
    }

    @Override
    public void putKeys(String versionId, List<String> keys) {
      Data d = d();
      MemoryEntry owner = d.versions.get(versionId);
      if (owner == null) {
        throw new IllegalStateException("version " + versionId + " does not exist");
      }
      requireScope(owner.scope(), "retrieval keys of version " + versionId);
      if (d.keys.containsKey(versionId)) {
        throw new IllegalStateException("version " + versionId + " already has retrieval keys");
      }
      for (String k : keys) {
        if (k == null || k.isBlank()) {
          throw new IllegalStateException("a retrieval key of version " + versionId + " is blank");
        }
      }
      if (keys.isEmpty()) {
        return;
      }
      d.keys.put(versionId, List.copyOf(keys));
      undo.push(() -> d.keys.remove(versionId));
      if (owner.isActive()) {
        indexKeys(d, owner.scope(), versionId);
      }
    }

    private void eraseKeys(Data d, String versionId) {
      List<String> previous = d.keys.remove(versionId);
      if (previous != null) {
        undo.push(() -> d.keys.put(versionId, previous));
      }
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
      unindexTopics(d, v);
      unindexKeys(d, v.scope(), v.versionId());
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
        MemoryEntry owner = d.versions.get(v.versionId());
        if (owner == null) {
          throw new IllegalStateException("version " + v.versionId() + " does not exist");
        }
        requireScope(owner.scope(), "vectors of version " + v.versionId());
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
      requireScope(e.scope(), "event " + e.eventId());
      if (d.events.containsKey(e.eventId())) {
        throw new IllegalStateException("event " + e.eventId() + " already exists");
      }
      d.events.put(e.eventId(), e);
      EventPosition position = new EventPosition(e.revision(), e.eventId());
      d.entryEvents.computeIfAbsent(e.entryId(), k -> new TreeMap<>()).put(position, e.eventId());
      undo.push(() -> {
        d.events.remove(e.eventId());
        TreeMap<EventPosition, String> ids = d.entryEvents.get(e.entryId());
        ids.remove(position);
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
      d();
      requireScope(topicScope, "topic rows");
      for (String topic : topics) {
        TopicRow row = row(topicScope, topic);
        row.lastWrite = Math.max(row.lastWrite, revision);
        row.lastUpdatedAt = at;
      }
    }

    @Override
    public void markTopicCurated(String topicScope, String topic, long revision, @Nullable String blurb) {
      d();
      requireScope(topicScope, "topic row " + topic);
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
      requireScope(entryScope, "erasure of entry " + entryId);
      Map<String, MemoryEntry> savedVersions = new HashMap<>();
      for (MemoryEntry v : versions) {
        if (v.isActive()) {
          unindexText(v);
        }
        eraseVectors(v.versionId());
        eraseKeys(d, v.versionId());
        savedVersions.put(v.versionId(), v);
        d.versions.remove(v.versionId());
        d.byScope.get(v.scope()).remove(v.versionId());
      }
      TreeMap<Integer, String> savedIds = d.entryVersions.remove(entryId);
      TreeMap<EventPosition, String> savedEventIds = d.entryEvents.remove(entryId);
      Map<String, MemoryEvent> savedEvents = new HashMap<>();
      if (savedEventIds != null) {
        for (String id : savedEventIds.values()) {
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
    public int eraseScope() {
      int removed = eraseScopeContent();
      Data d = d();
      List<Revision> revisions = d.revisions.remove(scope);
      Long head = d.heads.remove(scope);
      undo.push(() -> {
        if (revisions != null) {
          d.revisions.put(scope, revisions);
        } else {
          d.revisions.remove(scope);
        }
        if (head != null) {
          d.heads.put(scope, head);
        } else {
          d.heads.remove(scope);
        }
      });
      return removed;
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
      for (String experienceId : new TreeSet<>(scopeExperience(d))) {
        eraseExperience(experienceId);
      }
      for (dev.engram.ReviewItem item : new ArrayList<>(d.reviewItems.values())) {
        if (item.scope().equals(scope)) {
          eraseReviewItem(item.id());
        }
      }
      Long incubated = d.incubation.remove(scope);
      if (incubated != null) {
        undo.push(() -> d.incubation.put(scope, incubated));
      }
      TreeMap<UsageKey, dev.engram.ModelUsageRow> usage = d.usage.remove(scope);
      if (usage != null) {
        undo.push(() -> d.usage.put(scope, usage));
      }
      return entryIds.size();
    }

    private Set<String> scopeExperience(Data d) {
      Set<String> ids = new HashSet<>();
      for (dev.engram.Experience e : d.experience.values()) {
        if (e.scope().equals(scope)) {
          ids.add(e.experienceId());
        }
      }
      return ids;
    }

    // ---- model usage

    @Override
    public void addModelUsage(List<dev.engram.ModelUsageRow> rows) {
      Data d = d();
      java.util.Objects.requireNonNull(rows, "rows");
      for (dev.engram.ModelUsageRow r : rows) {
        requireScope(java.util.Objects.requireNonNull(r, "row").scope(), "model usage");
      }
      for (dev.engram.ModelUsageRow r : rows) {
        TreeMap<UsageKey, dev.engram.ModelUsageRow> held = d.usage.get(scope);
        boolean created = held == null;
        if (created) {
          held = new TreeMap<>();
          d.usage.put(scope, held);
        }
        UsageKey key = UsageKey.of(r);
        dev.engram.ModelUsageRow before = held.get(key);
        held.put(key, before == null ? r : new dev.engram.ModelUsageRow(scope, r.day(), r.provider(), r.model(),
            r.job(), before.calls() + r.calls(), before.inputTokens() + r.inputTokens(),
            before.outputTokens() + r.outputTokens(), before.failures() + r.failures()));
        TreeMap<UsageKey, dev.engram.ModelUsageRow> map = held;
        undo.push(() -> {
          if (before == null) {
            map.remove(key);
          } else {
            map.put(key, before);
          }
          if (created) {
            d.usage.remove(scope);
          }
        });
      }
    }

    // ---- experience and review items

    @Override
    public void insertExperience(dev.engram.Experience v) {
      Data d = d();
      requireScope(v.scope(), "experience version " + v.versionId());
      if (d.experience.containsKey(v.versionId())) {
        throw new IllegalStateException("experience version " + v.versionId() + " already exists");
      }
      TreeMap<Integer, String> chain = d.experienceVersions.get(v.experienceId());
      if (chain != null) {
        if (chain.containsKey(v.version())) {
          throw new IllegalStateException("experience " + v.experienceId() + " already has version " + v.version());
        }
        String other = d.experience.get(chain.firstEntry().getValue()).scope();
        requireScope(other, "experience " + v.experienceId());
        if (v.isActive()) {
          requireNoOtherActive(d, v.experienceId(), v.versionId());
        }
      }
      d.experience.put(v.versionId(), v);
      boolean created = chain == null;
      d.experienceVersions.computeIfAbsent(v.experienceId(), k -> new TreeMap<>()).put(v.version(), v.versionId());
      undo.push(() -> {
        d.experience.remove(v.versionId());
        if (created) {
          d.experienceVersions.remove(v.experienceId());
        } else {
          d.experienceVersions.get(v.experienceId()).remove(v.version());
        }
      });
      if (v.isActive()) {
        indexExperience(d, v);
      }
    }

    private void requireNoOtherActive(Data d, String experienceId, String versionId) {
      for (String id : d.experienceVersions.getOrDefault(experienceId, new TreeMap<>()).values()) {
        if (!id.equals(versionId) && d.experience.get(id).isActive()) {
          throw new IllegalStateException("experience " + experienceId + " already has active version " + id);
        }
      }
    }

    private void indexExperience(Data d, dev.engram.Experience v) {
      d.experienceText.put(v.versionId(), dev.engram.spi.TextAnalysis.terms(v.text()));
      undo.push(() -> d.experienceText.remove(v.versionId()));
    }

    private void unindexExperience(Data d, String versionId) {
      List<String> terms = d.experienceText.remove(versionId);
      if (terms != null) {
        undo.push(() -> d.experienceText.put(versionId, terms));
      }
    }

    @Override
    public void updateExperienceStatus(String versionId, dev.engram.ExperienceStatus status, Instant at) {
      Data d = d();
      dev.engram.Experience old = d.experience.get(versionId);
      if (old == null) {
        throw new IllegalStateException("experience version " + versionId + " does not exist");
      }
      requireScope(old.scope(), "status change of experience version " + versionId);
      dev.engram.Experience updated = old.withStatus(status, at);
      if (!old.isActive() && updated.isActive()) {
        requireNoOtherActive(d, old.experienceId(), versionId);
      }
      d.experience.put(versionId, updated);
      undo.push(() -> d.experience.put(versionId, old));
      if (old.isActive() && !updated.isActive()) {
        unindexExperience(d, versionId);
      } else if (!old.isActive() && updated.isActive()) {
        indexExperience(d, updated);
      }
    }

    @Override
    public int eraseExperience(String experienceId) {
      Data d = d();
      TreeMap<Integer, String> chain = d.experienceVersions.get(experienceId);
      if (chain == null) {
        return 0;
      }
      requireScope(d.experience.get(chain.firstEntry().getValue()).scope(), "erasure of experience " + experienceId);
      for (String id : chain.values()) {
        unindexExperience(d, id);
        dev.engram.Experience removed = d.experience.remove(id);
        undo.push(() -> d.experience.put(id, removed));
      }
      d.experienceVersions.remove(experienceId);
      undo.push(() -> d.experienceVersions.put(experienceId, chain));
      return chain.size();
    }

    @Override
    public void putReviewItem(dev.engram.ReviewItem item) {
      Data d = d();
      requireScope(item.scope(), "review item " + item.id());
      dev.engram.ReviewItem held = d.reviewItems.get(item.id());
      if (held != null) {
        if (!held.scope().equals(item.scope()) || held.kind() != item.kind()) {
          throw new IllegalStateException("review item " + item.id() + " is a " + held.kind() + " item of "
              + held.scope());
        }
        if (item.version() != held.version() + 1) {
          throw new IllegalStateException("review item " + item.id() + " is at version " + held.version()
              + "; its next version is " + (held.version() + 1) + ", not " + item.version());
        }
      }
      d.reviewItems.put(item.id(), item);
      undo.push(() -> {
        if (held == null) {
          d.reviewItems.remove(item.id());
        } else {
          d.reviewItems.put(item.id(), held);
        }
      });
    }

    @Override
    public boolean eraseReviewItem(String itemId) {
      Data d = d();
      dev.engram.ReviewItem held = d.reviewItems.get(itemId);
      if (held == null) {
        return false;
      }
      requireScope(held.scope(), "erasure of review item " + itemId);
      d.reviewItems.remove(itemId);
      undo.push(() -> d.reviewItems.put(itemId, held));
      return true;
    }

    @Override
    public void advanceIncubationCursor(long position) {
      Data d = d();
      SourceState state = d.sourceStates.getOrDefault(scope, SourceState.EMPTY);
      Long before = d.incubation.get(scope);
      long cursor = before == null ? 0 : before;
      if (position < cursor || position > state.lastPosition()) {
        throw new IllegalStateException("incubation cursor " + position + " outside " + cursor + ".."
            + state.lastPosition() + " in " + scope);
      }
      d.incubation.put(scope, position);
      undo.push(() -> {
        if (before == null) {
          d.incubation.remove(scope);
        } else {
          d.incubation.put(scope, before);
        }
      });
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

    @Override
    <T> T read(Function<Data, T> query) {
      return query.apply(d());
    }

    @Override
    public void advanceVectorEpoch() {
      Data d = d();
      d.vectorEpoch++;
      undo.push(() -> d.vectorEpoch--);
    }
  }

}
