package dev.engram.internal;

import dev.engram.Change;
import dev.engram.ChangeKind;
import dev.engram.ChangeOptions;
import dev.engram.Citation;
import dev.engram.CurateReport;
import dev.engram.DirtyTopic;
import dev.engram.Engram;
import dev.engram.EntryStateException;
import dev.engram.EntryStatus;
import dev.engram.EntryType;
import dev.engram.ErrorCode;
import dev.engram.EventKind;
import dev.engram.Grants;
import dev.engram.InvalidInputException;
import dev.engram.ListOptions;
import dev.engram.MemoryEntry;
import dev.engram.MemoryEvent;
import dev.engram.MemoryException;
import dev.engram.Namespaces;
import dev.engram.NotFoundException;
import dev.engram.PriorityCapExceededException;
import dev.engram.ReadOptions;
import dev.engram.ReasonerException;
import dev.engram.Revision;
import dev.engram.RevisionConflictException;
import dev.engram.StoreException;
import dev.engram.TopicSummary;
import dev.engram.ContextRequest;
import dev.engram.PreparedContext;
import dev.engram.SearchRequest;
import dev.engram.SearchResult;
import dev.engram.TransferReport;
import dev.engram.ImportOptions;
import java.io.Reader;
import java.io.Writer;
import dev.engram.WritePolicy;
import dev.engram.WriteOptions;
import dev.engram.WriteResult;
import dev.engram.spi.CurateOp;
import dev.engram.spi.CurateRequest;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.Reasoner;
import dev.engram.spi.StoreReader;
import dev.engram.spi.StoreTransaction;
import dev.engram.spi.TagProposal;
import dev.engram.spi.TagRequest;
import dev.engram.spi.TopicState;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;

/**
 * The engine: validates and authorizes every call, runs the write pipeline and curation, and commits
 * each change through one store transaction. Thread-safe; all state lives in the store.
 */
public final class MemoryEngine implements Engram {
  static final String CURATOR = "curator";
  private static final int CANDIDATES_PER_TOPIC = 10;
  private static final int MAX_CANDIDATES = 10;
  private static final int CURATE_SLICE = 50;
  private static final int CURATE_TOPICS_PER_CALL = 50;
  private static final int MAX_CHANGES = 10_000;
  private static final int MAX_READ_TOPICS = 64;
  private static final Comparator<MemoryEntry> NEWEST_FIRST =
      Comparator.comparing(MemoryEntry::versionId).reversed();
  private static final Comparator<MemoryEntry> AUDIT_ORDER =
      Comparator.comparing(MemoryEntry::scope)
          .thenComparingLong(MemoryEntry::createdInRevision)
          .thenComparingInt(MemoryEntry::version)
          .thenComparing(MemoryEntry::versionId);

  private final MemoryStore store;
  private final Reasoner reasoner;
  private final EngineConfig config;
  private final GrantPolicy policy;
  private final SearchService search;

  public MemoryEngine(MemoryStore store, Reasoner reasoner, EngineConfig config) {
    this.store = Objects.requireNonNull(store, "store");
    this.reasoner = Objects.requireNonNull(reasoner, "reasoner");
    this.config = Objects.requireNonNull(config, "config");
    this.policy = new GrantPolicy(config.protectedNamespaces());
    this.search = new SearchService(store, reasoner, config.search(),
        config.embedder() == null ? null : new Embeddings(config.embedder()));
  }

  // ---------------------------------------------------------------------------------------------
  // write

