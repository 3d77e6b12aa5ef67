/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.tck;

import dev.engram.EntryStatus;
import dev.engram.MemoryEntry;
import dev.engram.MemoryEvent;
import dev.engram.Revision;
import dev.engram.StoreException;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.StoreCapability;
import dev.engram.spi.StoreTransaction;
import dev.engram.spi.TopicState;
import java.time.Instant;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;

/**
 * Wraps a store and, when armed, makes one transaction fail in the middle: right after a chosen
 * write step has been applied to the real transaction, it throws a {@link StoreException}. The store
 * under test must then roll back everything that transaction already wrote (invariant 3).
 */
public final class FaultInjectingStore implements MemoryStore {

  /** The write steps of a {@link StoreTransaction}. */
  public enum Step {
    /** {@link StoreTransaction#insertVersion}. */
    INSERT_VERSION,
    /** {@link StoreTransaction#updateStatus}. */
    UPDATE_STATUS,
    /** {@link StoreTransaction#appendEvent}. */
    APPEND_EVENT,
    /** {@link StoreTransaction#appendRevision}. */
    APPEND_REVISION,
    /** {@link StoreTransaction#markTopicsWritten}. */
    MARK_TOPICS_WRITTEN,
    /** {@link StoreTransaction#markTopicCurated}. */
    MARK_TOPIC_CURATED,
    /** {@link StoreTransaction#eraseEntry}. */
    ERASE_ENTRY,
    /** {@link StoreTransaction#eraseScopeContent}. */
    ERASE_SCOPE_CONTENT,
    /** {@link StoreTransaction#eraseScope}. */
    ERASE_SCOPE,
    /** {@link StoreTransaction#insertSource}. */
    INSERT_SOURCE,
    /** {@link StoreTransaction#advanceSourceCursor}. */
    ADVANCE_SOURCE_CURSOR,
    /** {@link StoreTransaction#eraseSource}. */
    ERASE_SOURCE,
    /** {@link StoreTransaction#restoreSourceState}. */
    RESTORE_SOURCE_STATE
  }

  private final MemoryStore delegate;
  private final AtomicReference<@Nullable Step> armed = new AtomicReference<>();
  private final AtomicInteger injected = new AtomicInteger();
  private final AtomicInteger skip = new AtomicInteger();
  private final Set<StoreCapability> hidden = java.util.concurrent.ConcurrentHashMap.newKeySet();

  /**
   * A wrapper around {@code delegate}, unarmed.
   *
   * @param delegate the store under test; closing the wrapper closes it
   * @throws NullPointerException if {@code delegate} is null
   */
  public FaultInjectingStore(MemoryStore delegate) {
    this.delegate = Objects.requireNonNull(delegate, "delegate");
  }

  /**
   * Arms one fault: the next time {@code step} is applied inside a transaction, that transaction throws.
   *
   * @param step the step after which to fail
   * @throws NullPointerException if {@code step} is null
   */
  public void failAfter(Step step) {
    failAfter(step, 1);
  }

  /**
   * Arms one fault for the {@code occurrence}-th time {@code step} is applied from now on (1: the next time),
   * e.g. the third version a batch inserts.
   *
   * @param step the step after which to fail
   * @param occurrence which application of the step fails, from 1
   * @throws NullPointerException if {@code step} is null
   * @throws IllegalArgumentException if {@code occurrence} is below 1
   */
  public void failAfter(Step step, int occurrence) {
    Objects.requireNonNull(step, "step");
    if (occurrence < 1) {
      throw new IllegalArgumentException("occurrence must be >= 1, was " + occurrence);
    }
    skip.set(occurrence - 1);
    armed.set(step);
  }

  /**
   * Stops declaring {@code capability} from now on, as a store without it would (e.g. to see the engine
   * refuse what needs it with a typed error).
   *
   * @param capability the capability to leave out of {@link #capabilities()}
   * @throws NullPointerException if {@code capability} is null
   */
  public void hideCapability(StoreCapability capability) {
    hidden.add(Objects.requireNonNull(capability, "capability"));
  }

  /** @return whether an armed fault is still waiting for its step */
  public boolean armed() {
    return armed.get() != null;
  }

  /** @return how many faults were thrown so far */
  public int faultsInjected() {
    return injected.get();
  }

  /** @return the wrapped store, to inspect what it holds without faults */
  public MemoryStore delegate() {
    return delegate;
  }

