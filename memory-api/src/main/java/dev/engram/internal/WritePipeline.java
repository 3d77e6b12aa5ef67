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
import dev.engram.spi.Reasoner;
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

/**
 * The write pipeline: visible topics and candidates → reasoner.tag → the proposal validated as
 * untrusted → canonical dedupe (a path write only against the entry at its path) → one commit.
 */
final class WritePipeline {
  private static final int CANDIDATES_PER_TOPIC = 10;
  private static final int MAX_CANDIDATES = 10;
  private static final int DEFAULT_PRIORITY = 2;

  /** A write's validated input. */
  record Input(
      String content, List<String> hints, @Nullable EntryType typeHint, @Nullable Integer priority,
      @Nullable String disclosure,
      @Nullable List<String> glossary, @Nullable String path, @Nullable String source, List<String> evidence,
      @Nullable Long expectedRevision, WritePolicy writePolicy, java.time.@Nullable Instant occurredAt,
      dev.engram.@Nullable Origin origin) {}

  private record Filed(
      String scope, List<String> topics, EntryType type, String content, String hash, @Nullable String duplicateOf) {}

  private final MemoryStore store;
  private final Reasoner reasoner;
  private final EngineConfig config;
  private final GrantPolicy policy;
  private final SearchService search;
  private final Commits commits;

  WritePipeline(
      MemoryStore store, Reasoner reasoner, EngineConfig config, GrantPolicy policy, SearchService search,
      Commits commits) {
    this.store = store;
    this.reasoner = reasoner;
    this.config = config;
    this.policy = policy;
    this.search = search;
    this.commits = commits;
  }

  WriteResult write(Grants grants, Input in) {
    boolean context = reasoner.usesContext();
    if (context && in.path() == null) {
      WriteResult known = canonicalDuplicate(grants, in);
      if (known != null) {
        return known;
      }
    }
    List<String> visibleTopics = context ? visibleTopics(grants.visibleScopes()) : List.of();
    List<MemoryEntry> candidates = context ? candidates(grants, in.content(), in.hints()) : List.of();
    TagProposal proposal = tag(new TagRequest(grants.namespaces(), visibleTopics, in.content(), in.hints(),
        in.typeHint(), candidates, search.embedsOnWrite()));
    Filed filed = validateProposal(proposal, grants, in.writePolicy(), candidates);
    // A likely duplicate is not embedded up front; the commit asks for vectors if it turns out to store one.
    boolean likelyDuplicate = in.path() == null
        && (filed.duplicateOf != null || store.findActiveByHash(filed.scope, filed.hash).isPresent());
    Embeddings.PendingVectors pending = likelyDuplicate
        ? null : search.pendingFor(filed.content, in.disclosure(),
            in.glossary() == null ? List.of() : in.glossary(), in.path(), proposal.views());
    return commits.run(filed.scope, pending == null ? List.of() : List.of(pending),
        c -> c.reportVectors(commit(c, filed, in)));
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
      MemoryEntry dup = c.reader().findActiveByHash(filed.scope, filed.hash).orElse(null);
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
