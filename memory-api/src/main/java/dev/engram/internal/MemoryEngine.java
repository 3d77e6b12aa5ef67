/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.internal;

import dev.engram.BootBlock;
import dev.engram.CapturedSource;
import dev.engram.ChangeOptions;
import dev.engram.FlushOptions;
import dev.engram.FlushReport;
import dev.engram.SourceQuery;
import dev.engram.SourceRecord;
import dev.engram.Citation;
import dev.engram.ContextRequest;
import dev.engram.CurateReport;
import dev.engram.DeleteScopeOptions;
import dev.engram.DirtyTopic;
import dev.engram.EngramOperator;
import dev.engram.DomainSummary;
import dev.engram.Engram;
import dev.engram.EntryPatch;
import dev.engram.EntryStateException;
import dev.engram.EntryStatus;
import dev.engram.ErrorCode;
import dev.engram.Grants;
import dev.engram.ImportOptions;
import dev.engram.InvalidInputException;
import dev.engram.ListOptions;
import dev.engram.Manifest;
import dev.engram.MemoryEntry;
import dev.engram.MemoryEvent;
import dev.engram.Namespaces;
import dev.engram.PathNode;
import dev.engram.PreparedContext;
import dev.engram.ReadOptions;
import dev.engram.Revision;
import dev.engram.SearchRequest;
import dev.engram.SearchResult;
import dev.engram.StoreException;
import dev.engram.TopicSummary;
import dev.engram.TransferReport;
import dev.engram.WriteOptions;
import dev.engram.WriteRequest;
import dev.engram.BatchWriteResult;
import dev.engram.MemoryException;
import dev.engram.VectorCacheStats;
import dev.engram.WriteResult;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.Reasoner;
import java.io.Reader;
import java.io.Writer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;

/**
 * The engine's facade: checks that it is open, validates every argument, authorizes grants, and
 * hands the call to the part that does it — {@link WritePipeline}, {@link Versioning},
 * {@link Erasure}, {@link Reads}, {@link CurationRun}, {@link SearchService}, {@link PreparedContexts},
 * {@link Reindex}, {@link Transfer}. Every
 * mutation commits through {@link Commits}. Thread-safe; all state lives in the store. Its one job is
 * that front door for each of the {@link dev.engram.Engram} operations (check, authorize, delegate), so
 * its length follows the facade's number of operations; none of their work is done here.
 */
public final class MemoryEngine implements Engram {
  private static final int MAX_READ_TOPICS = 64;

  private final MemoryStore store;
  private final EngineConfig config;
  private final GrantPolicy policy;
  private final @Nullable Embeddings embeddings;
  private final VectorIndex vectorIndex;
  private final Reindex reindex;
  private final SearchService search;
  private final PreparedContexts contexts;
  private final Commits commits;
  private final WritePipeline writes;
  private final Versioning versioning;
  private final Erasure erasure;
  private final Reads reads;
  private final CurationRun curation;
  private final Sources sources;
  private final Flush flush;
  private final PathIndex paths;
  private final Manifests manifests;
  private final Edits edits;
  private final CurationUndo undo;
  private final ExperienceService experience;
  private final ReviewService review;
  private final AtomicBoolean closed = new AtomicBoolean();
  private final boolean ownsStore;
  private final EngramOperator operator = new Operator();
  private final Reasoner reasoner;
  /** The maintenance runners started from this engine, closed with it. */
  private final Set<Maintenance> runners = java.util.concurrent.ConcurrentHashMap.newKeySet();
  private final ModelUsageMeter meter;

  public MemoryEngine(MemoryStore store, Reasoner reasoner, EngineConfig config) {
    this(store, reasoner, config, true);
  }