  /**
   * The delegate's capabilities without the search ones, the review inbox, work claims and model usage: this wrapper
   * exercises the transactional core only, so the engine never routes index queries, review items, claims or
   * usage counters through it.
   */
  @Override
  public Set<StoreCapability> capabilities() {
    Set<StoreCapability> caps = EnumSet.noneOf(StoreCapability.class);
    caps.addAll(delegate.capabilities());
    caps.remove(StoreCapability.FULL_TEXT_SEARCH);
    caps.remove(StoreCapability.VECTOR_STORAGE);
    caps.remove(StoreCapability.RETRIEVAL_KEYS);
    caps.remove(StoreCapability.REVIEW);
    caps.remove(StoreCapability.WORK_CLAIMS);
    caps.remove(StoreCapability.MODEL_USAGE);
    caps.removeAll(hidden);
    return caps;
  }

  @Override
  public <T> T inTransaction(String scope, StoreWork<T> work) {
    return delegate.inTransaction(scope, tx -> work.run(new Tx(tx)));
  }

  @Override
  public void close() {
    delegate.close();
  }

  private void after(Step step) {
    if (armed.get() == step && skip.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      return;
    }
    if (armed.compareAndSet(step, null)) {
      injected.incrementAndGet();
      throw StoreException.unavailable("injected fault after " + step, null);
    }
  }

  @Override
  public long headRevision(String scope) {
    return delegate.headRevision(scope);
  }

  @Override
  public Optional<MemoryEntry> version(String versionId) {
    return delegate.version(versionId);
  }

  @Override
  public List<MemoryEntry> versions(String entryId) {
    return delegate.versions(entryId);
  }

  @Override
  public java.util.Optional<MemoryEntry> currentVersion(String entryId) {
    return delegate.currentVersion(entryId);
  }

  @Override
  public Optional<MemoryEntry> findActiveByHash(String scope, String contentHash) {
    return delegate.findActiveByHash(scope, contentHash);
  }

  @Override
  public Optional<MemoryEntry> findActiveByPath(String scope, String path) {
    return delegate.findActiveByPath(scope, path);
  }

  @Override
  public List<MemoryEntry> activeByTopic(Collection<String> scopes, String topic, int limit) {
    return delegate.activeByTopic(scopes, topic, limit);
  }

  @Override
  public List<MemoryEntry> versionsIn(Collection<String> scopes, Set<EntryStatus> statuses) {
    return delegate.versionsIn(scopes, statuses);
  }

  @Override
  public List<MemoryEvent> events(String entryId) {
    return delegate.events(entryId);
  }

  @Override
  public List<MemoryEvent> events(String entryId, long afterRevision, String afterEventId, int limit) {
    return delegate.events(entryId, afterRevision, afterEventId, limit);
  }

  @Override
  public Optional<MemoryEvent> event(String eventId) {
    return delegate.event(eventId);
  }

  @Override
  public List<Revision> revisions(String scope, long sinceExclusive, int limit) {
    return delegate.revisions(scope, sinceExclusive, limit);
  }

  @Override
  public List<TopicState> topics(Collection<String> scopes) {
    return delegate.topics(scopes);
  }

  @Override
  public List<TopicState> dirtyTopics(int limit) {
    return delegate.dirtyTopics(limit);
  }

  @Override
  public int countActiveWithPriority(String namespace, int priority) {
    return delegate.countActiveWithPriority(namespace, priority);
  }

  @Override
  public boolean hasScope(String scope) {
    return delegate.hasScope(scope);
  }

  @Override
  public List<String> scopesFrom(String prefix) {
    return delegate.scopesFrom(prefix);
  }

  @Override
  public dev.engram.spi.SourceState sourceState(String scope) {
    return delegate.sourceState(scope);
  }

  @Override
  public Optional<dev.engram.CapturedSource> source(String scope, String sourceId) {
    return delegate.source(scope, sourceId);
  }

  @Override
  public List<dev.engram.CapturedSource> sources(String scope, dev.engram.spi.SourceFilter filter) {
    return delegate.sources(scope, filter);
  }

  /** Delegates to the real transaction and fails after the armed step. */
  private final class Tx implements StoreTransaction {
    private final StoreTransaction tx;

    Tx(StoreTransaction tx) {
      this.tx = tx;
    }

    @Override
    public String scope() {
      return tx.scope();
    }

    @Override
    public void insertVersion(MemoryEntry version) {
      tx.insertVersion(version);
      after(Step.INSERT_VERSION);
    }

    @Override
    public void updateStatus(String versionId, EntryStatus status, @Nullable String supersededBy, Instant updatedAt) {
      tx.updateStatus(versionId, status, supersededBy, updatedAt);
      after(Step.UPDATE_STATUS);
    }