  @Override
  public WriteResult write(Grants grants, String content, WriteOptions options) {
    policy.check(grants);
    Objects.requireNonNull(options, "options");
    String normalized = Text.content("content", content, config.maxContentBytes());
    List<String> hints = Text.topics("topicsHint", options.topicsHint(), false);
    int priority = options.priority() == null ? 2 : Text.priority("priority", options.priority());
    String disclosure = Text.optionalShort("disclosure", options.disclosure(), Text.MAX_DISCLOSURE_CHARS);
    List<String> glossary = Text.glossary("glossary", options.glossary());
    String path = Text.path("path", options.path());
    String source = Text.optionalShort("source", options.source(), Text.MAX_SOURCE_CHARS);
    List<String> evidence = Text.evidence("evidence", options.evidence());
    Long expected = expectedRevision(options.expectedRevision());
    WritePolicy writePolicy = options.writePolicy() != null ? options.writePolicy() : config.writePolicy();

    boolean context = reasoner.usesContext();
    if (context && path == null) {
      WriteResult known = canonicalDuplicate(grants, writePolicy, normalized, expected);
      if (known != null) {
        return known;
      }
    }
    List<String> visibleTopics = context ? visibleTopics(grants.visibleScopes()) : List.of();
    List<MemoryEntry> candidates = context ? candidates(grants, normalized, hints) : List.of();
    boolean embeds = search.embedsOnWrite();
    TagProposal proposal = tag(new TagRequest(
        grants.namespaces(), visibleTopics, normalized, hints, options.type(), candidates, embeds));
    Filed filed = validateProposal(proposal, grants, writePolicy, candidates);
    Embeddings.PendingVectors pending = !embeds
        || (path == null && filed.duplicateOf == null && store.findActiveByHash(filed.scope, filed.hash).isPresent())
        ? null
        : search.pendingFor(filed.content, disclosure, glossary, path, proposal.views());

    return store.inTransaction(filed.scope, tx -> {
      long head = tx.headRevision(filed.scope);
      checkExpected(filed.scope, expected, head);
      Instant now = now();
      if (filed.duplicateOf != null) {
        MemoryEntry dup = current(tx, filed.duplicateOf);
        if (dup != null && dup.isActive()) {
          return new WriteResult(WriteResult.Outcome.DEDUPED, dup, head);
        }
      }
      long rev = head + 1;
      if (path != null) {
        MemoryEntry existing = tx.findActiveByPath(filed.scope, path).orElse(null);
        if (existing != null) {
          if (existing.contentHash().equals(filed.hash)
              && existing.topics().equals(filed.topics)
              && existing.type() == filed.type
              && existing.priority() == priority
              && Objects.equals(existing.disclosure(), disclosure)
              && existing.glossary().equals(glossary)) {
            return new WriteResult(WriteResult.Outcome.DEDUPED, existing, head);
          }
          checkCap(tx, filed.scope, priority, existing);
          MemoryEntry next = new MemoryEntry(
              existing.entryId(), Ids.next(), existing.version() + 1, existing.versionId(), filed.scope,
              filed.content, filed.topics, filed.type, priority, disclosure, glossary, path, source, evidence,
              filed.hash, EntryStatus.ACTIVE, null, existing.createdAt(), now, rev);
          supersede(tx, existing, next, EventKind.UPDATE, ChangeKind.UPDATE, source, "path upsert", rev, now);
          putVectors(tx, pending, next);
          return new WriteResult(WriteResult.Outcome.UPDATED, next, rev);
        }
      }
      MemoryEntry dup = tx.findActiveByHash(filed.scope, filed.hash).orElse(null);
      if (dup != null) {
        return new WriteResult(WriteResult.Outcome.DEDUPED, dup, head);
      }
      checkCap(tx, filed.scope, priority, null);
      MemoryEntry entry = new MemoryEntry(
          Ids.next(), Ids.next(), 1, null, filed.scope, filed.content, filed.topics, filed.type, priority,
          disclosure, glossary, path, source, evidence, filed.hash, EntryStatus.ACTIVE, null, now, now, rev);
      tx.insertVersion(entry);
      putVectors(tx, pending, entry);
      tx.appendRevision(new Revision(filed.scope, rev, List.of(new Change(ChangeKind.APPEND, entry.entryId(),
          entry.versionId())), now));
      tx.appendEvent(new MemoryEvent(Ids.next(), filed.scope, entry.entryId(), EventKind.CREATE, null, entry,
          source, null, rev, now));
      tx.markTopicsWritten(filed.scope, entry.topics(), rev, now);
      return new WriteResult(WriteResult.Outcome.APPENDED, entry, rev);
    });
  }

  private record Filed(
      String scope, List<String> topics, EntryType type, String content, String hash, @Nullable String duplicateOf) {}

  private TagProposal tag(TagRequest request) {
    TagProposal proposal;
    try {
      proposal = reasoner.tag(request);
    } catch (ReasonerException e) {
      throw e;
    } catch (RuntimeException e) {
      throw new ReasonerException(ErrorCode.REASONER_FAILED, "reasoner.tag failed: " + e.getMessage(), e);
    }
    if (proposal == null) {
      throw ReasonerException.invalidOutput("tag returned null");
    }
    return proposal;
  }