  /** With {@code ownsStore} false, {@link #close()} leaves the store open: its owner closes it. */
  public MemoryEngine(MemoryStore store, Reasoner reasoner, EngineConfig config, boolean ownsStore) {
    this.ownsStore = ownsStore;
    this.store = Objects.requireNonNull(store, "store");
    Objects.requireNonNull(config, "config");
    this.meter = new ModelUsageMeter(store, config.clock());
    // every model call of the reasoner is counted for the scope of the operation that made it
    reasoner = meter.attributing(Objects.requireNonNull(reasoner, "reasoner"));
    this.reasoner = reasoner;
    this.config = config;
    this.policy = new GrantPolicy(config.protectedNamespaces());
    EngineConfig.Vectors vc = config.vectors();
    this.embeddings = config.embedder() == null ? null
        : new Embeddings(config.embedder(), config.search().embedTimeout(), vc.embeddingExecutor());
    this.vectorIndex = new VectorIndex(store, vc.cacheBytes(), vc.scanExecutor(), vc.quantized());
    this.reindex = new Reindex(store, reasoner, embeddings, vectorIndex, meter, vc.backgroundCompletion());
    this.search = new SearchService(store, config.search(), embeddings, vectorIndex, reindex, config.reranker(),
        config.clock());
    this.contexts = new PreparedContexts(store, search);
    WriteVectors writeVectors = new WriteVectors(store, reasoner, embeddings, meter);
    this.commits = new Commits(store, config, writeVectors);
    this.writes = new WritePipeline(store, reasoner, config, policy, search, writeVectors, commits, meter);
    this.versioning = new Versioning(writeVectors, commits);
    this.erasure = new Erasure(store, commits, search);
    this.reads = new Reads(store);
    this.curation = new CurationRun(store, reasoner, policy, config, writeVectors, reindex, commits);
    this.sources = new Sources(store, config, policy, commits);
    this.flush = new Flush(store, reasoner, config, policy, writeVectors, commits, sources);
    this.paths = new PathIndex(store);
    this.manifests = new Manifests(store);
    this.edits = new Edits(writeVectors, commits);
    this.undo = new CurationUndo(commits);
    if (!config.reviewed().isEmpty() && !store.capabilities().contains(dev.engram.spi.StoreCapability.REVIEW)) {
      throw new IllegalStateException("review of " + config.reviewed() + " is on, but "
          + store.getClass().getSimpleName() + " does not declare REVIEW and cannot hold review items");
    }
    this.experience = new ExperienceService(store, config, policy, commits,
        new Incubation(store, reasoner, config, policy, commits, meter), this::open);
    this.review = new ReviewService(store, config, policy, commits, this::open, meter);
  }

  /** Fails with {@link ErrorCode#STORE_CLOSED} after {@link #close()}; then checks the grants. */
  private Grants open(Grants grants) {
    requireOpen();
    return policy.check(grants);
  }

  private void requireOpen() {
    if (closed.get()) {
      throw StoreException.closed("this Engram is closed; no call after close() reads or changes memory");
    }
  }

  // ---- write

  @Override
  public WriteResult write(Grants grants, String content, WriteOptions options) {
    open(grants);
    return withWarnings(writes.write(grants, input(content, options)));
  }

  @Override
  public BatchWriteResult writeAll(Grants grants, List<WriteRequest> requests) {
    open(grants);
    Objects.requireNonNull(requests, "requests");
    if (requests.size() > MAX_BATCH_WRITES) {
      throw new InvalidInputException("requests",
          "a batch takes at most " + MAX_BATCH_WRITES + " requests, got " + requests.size());
    }
    List<WritePipeline.Slot> slots = new ArrayList<>(requests.size());
    for (int i = 0; i < requests.size(); i++) {
      WriteRequest request = Objects.requireNonNull(requests.get(i), "requests[" + i + "]");
      try {
        slots.add(WritePipeline.Slot.of(input(request.content(), request.options())));
      } catch (MemoryException e) {
        slots.add(WritePipeline.Slot.rejected(e));
      }
    }
    writes.writeAll(grants, slots);
    List<BatchWriteResult.Item> items = new ArrayList<>(slots.size());
    for (int i = 0; i < slots.size(); i++) {
      WritePipeline.Slot slot = slots.get(i);
      WriteResult result = slot.result();
      items.add(result != null
          ? BatchWriteResult.Item.written(i, withWarnings(result))
          : BatchWriteResult.Item.rejected(i, asMemoryException(Objects.requireNonNull(slot.error()))));
    }
    return new BatchWriteResult(items);
  }

