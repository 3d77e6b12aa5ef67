/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.observation;

import dev.engram.BatchWriteResult;
import dev.engram.BootBlock;
import dev.engram.CapturedSource;
import dev.engram.ChangeOptions;
import dev.engram.Citation;
import dev.engram.ContextRequest;
import dev.engram.CurateReport;
import dev.engram.DeleteScopeOptions;
import dev.engram.DirtyTopic;
import dev.engram.DomainSummary;
import dev.engram.Engram;
import dev.engram.EngramOperator;
import dev.engram.EntryPatch;
import dev.engram.FlushOptions;
import dev.engram.FlushReport;
import dev.engram.Grants;
import dev.engram.HistoryOptions;
import dev.engram.HistoryPage;
import dev.engram.ImportOptions;
import dev.engram.ListOptions;
import dev.engram.Manifest;
import dev.engram.MemoryEntry;
import dev.engram.MemoryEvent;
import dev.engram.PathNode;
import dev.engram.PreparedContext;
import dev.engram.ReadOptions;
import dev.engram.Revision;
import dev.engram.SearchRequest;
import dev.engram.SearchResult;
import dev.engram.SourceQuery;
import dev.engram.SourceRecord;
import dev.engram.TopicSummary;
import dev.engram.TransferReport;
import dev.engram.VectorCacheStats;
import dev.engram.WriteOptions;
import dev.engram.WriteRequest;
import dev.engram.WriteResult;
import io.micrometer.common.KeyValues;
import java.io.Reader;
import java.io.Writer;
import java.util.List;
import java.util.Locale;

/**
 * An {@link Engram} whose every operation (and its operator view's) is one observation named
 * {@value EngramObservation#OPERATION}; see {@link EngramObservation} for the key values.
 */
final class ObservedEngram implements Engram {
  private final Engram delegate;
  private final Observations observation;
  private final EngramOperator operator;

  ObservedEngram(Engram delegate, Observations observation) {
    this.delegate = delegate;
    this.observation = observation;
    this.operator = new ObservedOperator(delegate.operator(), observation);
  }

  @Override
  public WriteResult write(Grants grants, String content, WriteOptions options) {
    return observation.call("write", () -> delegate.write(grants, content, options));
  }

  @Override
  public BatchWriteResult writeAll(Grants grants, List<WriteRequest> requests) {
    return observation.call("writeAll", () -> delegate.writeAll(grants, requests));
  }

  @Override
  public MemoryEntry correct(Grants grants, String entryId, String content, ChangeOptions options) {
    return observation.call("correct", () -> delegate.correct(grants, entryId, content, options));
  }

  @Override
  public MemoryEntry correct(Grants grants, Citation citation, String content, ChangeOptions options) {
    return observation.call("correct", () -> delegate.correct(grants, citation, content, options));
  }

  @Override
  public MemoryEntry retire(Grants grants, Citation citation, ChangeOptions options) {
    return observation.call("retire", () -> delegate.retire(grants, citation, options));
  }

  @Override
  public MemoryEntry reactivate(Grants grants, Citation citation, ChangeOptions options) {
    return observation.call("reactivate", () -> delegate.reactivate(grants, citation, options));
  }

  @Override
  public MemoryEntry rollback(Grants grants, String eventId, ChangeOptions options) {
    return observation.call("rollback", () -> delegate.rollback(grants, eventId, options));
  }

  @Override
  public int deleteEntry(Grants grants, String entryId) {
    return observation.call("deleteEntry", () -> delegate.deleteEntry(grants, entryId));
  }

  @Override
  public int deleteScope(Grants grants, String scope, DeleteScopeOptions options) {
    return observation.call("deleteScope", () -> delegate.deleteScope(grants, scope, options));
  }

  @Override
  public List<CapturedSource> captureAll(Grants grants, List<SourceRecord> records) {
    return observation.call("captureAll", () -> delegate.captureAll(grants, records));
  }

  @Override
  public List<CapturedSource> sources(Grants grants, SourceQuery query) {
    return observation.call("sources", () -> delegate.sources(grants, query));
  }

  @Override
  public void deleteSource(Grants grants, String scope, String sourceId) {
    observation.run("deleteSource", () -> delegate.deleteSource(grants, scope, sourceId));
  }

  @Override
  public FlushReport flush(Grants grants, FlushOptions options) {
    return observation.call("flush", () -> delegate.flush(grants, options));
  }

  @Override
  public List<CapturedSource> evidence(Grants grants, String entryId) {
    return observation.call("evidence", () -> delegate.evidence(grants, entryId));
  }

  @Override
  public List<MemoryEntry> read(Grants grants, List<String> topics, ReadOptions options) {
    return observation.call("read", () -> delegate.read(grants, topics, options));
  }

  @Override
  public List<TopicSummary> scan(Grants grants) {
    return observation.call("scan", () -> delegate.scan(grants));
  }

  @Override
  public List<MemoryEntry> list(Grants grants, ListOptions options) {
    return observation.call("list", () -> delegate.list(grants, options));
  }

  @Override
  public MemoryEntry get(Grants grants, Citation citation) {
    return observation.call("get", () -> delegate.get(grants, citation));
  }

  @Override
  public MemoryEntry get(Grants grants, String entryId) {
    return observation.call("get", () -> delegate.get(grants, entryId));
  }

  @Override
  public List<MemoryEvent> history(Grants grants, String entryId) {
    return observation.call("history", () -> delegate.history(grants, entryId));
  }

  @Override
  public HistoryPage history(Grants grants, String entryId, HistoryOptions options) {
    return observation.call("history", () -> delegate.history(grants, entryId, options));
  }