  private Filed validateProposal(
      TagProposal p, Grants grants, WritePolicy writePolicy, List<MemoryEntry> candidates) {
    if (p.namespace() == null) {
      throw ReasonerException.invalidOutput("namespace is missing");
    }
    String scope;
    try {
      scope = Namespaces.validate("namespace", p.namespace());
    } catch (InvalidInputException e) {
      throw ReasonerException.invalidOutput(e.getMessage());
    }
    if (!policy.writable(grants, writePolicy, scope)) {
      throw ReasonerException.invalidOutput("namespace '" + scope + "' is not writable with " + grants);
    }
    if (p.topics() == null) {
      throw ReasonerException.invalidOutput("topics are missing");
    }
    if (p.type() == null) {
      throw ReasonerException.invalidOutput("type is missing");
    }
    if (p.content() == null) {
      throw ReasonerException.invalidOutput("content is missing");
    }
    List<String> topics;
    String content;
    try {
      topics = Text.topics("topics", p.topics(), true);
      content = Text.content("content", p.content(), config.maxContentBytes());
    } catch (InvalidInputException e) {
      throw ReasonerException.invalidOutput(e.getMessage());
    }
    String dupOf = p.duplicateOf();
    if (dupOf != null && candidates.stream().noneMatch(c -> c.entryId().equals(dupOf))) {
      throw ReasonerException.invalidOutput(
          "duplicateOf '" + dupOf + "' is not one of the " + candidates.size() + " candidates shown");
    }
    return new Filed(scope, topics, p.type(), content, Text.contentHash(content), dupOf);
  }

  /**
   * The active entry whose canonical content equals {@code normalized} in one of the granted
   * namespaces the caller may write, as a {@code DEDUPED} result; null when there is none. It runs
   * before the reasoner, so a repeated write never costs a model call.
   */
  private @Nullable WriteResult canonicalDuplicate(
      Grants grants, WritePolicy writePolicy, String normalized, @Nullable Long expected) {
    String hash = Text.contentHash(normalized);
    for (String scope : grants.namespaces()) {
      if (!policy.writable(grants, writePolicy, scope)) {
        continue;
      }
      MemoryEntry dup = store.findActiveByHash(scope, hash).orElse(null);
      if (dup != null) {
        long head = store.headRevision(scope);
        checkExpected(scope, expected, head);
        return new WriteResult(WriteResult.Outcome.DEDUPED, dup, head);
      }
    }
    return null;
  }

  /** Topics with active entries in the scopes, most used first (ties by name). */
  private List<String> visibleTopics(Collection<String> scopes) {
    Map<String, Integer> counts = new java.util.HashMap<>();
    for (TopicState t : store.topics(scopes)) {
      if (t.activeCount() > 0) {
        counts.merge(t.topic(), t.activeCount(), Integer::sum);
      }
    }
    List<String> topics = new ArrayList<>(counts.keySet());
    topics.sort(Comparator.<String>comparingInt(counts::get).reversed().thenComparing(Comparator.naturalOrder()));
    return List.copyOf(topics);
  }

  /**
   * Possible duplicates for the reasoner: the nearest active entries in the granted namespaces by
   * the search channels the wiring has (hybrid, else full text), then the newest of the hinted
   * topics, at most {@value #MAX_CANDIDATES}.
   */
  private List<MemoryEntry> candidates(Grants grants, String content, List<String> hints) {
    Map<String, MemoryEntry> out = new LinkedHashMap<>();
    for (MemoryEntry e : search.nearest(grants, content, MAX_CANDIDATES)) {
      if (grants.namespaces().contains(e.scope())) {
        out.putIfAbsent(e.entryId(), e);
      }
    }
    List<String> topics = hints.isEmpty() ? List.of(Text.DEFAULT_TOPIC) : hints;
    for (String topic : topics) {
      for (MemoryEntry e : store.activeByTopic(grants.namespaces(), topic, CANDIDATES_PER_TOPIC)) {
        if (out.size() < MAX_CANDIDATES && grants.namespaces().contains(e.scope())) {
          out.putIfAbsent(e.entryId(), e);
        }
      }
    }
    return List.copyOf(out.values());
  }

  // ---------------------------------------------------------------------------------------------
  // changes to existing entries