  private static MemoryException asMemoryException(RuntimeException e) {
    return e instanceof MemoryException m
        ? m : new StoreException(ErrorCode.STORE_UNAVAILABLE, "the batch's transaction failed: " + e, e);
  }

  /** The disclosure check's warnings ahead of the ones the write itself reported (vector gaps). */
  private static WriteResult withWarnings(WriteResult result) {
    if (result.outcome() == WriteResult.Outcome.DEDUPED) {
      return result;
    }
    List<String> warnings = new ArrayList<>(DisclosureCheck.warnings(result.entry().disclosure(), result.entry().path()));
    warnings.addAll(result.warnings());
    return result.withWarnings(warnings);
  }

  /** A write's arguments validated; throws the caller's mistake. */
  private WritePipeline.Input input(String content, WriteOptions options) {
    Objects.requireNonNull(options, "options");
    return new WritePipeline.Input(
        Text.content("content", content, config.maxContentBytes()),
        Text.topics("topicsHint", options.topicsHint(), false),
        options.type(),
        options.priority() == null ? null : Text.priority("priority", options.priority()),
        Text.optionalShort("disclosure", options.disclosure(), Text.MAX_DISCLOSURE_CHARS),
        options.glossary() == null ? null : Text.glossary("glossary", options.glossary()),
        Text.lorePath("path", options.path()),
        Text.optionalShort("source", options.source(), Text.MAX_SOURCE_CHARS),
        Text.evidence("evidence", options.evidence()),
        expectedRevision(options.expectedRevision()),
        GrantPolicy.narrow(config.writePolicy(), options.writePolicy()),
        options.occurredAt(),
        options.origin());
  }

  // ---- changes to existing entries

  @Override
  public MemoryEntry correct(Grants grants, String entryId, String content, ChangeOptions options) {
    open(grants);
    Text.id("entryId", entryId);
    String normalized = Text.content("content", content, config.maxContentBytes());
    ChangeOptions opts = checkOptions(options);
    MemoryEntry cur = reads.current(grants, entryId);
    policy.requireWritable(grants, config.writePolicy(), cur.scope());
    return metered(grants, () -> versioning.correct(cur, normalized, opts));
  }

  @Override
  public MemoryEntry correct(Grants grants, Citation citation, String content, ChangeOptions options) {
    open(grants);
    checkCitation(citation);
    String normalized = Text.content("content", content, config.maxContentBytes());
    ChangeOptions opts = checkOptions(options);
    policy.requireVisible(grants, citation.scope(), "entry " + citation.entryId());
    policy.requireWritable(grants, config.writePolicy(), citation.scope());
    return metered(grants, () -> edits.correct(citation, normalized, opts));
  }

  @Override
  public MemoryEntry retire(Grants grants, Citation citation, ChangeOptions options) {
    return setStatus(grants, citation, options, EntryStatus.RETIRED);
  }

  @Override
  public MemoryEntry reactivate(Grants grants, Citation citation, ChangeOptions options) {
    return setStatus(grants, citation, options, EntryStatus.ACTIVE);
  }

  private MemoryEntry setStatus(Grants grants, Citation citation, ChangeOptions options, EntryStatus target) {
    open(grants);
    checkCitation(citation);
    ChangeOptions opts = checkOptions(options);
    policy.requireVisible(grants, citation.scope(), "entry " + citation.entryId());
    policy.requireWritable(grants, config.writePolicy(), citation.scope());
    if (target == EntryStatus.RETIRED) {
      // A boot node keeps its path for life (it cannot be moved), so this check needs no commit.
      store.version(citation.versionId())
          .filter(v -> v.scope().equals(citation.scope()) && v.entryId().equals(citation.entryId()))
          .ifPresent(v -> BootNodes.refuse(v, "retired"));
    }
    return versioning.setStatus(grants, citation, opts, target);
  }