    @Override
    public void appendEvent(MemoryEvent event) {
      tx.appendEvent(event);
      after(Step.APPEND_EVENT);
    }

    @Override
    public void appendRevision(Revision revision) {
      tx.appendRevision(revision);
      after(Step.APPEND_REVISION);
    }

    @Override
    public void markTopicsWritten(String scope, Collection<String> topics, long revision, Instant at) {
      tx.markTopicsWritten(scope, topics, revision, at);
      after(Step.MARK_TOPICS_WRITTEN);
    }

    @Override
    public void markTopicCurated(String scope, String topic, long revision, @Nullable String blurb) {
      tx.markTopicCurated(scope, topic, revision, blurb);
      after(Step.MARK_TOPIC_CURATED);
    }

    @Override
    public int eraseEntry(String entryId) {
      int n = tx.eraseEntry(entryId);
      after(Step.ERASE_ENTRY);
      return n;
    }

    @Override
    public int eraseScope() {
      int n = tx.eraseScope();
      after(Step.ERASE_SCOPE);
      return n;
    }

    @Override
    public int eraseScopeContent() {
      int n = tx.eraseScopeContent();
      after(Step.ERASE_SCOPE_CONTENT);
      return n;
    }

    @Override
    public long headRevision(String scope) {
      return tx.headRevision(scope);
    }

    @Override
    public Optional<MemoryEntry> version(String versionId) {
      return tx.version(versionId);
    }

    @Override
    public List<MemoryEntry> versions(String entryId) {
      return tx.versions(entryId);
    }

    @Override
    public java.util.Optional<MemoryEntry> currentVersion(String entryId) {
      return tx.currentVersion(entryId);
    }

    @Override
    public Optional<MemoryEntry> findActiveByHash(String scope, String contentHash) {
      return tx.findActiveByHash(scope, contentHash);
    }

    @Override
    public Optional<MemoryEntry> findActiveByPath(String scope, String path) {
      return tx.findActiveByPath(scope, path);
    }

    @Override
    public List<MemoryEntry> activeByTopic(Collection<String> scopes, String topic, int limit) {
      return tx.activeByTopic(scopes, topic, limit);
    }

    @Override
    public List<MemoryEntry> versionsIn(Collection<String> scopes, Set<EntryStatus> statuses) {
      return tx.versionsIn(scopes, statuses);
    }

    @Override
    public List<MemoryEvent> events(String entryId) {
      return tx.events(entryId);
    }

    @Override
    public List<MemoryEvent> events(String entryId, long afterRevision, String afterEventId, int limit) {
      return tx.events(entryId, afterRevision, afterEventId, limit);
    }

    @Override
    public Optional<MemoryEvent> event(String eventId) {
      return tx.event(eventId);
    }

    @Override
    public List<Revision> revisions(String scope, long sinceExclusive, int limit) {
      return tx.revisions(scope, sinceExclusive, limit);
    }

    @Override
    public List<TopicState> topics(Collection<String> scopes) {
      return tx.topics(scopes);
    }

    @Override
    public List<TopicState> dirtyTopics(int limit) {
      return tx.dirtyTopics(limit);
    }

    @Override
    public int countActiveWithPriority(String namespace, int priority) {
      return tx.countActiveWithPriority(namespace, priority);
    }

    @Override
    public boolean hasScope(String scope) {
      return tx.hasScope(scope);
    }

    @Override
    public List<String> scopesFrom(String prefix) {
      return tx.scopesFrom(prefix);
    }
  
    @Override
    public void insertSource(dev.engram.CapturedSource source) {
      tx.insertSource(source);
      after(Step.INSERT_SOURCE);
    }

    @Override
    public void advanceSourceCursor(long position) {
      tx.advanceSourceCursor(position);
      after(Step.ADVANCE_SOURCE_CURSOR);
    }

    @Override
    public void restoreSourceState(dev.engram.spi.SourceState state) {
      tx.restoreSourceState(state);
      after(Step.RESTORE_SOURCE_STATE);
    }

    @Override
    public boolean eraseSource(String sourceId) {
      boolean erased = tx.eraseSource(sourceId);
      after(Step.ERASE_SOURCE);
      return erased;
    }

    @Override
    public dev.engram.spi.SourceState sourceState(String scope) {
      return tx.sourceState(scope);
    }

    @Override
    public Optional<dev.engram.CapturedSource> source(String scope, String sourceId) {
      return tx.source(scope, sourceId);
    }

    @Override
    public List<dev.engram.CapturedSource> sources(String scope, dev.engram.spi.SourceFilter filter) {
      return tx.sources(scope, filter);
    }
  }
}