  @Override
  public MemoryEntry correct(Grants grants, String entryId, String content, ChangeOptions options) {
    policy.check(grants);
    Text.id("entryId", entryId);
    String normalized = Text.content("content", content, config.maxContentBytes());
    ChangeOptions opts = checkOptions(options);
    MemoryEntry cur = visibleCurrent(grants, entryId);
    policy.requireWritable(grants, config.writePolicy(), cur.scope());
    String hash = Text.contentHash(normalized);
    Embeddings.PendingVectors pending = cur.contentHash().equals(hash)
        ? null : search.pendingFor(normalized, cur.disclosure(), cur.glossary(), cur.path());
    return store.inTransaction(cur.scope(), tx -> {
      long head = tx.headRevision(cur.scope());
      checkExpected(cur.scope(), opts.expectedRevision(), head);
      MemoryEntry c = requireCurrent(tx, entryId);
      requireActive(c, "correct");
      if (c.contentHash().equals(hash)) {
        return c;
      }
      return newVersion(tx, c, normalized, c.topics(), c.type(), c.priority(), c.disclosure(), c.glossary(),
          opts.source(), EventKind.UPDATE, ChangeKind.UPDATE, opts.reason(), head + 1, pending);
    });
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
    policy.check(grants);
    checkCitation(citation);
    ChangeOptions opts = checkOptions(options);
    policy.requireVisible(grants, citation.scope(), "entry " + citation.entryId());
    policy.requireWritable(grants, config.writePolicy(), citation.scope());
    return store.inTransaction(citation.scope(), tx -> {
      long head = tx.headRevision(citation.scope());
      checkExpected(citation.scope(), opts.expectedRevision(), head);
      MemoryEntry c = current(tx, citation.entryId());
      MemoryEntry cited = tx.version(citation.versionId()).orElse(null);
      if (c == null || cited == null
          || !cited.entryId().equals(citation.entryId())
          || !cited.scope().equals(citation.scope())
          || cited.createdInRevision() != citation.revision()) {
        throw new NotFoundException("no version matches citation " + citation.render() + " for " + grants);
      }
      if (!c.versionId().equals(citation.versionId())) {
        throw new RevisionConflictException(citation.scope(), null, head,
            "citation names version " + citation.versionId() + " but the current version of entry "
                + c.entryId() + " is " + c.versionId() + "; read the current state and decide again");
      }
      Instant now = now();
      long rev = head + 1;
      if (target == EntryStatus.RETIRED) {
        if (c.status() != EntryStatus.ACTIVE) {
          throw new EntryStateException("entry " + c.entryId() + " is " + c.status() + ", not ACTIVE; it cannot be retired");
        }
      } else {
        if (c.status() != EntryStatus.RETIRED) {
          throw new EntryStateException("entry " + c.entryId() + " is " + c.status() + ", not RETIRED; it cannot be reactivated");
        }
        requirePathFree(tx, c);
        checkCap(tx, c.scope(), c.priority(), null);
      }
      return changeStatus(tx, c, target, opts.source(), opts.reason(), rev, now);
    });
  }

  /** Retires or reactivates the current version {@code c} as revision {@code rev}, with its event. */
  static MemoryEntry changeStatus(
      StoreTransaction tx, MemoryEntry c, EntryStatus target, @Nullable String actor, @Nullable String reason,
      long rev, Instant now) {
    MemoryEntry after = c.withStatus(target, null, now);
    tx.updateStatus(c.versionId(), target, null, now);
    ChangeKind kind = target == EntryStatus.RETIRED ? ChangeKind.RETIRE : ChangeKind.REACTIVATE;
    tx.appendRevision(new Revision(c.scope(), rev, List.of(new Change(kind, c.entryId(), c.versionId())), now));
    tx.appendEvent(new MemoryEvent(Ids.next(), c.scope(), c.entryId(),
        target == EntryStatus.RETIRED ? EventKind.RETIRE : EventKind.REACTIVATE, c, after, actor, reason, rev, now));
    tx.markTopicsWritten(c.scope(), c.topics(), rev, now);
    return after;
  }