  @Override
  public MemoryEntry rollback(Grants grants, String eventId, ChangeOptions options) {
    open(grants);
    Text.id("eventId", eventId);
    ChangeOptions opts = checkOptions(options);
    MemoryEvent event = reads.event(grants, eventId);
    if (!event.kind().restorable() || event.after() == null) {
      throw new EntryStateException("event " + eventId + " is a " + event.kind()
          + " event; only CREATE, UPDATE and ROLLBACK events can be rolled back to");
    }
    policy.requireWritable(grants, config.writePolicy(), event.scope());
    return metered(grants, () -> versioning.rollback(event, opts));
  }

  // ---- erasure

  @Override
  public int deleteEntry(Grants grants, String entryId) {
    open(grants);
    Text.id("entryId", entryId);
    MemoryEntry cur = reads.current(grants, entryId);
    policy.requireWritable(grants, config.writePolicy(), cur.scope());
    BootNodes.refuse(cur, "deleted");
    return erasure.deleteEntry(grants, cur);
  }

  @Override
  public int deleteScope(Grants grants, String scope, DeleteScopeOptions options) {
    open(grants);
    Namespaces.validate("scope", scope);
    Objects.requireNonNull(options, "options");
    policy.requireWritable(grants, config.writePolicy(), scope);
    List<String> scopes = erasure.scopes(scope, options.includesDescendants());
    for (String s : scopes) {
      policy.requireWritable(grants, config.writePolicy(), s);
    }
    return erasure.deleteScopes(scopes);
  }

  // ---- sources

  @Override
  public List<CapturedSource> captureAll(Grants grants, List<SourceRecord> records) {
    open(grants);
    Objects.requireNonNull(records, "records");
    return sources.captureAll(grants, records);
  }

  @Override
  public List<CapturedSource> sources(Grants grants, SourceQuery query) {
    open(grants);
    Objects.requireNonNull(query, "query");
    return sources.sources(grants, query);
  }

  @Override
  public void deleteSource(Grants grants, String scope, String sourceId) {
    open(grants);
    Objects.requireNonNull(scope, "scope");
    sources.delete(grants, scope, sourceId);
  }

  @Override
  public FlushReport flush(Grants grants, FlushOptions options) {
    open(grants);
    Objects.requireNonNull(options, "options");
    return metered(grants, () -> flush.flush(grants, options));
  }

  @Override
  public List<CapturedSource> evidence(Grants grants, String entryId) {
    open(grants);
    Text.id("entryId", entryId);
    return sources.evidence(reads.current(grants, entryId));
  }

  // ---- reads

  @Override
  public List<MemoryEntry> read(Grants grants, List<String> topics, ReadOptions options) {
    open(grants);
    Objects.requireNonNull(topics, "topics");
    Objects.requireNonNull(options, "options");
    if (topics.isEmpty()) {
      throw new InvalidInputException("topics", "at least one topic is required");
    }
    if (topics.size() > MAX_READ_TOPICS) {
      throw new InvalidInputException("topics", topics.size() + " topics; the limit is " + MAX_READ_TOPICS);
    }
    return reads.read(grants, Text.topics("topics", topics, false), options.limit());
  }

  @Override
  public List<TopicSummary> scan(Grants grants) {
    open(grants);
    return reads.scan(grants);
  }

