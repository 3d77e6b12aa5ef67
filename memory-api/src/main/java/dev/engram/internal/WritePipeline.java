/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.internal;

import dev.engram.EntryStatus;
import dev.engram.EntryType;
import dev.engram.ErrorCode;
import dev.engram.EventKind;
import dev.engram.ChangeKind;
import dev.engram.Grants;
import dev.engram.InvalidInputException;
import dev.engram.MemoryEntry;
import dev.engram.Namespaces;
import dev.engram.ReasonerException;
import dev.engram.WritePolicy;
import dev.engram.WriteResult;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.EntryViews;
import dev.engram.spi.Reasoner;
import dev.engram.spi.TagFailure;
import dev.engram.spi.TagProposal;
import dev.engram.spi.TagRequest;
import dev.engram.spi.TopicState;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The write pipeline: visible topics and candidates → reasoner.tag → the proposal validated as
 * untrusted → the caller's fields over it → canonical dedupe (a path write only against the entry at
 * its path) → one commit.
 *
 * <p>The caller's fields win: a type the caller gave replaces the proposed one, the caller's topics
 * are kept and the proposed ones follow them (up to the topic limit). When the tag step fails (the
 * reasoner throws, or its proposal is refused), a write whose caller gave its type and topics, or any
 * write of a reasoner whose {@link Reasoner#tagFailure()} is {@link TagFailure#FILE_DETERMINISTICALLY},
 * is filed without the reasoner: first writable grant, the caller's topics or {@code general}, the
 * caller's type or {@code fact}, the content as written, rule-based views; a warning on the result and
 * one WARN line say so. Otherwise the write fails and nothing is stored.
 *
 * <p>There is one path for one write and for a batch ({@link #writeAll}): a single write is the batch of
 * one. The items of a batch are filed one by one, then the items of each target scope are applied in
 * request order inside one commit (one transaction, one revision); an item a check refuses is rejected
 * alone, a failure of the commit rejects its whole scope.
 */
final class WritePipeline {
  private static final Logger LOG = LoggerFactory.getLogger(WritePipeline.class);
  private static final int CANDIDATES_PER_TOPIC = 10;
  private static final int MAX_CANDIDATES = 10;
  private static final int DEFAULT_PRIORITY = 2;

  /** A write's validated input. */
  record Input(
      String content, List<String> hints, @Nullable EntryType typeHint, @Nullable Integer priority,
      @Nullable String disclosure,
      @Nullable List<String> glossary, @Nullable String path, @Nullable String source, List<String> evidence,
      @Nullable Long expectedRevision, WritePolicy writePolicy, java.time.@Nullable Instant occurredAt,
      @Nullable String origin) {}

  private record Filed(
      String scope, List<String> topics, EntryType type, String content, String hash, @Nullable String duplicateOf) {}

  private final MemoryStore store;
  private final Reasoner reasoner;
  private final EngineConfig config;
  private final GrantPolicy policy;
  private final SearchService search;
  private final WriteVectors writeVectors;
  private final Commits commits;
  private final ModelUsageMeter meter;

  WritePipeline(
      MemoryStore store, Reasoner reasoner, EngineConfig config, GrantPolicy policy, SearchService search,
      WriteVectors writeVectors, Commits commits, ModelUsageMeter meter) {
    this.meter = meter;
    this.store = store;
    this.reasoner = reasoner;
    this.config = config;
    this.policy = policy;
    this.search = search;
    this.writeVectors = writeVectors;
    this.commits = commits;
  }

  /**
   * One item of a batch: its validated input (or the error that rejected it before the pipeline), and
   * what the pipeline made of it.
   */
  static final class Slot {
    private final @Nullable Input input;
    private @Nullable Filed filed;
    private Embeddings.@Nullable PendingVectors vectors;
    private @Nullable WriteResult attempt;
    private @Nullable WriteResult result;
    private @Nullable RuntimeException error;
    private @Nullable String warning;

    private Slot(@Nullable Input input, @Nullable RuntimeException error) {
      this.input = input;
      this.error = error;
    }

    static Slot of(Input input) {
      return new Slot(Objects.requireNonNull(input, "input"), null);
    }

    static Slot rejected(RuntimeException error) {
      return new Slot(null, Objects.requireNonNull(error, "error"));
    }

    /** What the write did, or null when it was rejected. */
    @Nullable WriteResult result() {
      return result;
    }

    /** Why it was rejected, or null when it was written. */
    @Nullable RuntimeException error() {
      return error;
    }
  }

  /** One write: the batch of one item, its error thrown. */
  WriteResult write(Grants grants, Input in) {
    Slot slot = Slot.of(in);
    writeAll(grants, List.of(slot));
    if (slot.error != null) {
      throw slot.error;
    }
    return Objects.requireNonNull(slot.result, "result");
  }

  /**
   * Writes the slots that have an input: each is filed (canonical dedupe before the reasoner, tag,
   * validation, vectors) on its own, then the items of each target scope commit in one commit, in
   * request order. An item a check refuses is rejected alone (every {@link Commit} check runs before
   * the mutation it guards); a failure of the commit itself rejects every item of that scope.
   */
  void writeAll(Grants grants, List<Slot> slots) {
    List<String> unrecorded;
    try (ModelUsageMeter.Frame usage = meter.open(grants)) {
      writeAllMetered(grants, slots);
      usage.close();
      unrecorded = usage.unrecorded();
    }
    // the model usage is recorded after the commits, apart from them: its failure is only a warning
    for (Slot slot : slots) {
      WriteResult r = slot.result;
      if (r != null && unrecorded.contains(r.entry().scope())) {
        List<String> warnings = new ArrayList<>(r.warnings());
        warnings.add(ModelUsageMeter.Frame.warning(r.entry().scope()));
        slot.result = r.withWarnings(warnings);
      }
    }
  }

  private void writeAllMetered(Grants grants, List<Slot> slots) {
    Map<String, List<Slot>> byScope = new LinkedHashMap<>();
    for (Slot slot : slots) {
      if (slot.input == null) {
        continue;
      }
      try {
        file(grants, slot, byScope);
      } catch (RuntimeException e) {
        slot.error = e;
      }
    }
    Map<String, Long> heads = new java.util.HashMap<>();
    for (Map.Entry<String, List<Slot>> scope : byScope.entrySet()) {
      Long after = commitScope(scope.getKey(), scope.getValue());
      if (after != null) {
        heads.put(scope.getKey(), after);
      }
    }
    // a duplicate found before the reasoner reports its scope's revision after the batch, too
    for (Slot slot : slots) {
      WriteResult r = slot.result;
      if (r != null && r.outcome() == WriteResult.Outcome.DEDUPED) {
        Long after = heads.get(r.entry().scope());
        if (after != null && after != r.revision()) {
          slot.result = new WriteResult(r.outcome(), r.entry(), after, r.warnings());
        }
      }
    }
  }

  private void file(Grants grants, Slot slot, Map<String, List<Slot>> byScope) {
    Input in = Objects.requireNonNull(slot.input);
    boolean context = reasoner.usesContext();
    if (context && in.path() == null) {
      WriteResult known = canonicalDuplicate(grants, in);
      if (known != null) {
        slot.result = known;
        return;
      }
    }
    List<String> visibleTopics = context ? visibleTopics(grants.visibleScopes()) : List.of();
    List<MemoryEntry> candidates = context ? candidates(grants, in.content(), in.hints()) : List.of();
    Filed filed;
    @Nullable EntryViews views;
    try {
      TagProposal proposal = tag(new TagRequest(grants.namespaces(), visibleTopics, in.content(), in.hints(),
          in.typeHint(), candidates, writeVectors.embedsOnWrite()));
      filed = callersFields(validateProposal(proposal, grants, in.writePolicy(), candidates), in);
      views = proposal.views();
    } catch (ReasonerException e) {
      boolean explicit = in.typeHint() != null && !in.hints().isEmpty();
      if (!explicit && reasoner.tagFailure() != TagFailure.FILE_DETERMINISTICALLY
          || Thread.currentThread().isInterrupted()) {
        throw e;
      }
      filed = withoutReasoner(grants, in, e);
      // rule-based views: a reasoner that just failed is not asked again
      views = Views.ruleBased(filed.content, in.disclosure(), in.glossary() == null ? List.of() : in.glossary(),
          in.path());
      slot.warning = "filed without the reasoner, whose tag step failed (" + e.code() + "): in the first granted"
          + " namespace, " + (explicit ? "with the caller's type and topics"
              : "under the caller's topics or '" + Text.DEFAULT_TOPIC + "', as the caller's type or '"
                  + EntryType.FACT.wireName() + "'")
          + ", with the content as written; only exact duplicates were looked for";
      // the exception's class and code only: a reasoner's message may quote the content
      LOG.warn("The reasoner's tag step failed ({}, {}); the write is filed without it{}", e.code(),
          e.getCause() != null ? e.getCause().getClass().getName() : e.getClass().getName(),
          explicit ? " from the caller's type and topics" : ", deterministically");
    }
    meter.attribute(filed.scope);
    List<Slot> sameScope = byScope.computeIfAbsent(filed.scope, k -> new ArrayList<>());
    // A likely duplicate is not embedded up front; the commit asks for vectors if it turns out to store one.
    if (writeVectors.embedsOnWrite() && !likelyDuplicate(filed, in, sameScope)) {
      slot.vectors = writeVectors.pendingFor(filed.scope, filed.content, in.disclosure(),
          in.glossary() == null ? List.of() : in.glossary(), in.path(), views);
    }
    slot.filed = filed;
    sameScope.add(slot);
  }

  private boolean likelyDuplicate(Filed filed, Input in, List<Slot> sameScope) {
    if (in.path() != null) {
      return false;
    }
    if (filed.duplicateOf != null) {
      return true;
    }
    for (Slot earlier : sameScope) {
      Filed f = Objects.requireNonNull(earlier.filed);
      if (f.hash.equals(filed.hash) && Objects.requireNonNull(earlier.input).path() == null) {
        return true;
      }
    }
    return store.findActiveByHash(filed.scope, filed.hash).isPresent();
  }

  /**
   * Commits the filed items of one scope together; each keeps its own outcome. Returns the scope's
   * head afterwards, or null when the commit failed.
   */
  private @Nullable Long commitScope(String scope, List<Slot> items) {
    List<Embeddings.PendingVectors> prepared = new ArrayList<>();
    for (Slot slot : items) {
      if (slot.vectors != null) {
        prepared.add(slot.vectors);
      }
    }
    List<String> hashes = new ArrayList<>();
    for (Slot slot : items) {
      if (Objects.requireNonNull(slot.input).path() == null) {
        hashes.add(Objects.requireNonNull(slot.filed).hash);
      }
    }
    long after;
    try {
      after = commits.run(scope, prepared, hashes, c -> {
        c.prefetchContent(hashes);
        for (Slot slot : items) {
          slot.attempt = null;
          slot.error = null;
          try {
            slot.attempt = c.reportVectors(commit(c, Objects.requireNonNull(slot.filed), Objects.requireNonNull(slot.input)));
          } catch (dev.engram.MemoryException e) {
            if (e instanceof dev.engram.StoreException) {
              throw e;
            }
            slot.error = e;
          }
        }
        return c.changed() ? c.revision() : c.head();
      });
    } catch (RuntimeException e) {
      for (Slot slot : items) {
        slot.attempt = null;
        slot.error = e;
      }
      return null;
    }
    for (Slot slot : items) {
      WriteResult attempt = slot.attempt;
      if (attempt != null && slot.warning != null) {
        List<String> warnings = new ArrayList<>(attempt.warnings());
        warnings.add(0, slot.warning);
        attempt = attempt.withWarnings(warnings);
      }
      slot.result = attempt;
    }
    return after;
  }

  /**
   * The validated proposal with the caller's fields over it: the caller's type instead of the
   * proposed one, the caller's topics first and the proposed ones after them, up to the topic limit.
   */
  private static Filed callersFields(Filed proposed, Input in) {
    EntryType type = in.typeHint() != null ? in.typeHint() : proposed.type;
    List<String> topics = proposed.topics;
    if (!in.hints().isEmpty()) {
      java.util.LinkedHashSet<String> merged = new java.util.LinkedHashSet<>(in.hints());
      for (String t : proposed.topics) {
        if (merged.size() < Text.MAX_TOPICS) {
          merged.add(t);
        }
      }
      topics = List.copyOf(merged);
    }
    return new Filed(proposed.scope, topics, type, proposed.content, proposed.hash, proposed.duplicateOf);
  }

  /**
   * The write filed the way the deterministic reasoner files it: the first granted namespace the
   * write may use, the caller's topics (or the default topic), the caller's type (or fact), the content
   * as written, no duplicate named. Throws {@code failure} when no granted namespace is writable.
   */
  private Filed withoutReasoner(Grants grants, Input in, ReasonerException failure) {
    for (String scope : grants.namespaces()) {
      if (policy.writable(grants, in.writePolicy(), scope)) {
        TagProposal own = new TagProposal(scope, in.hints(), in.typeHint() != null ? in.typeHint() : EntryType.FACT,
            in.content(), null);
        return validateProposal(own, grants, in.writePolicy(), List.of());
      }
    }
    throw failure;
  }

  private WriteResult commit(Commit c, Filed filed, Input in) {
    c.expect(in.expectedRevision());
    c.origin(in.origin());
    String path = in.path();
    if (path == null) {
      if (filed.duplicateOf != null) {
        MemoryEntry dup = c.current(filed.duplicateOf);
        if (dup != null && dup.isActive()) {
          return new WriteResult(WriteResult.Outcome.DEDUPED, dup, c.head());
        }
      }
      MemoryEntry dup = c.activeWithContent(filed.hash);
      if (dup != null) {
        return new WriteResult(WriteResult.Outcome.DEDUPED, dup, c.head());
      }
    } else {
      MemoryEntry existing = c.reader().findActiveByPath(filed.scope, path).orElse(null);
      if (existing != null) {
        // Patch semantics: priority, disclosure and glossary the write leaves out keep their values.
        int priority = in.priority() != null ? in.priority() : existing.priority();
        String disclosure = in.disclosure() != null ? in.disclosure() : existing.disclosure();
        List<String> glossary = in.glossary() != null ? in.glossary() : existing.glossary();
        if (existing.contentHash().equals(filed.hash)
            && existing.topics().equals(filed.topics)
            && existing.type() == filed.type
            && existing.priority() == priority
            && Objects.equals(existing.disclosure(), disclosure)
            && existing.glossary().equals(glossary)
            && Objects.equals(existing.source(), in.source())
            && existing.evidence().equals(in.evidence())
            && (in.occurredAt() == null || in.occurredAt().equals(existing.occurredAt()))) {
          return new WriteResult(WriteResult.Outcome.DEDUPED, existing, c.head());
        }
        MemoryEntry next = c.successor(existing, filed.content, filed.topics, filed.type, priority,
            disclosure, glossary, in.source(), in.evidence(),
            in.occurredAt() != null ? in.occurredAt() : existing.occurredAt());
        c.replace(existing, next, EventKind.UPDATE, ChangeKind.UPDATE, in.source(), "path upsert");
        return new WriteResult(WriteResult.Outcome.UPDATED, next, c.revision());
      }
    }
    MemoryEntry entry = new MemoryEntry(
        Ids.next(), Ids.next(), 1, null, filed.scope, filed.content, filed.topics, filed.type,
        in.priority() != null ? in.priority() : DEFAULT_PRIORITY,
        in.disclosure(), in.glossary() == null ? List.of() : in.glossary(), path, in.source(), in.evidence(),
        filed.hash, EntryStatus.ACTIVE, null,
        in.occurredAt(), c.now(), c.now(), c.revision());
    c.append(entry, in.source(), null);
    return new WriteResult(WriteResult.Outcome.APPENDED, entry, c.revision());
  }

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
   * The active entry whose canonical content equals the write's in one of the granted namespaces the
   * caller may write, as a {@code DEDUPED} result; null when there is none. It runs before the
   * reasoner, so a repeated write never costs a model call.
   */
  private @Nullable WriteResult canonicalDuplicate(Grants grants, Input in) {
    String hash = Text.contentHash(in.content());
    for (String scope : grants.namespaces()) {
      if (!policy.writable(grants, in.writePolicy(), scope)) {
        continue;
      }
      MemoryEntry dup = store.findActiveByHash(scope, hash).orElse(null);
      if (dup != null) {
        long head = store.headRevision(scope);
        Long expected = in.expectedRevision();
        if (expected != null && expected != head) {
          throw new dev.engram.RevisionConflictException(scope, expected, head,
              "scope " + scope + " is at revision " + head + ", not the expected " + expected);
        }
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
    topics.sort(java.util.Comparator.<String>comparingInt(counts::get).reversed()
        .thenComparing(java.util.Comparator.naturalOrder()));
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
    return List.copyOf(new ArrayList<>(out.values()));
  }
}