  @Override
  public MemoryEntry rollback(Grants grants, String eventId, ChangeOptions options) {
    policy.check(grants);
    Text.id("eventId", eventId);
    ChangeOptions opts = checkOptions(options);
    MemoryEvent event = store.event(eventId).orElse(null);
    if (event == null || !grants.canSee(event.scope())) {
      throw new NotFoundException("event " + eventId + " not found or not visible to " + grants);
    }
    if (!event.kind().restorable() || event.after() == null) {
      throw new EntryStateException("event " + eventId + " is a " + event.kind()
          + " event; only CREATE, UPDATE and ROLLBACK events can be rolled back to");
    }
    policy.requireWritable(grants, config.writePolicy(), event.scope());
    MemoryEntry snap = event.after();
    MemoryEntry before = current(store, event.entryId());
    Embeddings.PendingVectors pending = before == null
        ? null : search.pendingFor(snap.content(), snap.disclosure(), snap.glossary(), before.path());
    return store.inTransaction(event.scope(), tx -> {
      long head = tx.headRevision(event.scope());
      checkExpected(event.scope(), opts.expectedRevision(), head);
      MemoryEntry c = requireCurrent(tx, event.entryId());
      if (c.isActive()
          && c.contentHash().equals(snap.contentHash())
          && c.priority() == snap.priority()
          && Objects.equals(c.disclosure(), snap.disclosure())
          && c.glossary().equals(snap.glossary())) {
        return c;
      }
      if (!c.isActive()) {
        requirePathFree(tx, c);
      }
      checkCap(tx, c.scope(), snap.priority(), c.isActive() ? c : null);
      String reason = opts.reason() != null ? opts.reason() : "rollback to event " + eventId;
      return newVersion(tx, c, snap.content(), c.topics(), c.type(), snap.priority(), snap.disclosure(),
          snap.glossary(), opts.source(), EventKind.ROLLBACK, ChangeKind.ROLLBACK, reason, head + 1, pending);
    });
  }

  /** Writes {@code next} content as a new version of {@code cur}, superseding it, in one revision. */
  private MemoryEntry newVersion(
      StoreTransaction tx, MemoryEntry cur, String content, List<String> topics, EntryType type, int priority,
      @Nullable String disclosure, List<String> glossary, @Nullable String source, EventKind eventKind,
      ChangeKind changeKind, @Nullable String reason, long rev, Embeddings.@Nullable PendingVectors pending) {
    Instant now = now();
    MemoryEntry next = new MemoryEntry(
        cur.entryId(), Ids.next(), cur.version() + 1, cur.versionId(), cur.scope(), content, topics, type,
        priority, disclosure, glossary, cur.path(), source, cur.evidence(), Text.contentHash(content),
        EntryStatus.ACTIVE, null, cur.createdAt(), now, rev);
    supersede(tx, cur, next, eventKind, changeKind, source, reason, rev, now);
    putVectors(tx, pending, next);
    return next;
  }

  private void putVectors(StoreTransaction tx, Embeddings.@Nullable PendingVectors pending, MemoryEntry version) {
    String profile = search.profileId();
    if (pending != null && profile != null && pending.matches(version)) {
      tx.putVectors(profile, pending.bind(version.versionId()));
    }
  }

  private void supersede(
      StoreTransaction tx, MemoryEntry cur, MemoryEntry next, EventKind eventKind, ChangeKind changeKind,
      @Nullable String actor, @Nullable String reason, long rev, Instant now) {
    tx.updateStatus(cur.versionId(), EntryStatus.SUPERSEDED, next.versionId(), now);
    tx.insertVersion(next);
    tx.appendRevision(new Revision(cur.scope(), rev, List.of(
        new Change(changeKind, next.entryId(), next.versionId()),
        new Change(ChangeKind.SUPERSEDE, cur.entryId(), cur.versionId())), now));
    tx.appendEvent(new MemoryEvent(Ids.next(), cur.scope(), cur.entryId(), eventKind, cur, next, actor, reason,
        rev, now));
    Set<String> topics = new LinkedHashSet<>(cur.topics());
    topics.addAll(next.topics());
    tx.markTopicsWritten(cur.scope(), topics, rev, now);
  }

  // ---------------------------------------------------------------------------------------------
  // erasure

  @Override
  public int deleteEntry(Grants grants, String entryId) {
    policy.check(grants);
    Text.id("entryId", entryId);
    MemoryEntry cur = visibleCurrent(grants, entryId);
    policy.requireWritable(grants, config.writePolicy(), cur.scope());
    return store.inTransaction(cur.scope(), tx -> {
      Set<String> topics = new HashSet<>();
      for (MemoryEntry v : tx.versions(entryId)) {
        topics.addAll(v.topics());
      }
      int removed = tx.eraseEntry(entryId);
      if (removed == 0) {
        throw new NotFoundException("entry " + entryId + " not found or not visible to " + grants);
      }
      long rev = tx.headRevision(cur.scope()) + 1;
      Instant now = now();
      tx.appendRevision(new Revision(cur.scope(), rev, List.of(new Change(ChangeKind.DELETE, entryId, null)), now));
      List<String> remaining = new ArrayList<>();
      for (TopicState t : tx.topics(List.of(cur.scope()))) {
        if (topics.contains(t.topic())) {
          remaining.add(t.topic());
        }
      }
      tx.markTopicsWritten(cur.scope(), remaining, rev, now);
      return removed;
    });
  }