  @Override
  public List<MemoryEntry> list(Grants grants, ListOptions options) {
    open(grants);
    Objects.requireNonNull(options, "options");
    Collection<String> scopes = grants.visibleScopes();
    if (options.scope() != null) {
      Namespaces.validate("scope", options.scope());
      policy.requireVisible(grants, options.scope(), "scope " + options.scope());
      scopes = List.of(options.scope());
    }
    String topic = options.topic() == null ? null : Text.topic("topic", options.topic());
    Set<EntryStatus> statuses = options.includeSuperseded()
        ? EnumSet.allOf(EntryStatus.class)
        : options.includeRetired() ? EnumSet.of(EntryStatus.ACTIVE, EntryStatus.RETIRED) : EnumSet.of(EntryStatus.ACTIVE);
    return reads.list(grants, scopes, topic, statuses);
  }

  @Override
  public MemoryEntry get(Grants grants, Citation citation) {
    open(grants);
    checkCitation(citation);
    return reads.get(grants, citation);
  }

  @Override
  public MemoryEntry get(Grants grants, String entryId) {
    open(grants);
    Text.id("entryId", entryId);
    return reads.current(grants, entryId);
  }

  @Override
  public List<MemoryEvent> history(Grants grants, String entryId) {
    open(grants);
    Text.id("entryId", entryId);
    return reads.history(grants, entryId);
  }

  @Override
  public dev.engram.HistoryPage history(Grants grants, String entryId, dev.engram.HistoryOptions options) {
    open(grants);
    Text.id("entryId", entryId);
    java.util.Objects.requireNonNull(options, "options");
    return reads.history(grants, entryId, options);
  }

  @Override
  public long revision(Grants grants, String scope) {
    open(grants);
    Namespaces.validate("scope", scope);
    policy.requireVisible(grants, scope, "scope " + scope);
    return reads.revision(scope);
  }

  @Override
  public List<Revision> changes(Grants grants, String scope, long sinceRevision) {
    open(grants);
    Namespaces.validate("scope", scope);
    if (sinceRevision < 0) {
      throw new InvalidInputException("sinceRevision", "must be >= 0, was " + sinceRevision);
    }
    policy.requireVisible(grants, scope, "scope " + scope);
    return reads.changes(scope, sinceRevision);
  }

  // ---- search and context

  @Override
  public SearchResult search(Grants grants, SearchRequest request) {
    open(grants);
    Objects.requireNonNull(request, "request");
    return metered(grants, () -> search.search(grants, request));
  }

  @Override
  public PreparedContext prepareContext(Grants grants, ContextRequest request) {
    open(grants);
    Objects.requireNonNull(request, "request");
    return metered(grants, () -> contexts.prepareContext(grants, request));
  }

  VectorCacheStats vectorCacheStats() {
    return search.vectorCacheStats();
  }

  int reindex(Grants grants) {
    open(grants);
    return metered(grants, () -> reindex.reindex(grants));
  }

  // ---- experience and the review inbox

  @Override
  public dev.engram.Experiences experience() {
    return experience;
  }

  @Override
  public dev.engram.ReviewInbox review() {
    return review;
  }

  // ---- export / import

  TransferReport export(Grants grants, Writer out) {
    open(grants);
    return new Transfer(store, config, policy, commits).export(grants, out);
  }

  TransferReport importFrom(Grants grants, Reader in, ImportOptions options) {
    open(grants);
    TransferReport report = metered(grants,
        () -> new Transfer(store, config, policy, commits).importFrom(grants, in, options));
    if (options.mode() == dev.engram.ImportMode.REPLACE && !report.dryRun()) {
      // what this engine cached of a replaced scope is of the memory it replaced
      report.scopes().forEach(search::forget);
    }
    return report;
  }

  // ---- curation

  @Override
  public CurateReport curate(Grants grants) {
    return curate(grants, null, grants.namespaces());
  }