  @Override
  public long revision(Grants grants, String scope) {
    return observation.call("revision", () -> delegate.revision(grants, scope));
  }

  @Override
  public List<Revision> changes(Grants grants, String scope, long sinceRevision) {
    return observation.call("changes", () -> delegate.changes(grants, scope, sinceRevision));
  }

  @Override
  public SearchResult search(Grants grants, SearchRequest request) {
    return observation.call("search", () -> delegate.search(grants, request), ObservedEngram::searchTags);
  }

  @Override
  public PreparedContext prepareContext(Grants grants, ContextRequest request) {
    return observation.call("prepareContext", () -> delegate.prepareContext(grants, request), ObservedEngram::contextTags);
  }

  @Override
  public CurateReport curate(Grants grants) {
    return observation.call("curate", () -> delegate.curate(grants));
  }

  @Override
  public List<MemoryEntry> undoCuration(Grants grants, String runId) {
    return observation.call("undoCuration", () -> delegate.undoCuration(grants, runId));
  }

  @Override
  public List<DomainSummary> domains(Grants grants) {
    return observation.call("domains", () -> delegate.domains(grants));
  }

  @Override
  public List<PathNode> browse(Grants grants, String prefix) {
    return observation.call("browse", () -> delegate.browse(grants, prefix));
  }

  @Override
  public Manifest manifest(Grants grants, String scope, long revision) {
    return observation.call("manifest", () -> delegate.manifest(grants, scope, revision));
  }

  @Override
  public MemoryEntry move(Grants grants, String entryId, String newPath, ChangeOptions options) {
    return observation.call("move", () -> delegate.move(grants, entryId, newPath, options));
  }

  @Override
  public WriteResult update(Grants grants, String entryId, EntryPatch patch, ChangeOptions options) {
    return observation.call("update", () -> delegate.update(grants, entryId, patch, options));
  }

  @Override
  public MemoryEntry glossaryAdd(Grants grants, String entryId, List<String> terms) {
    return observation.call("glossaryAdd", () -> delegate.glossaryAdd(grants, entryId, terms));
  }

  @Override
  public MemoryEntry glossaryRemove(Grants grants, String entryId, List<String> terms) {
    return observation.call("glossaryRemove", () -> delegate.glossaryRemove(grants, entryId, terms));
  }

  @Override
  public MemoryEntry glossaryAdd(Grants grants, String entryId, List<String> terms, ChangeOptions options) {
    return observation.call("glossaryAdd", () -> delegate.glossaryAdd(grants, entryId, terms, options));
  }

  @Override
  public MemoryEntry glossaryRemove(Grants grants, String entryId, List<String> terms, ChangeOptions options) {
    return observation.call("glossaryRemove", () -> delegate.glossaryRemove(grants, entryId, terms, options));
  }

  @Override
  public BootBlock boot(Grants grants, String runtime) {
    return observation.call("boot", () -> delegate.boot(grants, runtime));
  }

  @Override
  public EngramOperator operator() {
    return operator;
  }

  /** The engine's experience view, observed: each call is the operation {@code experience.<method>}. */
  @Override
  public dev.engram.Experiences experience() {
    return ObservedProxy.view(dev.engram.Experiences.class, delegate.experience(), "experience", observation);
  }

  /** The engine's review inbox, observed: each call is the operation {@code review.<method>}. */
  @Override
  public dev.engram.ReviewInbox review() {
    return ObservedProxy.view(dev.engram.ReviewInbox.class, delegate.review(), "review", observation);
  }

  @Override
  public void close() {
    delegate.close();
  }

  private static KeyValues searchTags(SearchResult r) {
    return KeyValues.of(EngramObservation.SEARCH_MODE, r.used().name().toLowerCase(Locale.ROOT));
  }

  private static KeyValues contextTags(PreparedContext c) {
    return KeyValues.of(EngramObservation.CONTEXT_STATUS, c.status().name().toLowerCase(Locale.ROOT));
  }

  /** The operator view, observed the same way ({@code operator.reindex}, …). */
  private static final class ObservedOperator implements EngramOperator {
    private final EngramOperator delegate;
    private final Observations observation;

    ObservedOperator(EngramOperator delegate, Observations observation) {
      this.delegate = delegate;
      this.observation = observation;
    }

    @Override
    public int reindex(Grants grants) {
      return observation.call("operator.reindex", () -> delegate.reindex(grants));
    }

    @Override
    public VectorCacheStats vectorCacheStats() {
      return observation.call("operator.vectorCacheStats", delegate::vectorCacheStats);
    }

    @Override
    public TransferReport export(Grants grants, Writer out) {
      return observation.call("operator.export", () -> delegate.export(grants, out));
    }

    @Override
    public TransferReport importFrom(Grants grants, Reader in, ImportOptions options) {
      return observation.call("operator.importFrom", () -> delegate.importFrom(grants, in, options));
    }

    @Override
    public List<DirtyTopic> listDirtyTopics(int limit) {
      return observation.call("operator.listDirtyTopics", () -> delegate.listDirtyTopics(limit));
    }

    /**
     * Starts the delegate's runner: its start is one observation, and its runs go through the engine
     * directly (each is logged and reported to the runner's listener).
     */
    @Override
    public dev.engram.MaintenanceRunner startMaintenance(List<Grants> grants, dev.engram.MaintenanceOptions options) {
      return observation.call("operator.startMaintenance", () -> delegate.startMaintenance(grants, options));
    }

    @Override
    public List<dev.engram.ModelUsageRow> modelUsage(Grants grants, dev.engram.ModelUsageQuery query) {
      return observation.call("operator.modelUsage", () -> delegate.modelUsage(grants, query));
    }
  }
}