  @Override
  public int deleteScope(Grants grants, String prefix, boolean recursive) {
    policy.check(grants);
    Namespaces.validate("prefix", prefix);
    policy.requireWritable(grants, config.writePolicy(), prefix);
    List<String> scopes = store.scopes(prefix, recursive);
    for (String scope : scopes) {
      policy.requireWritable(grants, config.writePolicy(), scope);
    }
    int total = 0;
    for (String scope : scopes) {
      total += store.inTransaction(scope, tx -> {
        Set<String> entryIds = new TreeSet<>();
        for (MemoryEntry v : tx.versionsIn(List.of(scope), EnumSet.allOf(EntryStatus.class))) {
          entryIds.add(v.entryId());
        }
        int removed = tx.eraseScopeContent();
        if (!entryIds.isEmpty()) {
          List<Change> changes = new ArrayList<>();
          for (String id : entryIds) {
            changes.add(new Change(ChangeKind.DELETE, id, null));
          }
          tx.appendRevision(new Revision(scope, tx.headRevision(scope) + 1, changes, now()));
        }
        return removed;
      });
    }
    return total;
  }

  // ---------------------------------------------------------------------------------------------
  // reads

  @Override
  public List<MemoryEntry> read(Grants grants, List<String> topics, ReadOptions options) {
    policy.check(grants);
    Objects.requireNonNull(topics, "topics");
    Objects.requireNonNull(options, "options");
    if (topics.isEmpty()) {
      throw new InvalidInputException("topics", "at least one topic is required");
    }
    if (topics.size() > MAX_READ_TOPICS) {
      throw new InvalidInputException("topics", topics.size() + " topics; the limit is " + MAX_READ_TOPICS);
    }
    List<String> normalized = Text.topics("topics", topics, false);
    Map<String, MemoryEntry> out = new LinkedHashMap<>();
    for (String topic : normalized) {
      for (MemoryEntry e : store.activeByTopic(grants.visibleScopes(), topic, options.limit())) {
        if (e.isActive() && grants.canSee(e.scope())) {
          out.putIfAbsent(e.entryId(), e);
        }
      }
    }
    List<MemoryEntry> result = new ArrayList<>(out.values());
    result.sort(NEWEST_FIRST);
    return List.copyOf(result);
  }

  @Override
  public List<TopicSummary> scan(Grants grants) {
    policy.check(grants);
    List<TopicSummary> out = new ArrayList<>();
    for (TopicState t : store.topics(grants.visibleScopes())) {
      if (grants.canSee(t.scope())) {
        out.add(new TopicSummary(t.scope(), t.topic(), t.activeCount(), t.blurb(), t.lastUpdatedAt(), t.dirty()));
      }
    }
    out.sort(Comparator.comparing(TopicSummary::scope).thenComparing(TopicSummary::topic));
    return List.copyOf(out);
  }

  @Override
  public List<MemoryEntry> list(Grants grants, ListOptions options) {
    policy.check(grants);
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
    List<MemoryEntry> out = new ArrayList<>();
    for (MemoryEntry e : store.versionsIn(scopes, statuses)) {
      if (grants.canSee(e.scope()) && statuses.contains(e.status()) && (topic == null || e.topics().contains(topic))) {
        out.add(e);
      }
    }
    out.sort(AUDIT_ORDER);
    return List.copyOf(out);
  }