  /**
   * {@link #curate(Grants)} of the dirty topics {@code only} accepts (all when null); the run id spans the
   * revisions of {@code changed}, the scopes {@code only} lets the run change.
   */
  CurateReport curate(Grants grants, java.util.function.@Nullable Predicate<dev.engram.spi.TopicState> only,
      Collection<String> changed) {
    open(grants);
    Map<String, Long> before = new TreeMap<>();
    for (String scope : changed) {
      before.put(scope, store.headRevision(scope));
    }
    CurateReport report = metered(grants, () -> curation.curate(grants, only));
    List<CurationUndo.Span> spans = new ArrayList<>();
    before.forEach((scope, from) -> {
      long to = store.headRevision(scope);
      if (to > from) {
        spans.add(new CurationUndo.Span(scope, from, to));
      }
    });
    return spans.isEmpty() ? report : report.withRunId(CurationUndo.runId(spans));
  }

  @Override
  public List<MemoryEntry> undoCuration(Grants grants, String runId) {
    open(grants);
    List<CurationUndo.Span> spans = CurationUndo.parse(runId);
    for (CurationUndo.Span span : spans) {
      policy.requireVisible(grants, span.scope(), "scope " + span.scope());
      policy.requireWritable(grants, config.writePolicy(), span.scope());
    }
    return undo.undo(store, runId, spans);
  }

  List<DirtyTopic> listDirtyTopics(int limit) {
    requireOpen();
    if (limit < 1 || limit > 100_000) {
      throw new InvalidInputException("limit", "must be between 1 and 100000, was " + limit);
    }
    return reads.dirtyTopics(limit);
  }

  // ---- paths and domains

  @Override
  public List<DomainSummary> domains(Grants grants) {
    open(grants);
    return paths.domains(grants);
  }

  @Override
  public List<PathNode> browse(Grants grants, String prefix) {
    open(grants);
    return paths.browse(grants, PathIndex.prefix(prefix));
  }

  // ---- manifests

  @Override
  public Manifest manifest(Grants grants, String scope, long revision) {
    open(grants);
    Namespaces.validate("scope", scope);
    policy.requireVisible(grants, scope, "scope " + scope);
    return manifests.manifest(scope, revision);
  }

  // ---- edits that keep the content

  @Override
  public MemoryEntry move(Grants grants, String entryId, String newPath, ChangeOptions options) {
    open(grants);
    Text.id("entryId", entryId);
    if (newPath == null) {
      throw new NullPointerException("newPath");
    }
    String path = java.util.Objects.requireNonNull(Text.lorePath("newPath", newPath));
    ChangeOptions opts = checkOptions(options);
    MemoryEntry cur = reads.current(grants, entryId);
    policy.requireWritable(grants, config.writePolicy(), cur.scope());
    return metered(grants, () -> edits.move(cur, path, opts));
  }

  @Override
  public WriteResult update(Grants grants, String entryId, EntryPatch patch, ChangeOptions options) {
    open(grants);
    Text.id("entryId", entryId);
    Objects.requireNonNull(patch, "patch");
    if (patch.isEmpty()) {
      throw new InvalidInputException("patch", "sets no field; set priority, disclosure, glossary or topics");
    }
    List<String> topics = patch.topics() == null ? null : Text.topics("patch.topics", patch.topics(), false);
    if (topics != null && topics.isEmpty()) {
      throw new InvalidInputException("patch.topics", "is empty; an entry keeps at least one topic");
    }
    EntryPatch valid = Edits.patchOf(
        patch.priority() == null ? null : Text.priority("patch.priority", patch.priority()),
        Text.optionalShort("patch.disclosure", patch.disclosure(), Text.MAX_DISCLOSURE_CHARS),
        patch.glossary() == null ? null : Text.glossary("patch.glossary", patch.glossary()),
        topics);
    ChangeOptions opts = checkOptions(options);
    MemoryEntry cur = reads.current(grants, entryId);
    policy.requireWritable(grants, config.writePolicy(), cur.scope());
    return metered(grants, () -> edits.update(cur, valid, opts));
  }

  @Override
  public MemoryEntry glossaryAdd(Grants grants, String entryId, List<String> terms) {
    return glossaryAdd(grants, entryId, terms, ChangeOptions.defaults());
  }