  @Override
  public MemoryEntry get(Grants grants, Citation citation) {
    policy.check(grants);
    checkCitation(citation);
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

  @Override
  public MemoryEntry get(Grants grants, String entryId) {
    policy.check(grants);
    Text.id("entryId", entryId);
    return visibleCurrent(grants, entryId);
  }

  @Override
  public List<MemoryEvent> history(Grants grants, String entryId) {
    policy.check(grants);
    Text.id("entryId", entryId);
    MemoryEntry cur = visibleCurrent(grants, entryId);
    List<MemoryEvent> out = new ArrayList<>();
    for (MemoryEvent e : store.events(entryId)) {
      if (e.scope().equals(cur.scope())) {
        out.add(e);
      }
    }
    return List.copyOf(out);
  }

  @Override
  public long revision(Grants grants, String scope) {
    policy.check(grants);
    Namespaces.validate("scope", scope);
    policy.requireVisible(grants, scope, "scope " + scope);
    return store.headRevision(scope);
  }

  @Override
  public List<Revision> changes(Grants grants, String scope, long sinceRevision) {
    policy.check(grants);
    Namespaces.validate("scope", scope);
    if (sinceRevision < 0) {
      throw new InvalidInputException("sinceRevision", "must be >= 0, was " + sinceRevision);
    }
    policy.requireVisible(grants, scope, "scope " + scope);
    return store.revisions(scope, sinceRevision, MAX_CHANGES);
  }

  // ---------------------------------------------------------------------------------------------
  // search and context

  @Override
  public SearchResult search(Grants grants, SearchRequest request) {
    policy.check(grants);
    Objects.requireNonNull(request, "request");
    return search.search(grants, request);
  }

  @Override
  public PreparedContext prepareContext(Grants grants, ContextRequest request) {
    policy.check(grants);
    Objects.requireNonNull(request, "request");
    return search.prepareContext(grants, request);
  }

  @Override
  public int reindex(Grants grants) {
    policy.check(grants);
    return search.reindex(grants);
  }

  // ---------------------------------------------------------------------------------------------
  // export / import

  @Override
  public TransferReport export(Grants grants, Writer out) {
    policy.check(grants);
    return new Transfer(store, config, policy).export(grants, out);
  }

  @Override
  public TransferReport importFrom(Grants grants, Reader in, ImportOptions options) {
    policy.check(grants);
    return new Transfer(store, config, policy).importFrom(grants, in, options);
  }

  // ---------------------------------------------------------------------------------------------
  // curation

  @Override
  public CurateReport curate(Grants grants) {
    policy.check(grants);
    if (!reasoner.curates()) {
      return new CurateReport(false, List.of(), List.of(), List.of());
    }
    List<DirtyTopic> curated = new ArrayList<>();
    List<String> applied = new ArrayList<>();
    List<String> rejected = new ArrayList<>();
    List<TopicState> dirty = new ArrayList<>();
    for (TopicState t : store.topics(grants.namespaces())) {
      if (t.dirty() && grants.namespaces().contains(t.scope())
          && policy.writable(grants, config.writePolicy(), t.scope()) && dirty.size() < CURATE_TOPICS_PER_CALL) {
        dirty.add(t);
      }
    }
    for (TopicState t : dirty) {
      List<MemoryEntry> slice = store.activeByTopic(List.of(t.scope()), t.topic(), CURATE_SLICE);
      List<CurateOp> ops;
      try {
        ops = reasoner.curate(new CurateRequest(t.scope(), t.topic(), t.blurb(), slice));
      } catch (ReasonerException e) {
        throw e;
      } catch (RuntimeException e) {
        throw new ReasonerException(ErrorCode.REASONER_FAILED, "reasoner.curate failed: " + e.getMessage(), e);
      }
      if (ops == null) {
        rejected.add(t.scope() + "/" + t.topic() + ": reasoner returned null");
        continue;
      }
      Set<String> shown = new HashSet<>();
      for (MemoryEntry e : slice) {
        shown.add(e.entryId());
      }
      String blurb = null;
      for (CurateOp op : ops) {
        String label = t.scope() + "/" + t.topic() + " " + describe(op);
        try {
          if (op instanceof CurateOp.Blurb b) {
            blurb = Text.shortText("blurb", b.blurb(), Text.MAX_DISCLOSURE_CHARS);
          } else {
            new Curation(this, t.scope(), shown).apply(op);
          }
          applied.add(label);
        } catch (StoreException e) {
          throw e;
        } catch (MemoryException | NullPointerException e) {
          rejected.add(label + ": " + e.getMessage());
        }
      }
      String finalBlurb = blurb;
      long at = store.inTransaction(t.scope(), tx -> {
        long head = tx.headRevision(t.scope());
        tx.markTopicCurated(t.scope(), t.topic(), head, finalBlurb);
        return head;
      });
      curated.add(new DirtyTopic(t.scope(), t.topic(), t.lastWriteRevision(), at));
    }
    if (!curated.isEmpty() && search.profileId() != null
        && store.capabilities().contains(dev.engram.spi.StoreCapability.VECTOR_STORAGE)) {
      List<String> scopes = new ArrayList<>(new TreeSet<>(curated.stream().map(DirtyTopic::scope).toList()));
      try {
        search.reindex(Grants.of(scopes));
      } catch (MemoryException | IllegalStateException e) {
        rejected.add("reindex after curation failed (vectors stay incomplete until reindex): " + e.getMessage());
      }
    }
    return new CurateReport(true, curated, applied, rejected);
  }

  private static String describe(@Nullable CurateOp op) {
    return op == null ? "null op" : op.getClass().getSimpleName().toLowerCase(java.util.Locale.ROOT);
  }

  @Override
  public List<DirtyTopic> listDirtyTopics(int limit) {
    if (limit < 1 || limit > 100_000) {
      throw new InvalidInputException("limit", "must be between 1 and 100000, was " + limit);
    }
    List<DirtyTopic> out = new ArrayList<>();
    for (TopicState t : store.dirtyTopics(limit)) {
      out.add(new DirtyTopic(t.scope(), t.topic(), t.lastWriteRevision(), t.lastCuratedRevision()));
    }
    return List.copyOf(out);
  }

  @Override
  public void close() {
    store.close();
  }

  // ---------------------------------------------------------------------------------------------
  // helpers shared with Curation

  MemoryStore store() {
    return store;
  }

  EngineConfig config() {
    return config;
  }

  Instant now() {
    return config.clock().instant();
  }

  MemoryEntry versionFor(
      StoreTransaction tx, MemoryEntry cur, String content, List<String> topics, @Nullable String reason,
      EventKind kind, ChangeKind changeKind, long rev) {
    return newVersion(tx, cur, content, topics, cur.type(), cur.priority(), cur.disclosure(), cur.glossary(),
        CURATOR, kind, changeKind, reason, rev, null);
  }

  static @Nullable MemoryEntry current(StoreReader reader, String entryId) {
    List<MemoryEntry> versions = reader.versions(entryId);
    return versions.isEmpty() ? null : versions.get(versions.size() - 1);
  }

  private static MemoryEntry requireCurrent(StoreReader reader, String entryId) {
    MemoryEntry c = current(reader, entryId);
    if (c == null) {
      throw new NotFoundException("entry " + entryId + " not found");
    }
    return c;
  }

  private MemoryEntry visibleCurrent(Grants grants, String entryId) {
    MemoryEntry c = current(store, entryId);
    if (c == null || !grants.canSee(c.scope())) {
      throw new NotFoundException("entry " + entryId + " not found or not visible to " + grants);
    }
    return c;
  }

  static void requireActive(MemoryEntry c, String operation) {
    if (!c.isActive()) {
      throw new EntryStateException(
          "entry " + c.entryId() + " is " + c.status() + "; only ACTIVE entries can " + operation
              + (c.status() == EntryStatus.RETIRED ? " (reactivate it first)" : ""));
    }
  }

  private static void requirePathFree(StoreTransaction tx, MemoryEntry c) {
    if (c.path() != null) {
      MemoryEntry holder = tx.findActiveByPath(c.scope(), c.path()).orElse(null);
      if (holder != null && !holder.entryId().equals(c.entryId())) {
        throw new EntryStateException("path '" + c.path() + "' is now held by active entry " + holder.entryId());
      }
    }
  }

  void checkCap(StoreTransaction tx, String scope, int priority, @Nullable MemoryEntry replacing) {
    if (priority > 1) {
      return;
    }
    int cap = priority == 0 ? config.corePriorityCap() : config.keyPriorityCap();
    String top = Namespaces.topLevel(scope);
    int count = tx.countActiveWithPriority(top, priority);
    if (replacing != null && replacing.isActive() && replacing.priority() == priority) {
      count--;
    }
    if (count >= cap) {
      throw new PriorityCapExceededException(top, priority, cap);
    }
  }

  private static void checkExpected(String scope, @Nullable Long expected, long head) {
    if (expected != null && expected != head) {
      throw new RevisionConflictException(scope, expected, head,
          "scope " + scope + " is at revision " + head + ", not the expected " + expected);
    }
  }

  private static @Nullable Long expectedRevision(@Nullable Long expected) {
    if (expected != null && expected < 0) {
      throw new InvalidInputException("expectedRevision", "must be >= 0, was " + expected);
    }
    return expected;
  }

  /** Validates options and returns them with source and reason normalized. */
  private static ChangeOptions checkOptions(ChangeOptions options) {
    Objects.requireNonNull(options, "options");
    return new ChangeOptions(
        expectedRevision(options.expectedRevision()),
        Text.optionalShort("source", options.source(), Text.MAX_SOURCE_CHARS),
        Text.optionalShort("reason", options.reason(), Text.MAX_REASON_CHARS));
  }

  private static void checkCitation(Citation citation) {
    Objects.requireNonNull(citation, "citation");
    Namespaces.validate("citation.scope", citation.scope());
    Text.id("citation.entryId", citation.entryId());
    Text.id("citation.versionId", citation.versionId());
  }
}