  @Override
  public MemoryEntry glossaryRemove(Grants grants, String entryId, List<String> terms) {
    return glossaryRemove(grants, entryId, terms, ChangeOptions.defaults());
  }

  @Override
  public MemoryEntry glossaryAdd(Grants grants, String entryId, List<String> terms, ChangeOptions options) {
    ChangeOptions opts = checkOptions(options);
    MemoryEntry cur = glossaryTarget(grants, entryId, terms);
    return metered(grants, () -> edits.glossaryAdd(cur, Text.glossary("terms", terms), opts));
  }

  @Override
  public MemoryEntry glossaryRemove(Grants grants, String entryId, List<String> terms, ChangeOptions options) {
    ChangeOptions opts = checkOptions(options);
    MemoryEntry cur = glossaryTarget(grants, entryId, terms);
    return metered(grants, () -> edits.glossaryRemove(cur, Text.glossary("terms", terms), opts));
  }

  private MemoryEntry glossaryTarget(Grants grants, String entryId, List<String> terms) {
    open(grants);
    Text.id("entryId", entryId);
    Objects.requireNonNull(terms, "terms");
    if (terms.isEmpty()) {
      throw new InvalidInputException("terms", "at least one term is required");
    }
    Text.glossary("terms", terms);
    MemoryEntry cur = reads.current(grants, entryId);
    policy.requireWritable(grants, config.writePolicy(), cur.scope());
    return cur;
  }

  // ---- boot

  @Override
  public EngramOperator operator() {
    return operator;
  }

  /** The operator view: the engine's own maintenance calls behind {@link EngramOperator}. */
  private final class Operator implements EngramOperator {
    @Override
    public int reindex(Grants grants) {
      return MemoryEngine.this.reindex(grants);
    }

    @Override
    public VectorCacheStats vectorCacheStats() {
      return MemoryEngine.this.vectorCacheStats();
    }

    @Override
    public TransferReport export(Grants grants, Writer out) {
      return MemoryEngine.this.export(grants, out);
    }

    @Override
    public TransferReport importFrom(Grants grants, Reader in, ImportOptions options) {
      return MemoryEngine.this.importFrom(grants, in, options);
    }

    @Override
    public List<DirtyTopic> listDirtyTopics(int limit) {
      return MemoryEngine.this.listDirtyTopics(limit);
    }

    @Override
    public dev.engram.MaintenanceRunner startMaintenance(List<Grants> grants, dev.engram.MaintenanceOptions options) {
      return MemoryEngine.this.startMaintenance(grants, options);
    }
    public List<dev.engram.ModelUsageRow> modelUsage(Grants grants, dev.engram.ModelUsageQuery query) {
      return MemoryEngine.this.modelUsage(grants, query);
    }
  }

  // ---- maintenance

  private dev.engram.MaintenanceRunner startMaintenance(List<Grants> grants, dev.engram.MaintenanceOptions options) {
    Objects.requireNonNull(grants, "grants");
    Objects.requireNonNull(options, "options");
    requireOpen();
    if (grants.isEmpty()) {
      throw new InvalidInputException("grants", "at least one grants to maintain is needed");
    }
    List<Grants> checked = new ArrayList<>();
    for (Grants g : grants) {
      checked.add(policy.check(Objects.requireNonNull(g, "grants element")));
    }
    Maintenance runner = new Maintenance(this, store, checked, options, config.clock(), runners::remove);
    runners.add(runner);
    try {
      runner.start();
    } catch (RuntimeException e) {
      runners.remove(runner);
      runner.close();
      throw e;
    }
    if (closed.get()) {
      runner.close();
    }
    return runner;
  }

  /** Whether the reasoner has a curate step. */
  boolean curates() {
    return reasoner.curates();
  }

  /** Whether flush can run: the store keeps sources and the reasoner extracts. */
  boolean flushes() {
    return flush.available();
  }

  /** The scopes of the grants that curation may change: the grants themselves, when writable. */
  List<String> curatableScopes(Grants grants) {
    open(grants);
    List<String> out = new ArrayList<>();
    for (String scope : grants.namespaces()) {
      if (policy.writable(grants, config.writePolicy(), scope)) {
        out.add(scope);
      }
    }
    return out;
  }

  /** The writable scopes at or below the grants with captured records after their cursor. */
  List<String> pendingSourceScopes(Grants grants) {
    open(grants);
    return flush.pendingScopes(grants);
  }

  /** {@link #flush(Grants, FlushOptions)} of the scopes in {@code only}. */
  FlushReport flush(Grants grants, FlushOptions options, Set<String> only) {
    open(grants);
    Objects.requireNonNull(options, "options");
    return flush.flush(grants, options, only);
  }

  List<dev.engram.ModelUsageRow> modelUsage(Grants grants, dev.engram.ModelUsageQuery query) {
    open(grants);
    Objects.requireNonNull(query, "query");
    if (!meter.keeps()) {
      throw new dev.engram.CapabilityNotSupportedException(store.getClass().getSimpleName()
          + " does not declare MODEL_USAGE and keeps no model usage");
    }
    java.util.TreeSet<String> scopes = new java.util.TreeSet<>();
    for (String grant : grants.namespaces()) {
      if (query.descendants()) {
        scopes.addAll(store.scopesFrom(grant));
      }
      scopes.add(grant);
    }
    return store.modelUsage(scopes, query.from(), query.to());
  }

  @Override
  public BootBlock boot(Grants grants, String runtime) {
    open(grants);
    Objects.requireNonNull(runtime, "runtime");
    return BootNodes.block(store, grants, runtime);
  }

  /**
   * Every later call fails with {@link ErrorCode#STORE_CLOSED}; the store is closed too when the engine
   * owns it. Idempotent.
   */
  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      for (Maintenance runner : List.copyOf(runners)) {
        runner.close();
      }
      // the threads the engine started (vector completion, embedding, scan slices); executors handed in stay as they are
      reindex.close();
      if (embeddings != null) {
        embeddings.close();
      }
      vectorIndex.close();
      if (ownsStore) {
        store.close();
      }
    }
  }

  /**
   * Runs {@code op} with a model usage frame open on this thread, so the reasoner's model calls it makes
   * are counted for the scopes they were for (else for the first granted namespace).
   */
  private <T> T metered(Grants grants, java.util.function.Supplier<T> op) {
    try (ModelUsageMeter.Frame usage = meter.open(grants)) {
      return op.get();
    }
  }

  // ---- argument checks

  private static @Nullable Long expectedRevision(@Nullable Long expected) {
    if (expected != null && expected < 0) {
      throw new InvalidInputException("expectedRevision", "must be >= 0, was " + expected);
    }
    return expected;
  }

  /** Validates options and returns them with source and reason normalized. */
  private static ChangeOptions checkOptions(ChangeOptions options) {
    Objects.requireNonNull(options, "options");
    Long expected = expectedRevision(options.expectedRevision());
    String source = Text.optionalShort("source", options.source(), Text.MAX_SOURCE_CHARS);
    String reason = Text.optionalShort("reason", options.reason(), Text.MAX_REASON_CHARS);
    ChangeOptions.Builder b = ChangeOptions.builder();
    if (expected != null) {
      b.expectedRevision(expected);
    }
    if (source != null) {
      b.source(source);
    }
    if (reason != null) {
      b.reason(reason);
    }
    if (options.origin() != null) {
      b.origin(options.origin());
    }
    return b.build();
  }

  private static void checkCitation(Citation citation) {
    Objects.requireNonNull(citation, "citation");
    Namespaces.validate("citation.scope", citation.scope());
    Text.id("citation.entryId", citation.entryId());
    Text.id("citation.versionId", citation.versionId());
  }
}
