/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.internal;

import dev.engram.CapabilityNotSupportedException;
import dev.engram.EntryStatus;
import dev.engram.Grants;
import dev.engram.MemoryEntry;
import dev.engram.SearchChannel;
import dev.engram.SearchHit;
import dev.engram.SearchMode;
import dev.engram.SearchRequest;
import dev.engram.SearchResult;
import dev.engram.SearchSettings;
import dev.engram.spi.FullTextQuery;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.Reranker;
import dev.engram.spi.ScoredEntry;
import dev.engram.spi.StoreCapability;
import dev.engram.spi.TextAnalysis;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Search (full-text, vector, hybrid, auto): the channels, the fallbacks and the soft rules on top of the
 * fused ranking ({@link Fusion}). Only active versions in visible scopes are ever ranked: stores filter by
 * status and scope before ranking, and the engine checks again. A scope whose vectors lack only a few
 * versions is completed first ({@link Reindex#repaired}).
 *
 * <p>Full-text admission: a version must contain at least one query term (after stopword removal;
 * stores stem), or the {@link SearchSettings#termCoverage()} share of them when that is higher. Vector admission: best cosine over the version's views at or above the floor (the
 * settings' or the embedder profile's). Hybrid: by default each channel's scores scaled into (0, 1] over
 * its candidates and summed with the channel weights ({@link SearchSettings.Fusion#SCORE}), or
 * {@code Σ weight / (k + rank)} ({@link SearchSettings.Fusion#RECIPROCAL_RANK}), over the channels that
 * found the version, plus the priority bonus; ties go to the newer version.
 */
final class SearchService {
  private static final Logger LOG = LoggerFactory.getLogger(SearchService.class);
  /**
   * The candidate bound of a full-text ranking the search running on this thread met (0: none), set by
   * {@link #readFullText} and reported on the search's warnings.
   */
  private static final ThreadLocal<int[]> BOUNDED = new ThreadLocal<>();
  /** The longest query a search takes (PowerContext's limit); {@link #clipped} cuts longer tasks to it. */
  static final int MAX_QUERY_CHARS = 8192;

  private final MemoryStore store;
  private final SearchSettings settings;
  private final @Nullable Embeddings embeddings;
  private final VectorIndex vectors;
  private final Reindex reindex;
  private final Fusion fusion;
  private volatile @Nullable String lastIncompleteReason;
  private final @Nullable Reranker reranker;
  private final java.time.Clock clock;

  SearchService(MemoryStore store, SearchSettings settings, @Nullable Embeddings embeddings, VectorIndex vectors,
      Reindex reindex, @Nullable Reranker reranker, java.time.Clock clock) {
    this.store = store;
    this.settings = settings;
    this.embeddings = embeddings;
    this.vectors = vectors;
    this.reindex = reindex;
    this.fusion = new Fusion(settings);
    this.reranker = reranker;
    this.clock = clock;
  }

  dev.engram.VectorCacheStats vectorCacheStats() {
    return vectors.stats();
  }

  /**
   * Up to {@code limit} active entries nearest to {@code text} in the visible scopes: hybrid when
   * vectors are ready, else full text; empty when the store has neither channel. Never throws for a
   * missing capability: it is a best effort for the reasoner's duplicate candidates.
   */
  List<MemoryEntry> nearest(Grants grants, String text, int limit) {
    boolean fts = store.capabilities().contains(StoreCapability.FULL_TEXT_SEARCH);
    String query = text.length() > MAX_QUERY_CHARS ? text.substring(0, MAX_QUERY_CHARS) : text;
    if (Character.isHighSurrogate(query.charAt(query.length() - 1))) {
      query = query.substring(0, query.length() - 1);
    }
    if (!fts && vectorsUnconfigured() != null) {
      return List.of();
    }
    try {
      SearchResult r = search(grants, SearchRequest.builder(query).limit(Math.min(SearchRequest.MAX_LIMIT, limit * 2))
          .build());
      List<MemoryEntry> out = new ArrayList<>();
      for (SearchHit h : r.hits()) {
        out.add(h.entry());
      }
      return out;
    } catch (CapabilityNotSupportedException | dev.engram.InvalidInputException e) {
      return List.of();
    }
  }

  /** The vector admission floor in effect: the settings' own, else the embedder profile's. */
  private float vectorFloor() {
    return (float) settings.vectorFloorOr(embeddings.profile().vectorFloor());
  }

  SearchResult search(Grants grants, SearchRequest request) {
    int[] outer = BOUNDED.get();
    int[] bound = new int[1];
    BOUNDED.set(bound);
    try {
      SearchResult out = reranked(grants, request);
      return bound[0] == 0 ? out : withWarning(out, boundedWarning(bound[0]));
    } finally {
      if (outer == null) {
        BOUNDED.remove();
      } else {
        BOUNDED.set(outer);
      }
    }
  }

  /**
   * The warning of a search whose full text was ranked among a bounded candidate set: the store logs it
   * once, and every such result says so.
   */
  static String boundedWarning(int candidates) {
    return "full text was ranked among a bounded set of " + candidates + " candidates (the store's "
        + "fullTextCandidates): a version outside it that would rank higher can be missing; "
        + "fullTextCandidates(0) on the store ranks every match";
  }

  private static SearchResult withWarning(SearchResult r, String warning) {
    List<String> warnings = new ArrayList<>(r.warnings());
    warnings.add(warning);
    return new SearchResult(r.requested(), r.used(), r.hits(), r.fallbackReason(), warnings);
  }

  private SearchResult reranked(Grants grants, SearchRequest request) {
    SearchResult fused = timeBoosted(grants, request);
    if (reranker == null || fused.hits().isEmpty()) {
      return fused;
    }
    List<SearchHit> given = fused.hits();
    String problem;
    try {
      List<SearchHit> answer = reranker.rerank(request.query(), given);
      problem = checkReranked(given, answer);
      if (problem == null) {
        return new SearchResult(fused.requested(), fused.used(), List.copyOf(answer), fused.fallbackReason(),
            fused.warnings());
      }
    } catch (RuntimeException e) {
      // the exception's class only: a model's error may quote the query or the hits
      problem = "the reranker failed (" + e.getClass().getName() + ")";
    }
    LOG.warn("Search kept the fused order: {}", problem);
    String reason = (fused.fallbackReason() == null ? "" : fused.fallbackReason() + "; ") + problem
        + "; hits in fused order";
    return new SearchResult(fused.requested(), fused.used(), given, reason, fused.warnings());
  }

  /** How many of the best fused hits decide which sessions hold strong hits ({@link SearchSettings#sessionBoost()}). */
  static final int SESSION_WINDOW = 10;

  /**
   * The fused search with the soft rules on top, each a share of the best hit's score added to some hits,
   * never a filter: when any rule applies, the search runs for a channel depth of hits, the rules reorder
   * them, and the best {@code limit} are kept, so recall at the channel depth never drops.
   *
   * <ul>
   *   <li>time ({@link SearchSettings#timeBoost()}): the query refers to a time ({@link TimeReferences},
   *       relative to the request's reference time or the clock) and the hit's {@code occurredAt} falls in
   *       the referenced interval — a misread reference, or evidence dated outside the interval (an event
   *       told a week later), only reorders;
   *   <li>speaker ({@link SearchSettings#speakerBoost()}): the query names the speaker of the hit;
   *   <li>session ({@link SearchSettings#sessionBoost()}): the hit's session (its {@code source}) holds a
   *       share of the best {@value #SESSION_WINDOW} fused hits;
   *   <li>recency ({@link SearchSettings#recencyBoost()}): the newer the hit, the larger its share, halving
   *       every {@link SearchSettings#recencyHalfLife()}.
   * </ul>
   */
  private SearchResult timeBoosted(Grants grants, SearchRequest request) {
    java.util.Optional<TimeReferences.Interval> when = java.util.Optional.empty();
    java.time.Instant now = request.referenceTime() != null ? request.referenceTime() : clock.instant();
    if (settings.timeBoost() > 0) {
      when = TimeReferences.find(request.query(), now);
    }
    boolean speakers = settings.speakerBoost() > 0;
    boolean sessions = settings.sessionBoost() > 0;
    boolean recency = settings.recencyBoost() > 0;
    if (when.isEmpty() && !speakers && !sessions && !recency) {
      return fusedSearch(grants, request);
    }
    int wide = Math.min(SearchRequest.MAX_LIMIT, Math.max(request.limit(), settings.channelDepth()));
    SearchResult fused = fusedSearch(grants, request.toBuilder().limit(wide).build());
    List<SearchHit> hits = fused.hits();
    if (hits.isEmpty()) {
      return fused;
    }
    double best = Math.abs(hits.get(0).score());
    Set<String> named = speakers ? Speakers.named(request.query(), hits) : Set.of();
    Map<String, Integer> sessionCounts = new HashMap<>();
    int window = Math.min(SESSION_WINDOW, hits.size());
    if (sessions) {
      for (SearchHit h : hits.subList(0, window)) {
        if (h.entry().source() != null) {
          sessionCounts.merge(h.entry().source(), 1, Integer::sum);
        }
      }
    }
    List<SearchHit> out = new ArrayList<>(hits.size());
    for (SearchHit h : hits) {
      double add = 0;
      java.time.Instant at = h.entry().occurredAt();
      if (when.isPresent() && at != null && when.get().contains(at)) {
        add += settings.timeBoost() * best;
      }
      if (!named.isEmpty() && named.contains(Speakers.of(h.entry()))) {
        add += settings.speakerBoost() * best;
      }
      if (sessions && h.entry().source() != null) {
        add += settings.sessionBoost() * best * sessionCounts.getOrDefault(h.entry().source(), 0) / window;
      }
      if (recency) {
        add += settings.recencyBoost() * best * recencyShare(h.entry(), now);
      }
      out.add(add == 0 ? h
          : new SearchHit(h.entry(), h.score() + add, h.matchedBy(), h.ftsRank(), h.vectorRank(), h.cosine()));
    }
    out.sort(Fusion::byScore);
    List<SearchHit> kept = out.size() > request.limit() ? List.copyOf(out.subList(0, request.limit())) : out;
    return new SearchResult(fused.requested(), fused.used(), kept, fused.fallbackReason(), fused.warnings());
  }

  /**
   * {@code 2^(-age / half-life)}: 1 for a version as old as {@code now} or newer, ½ at one half-life. The age
   * runs from the version's event time, else from when it was written.
   */
  private double recencyShare(MemoryEntry e, java.time.Instant now) {
    java.time.Instant at = e.occurredAt() != null ? e.occurredAt() : e.updatedAt();
    double age = Math.max(0, java.time.Duration.between(at, now).toMillis());
    return Math.pow(2, -age / settings.recencyHalfLife().toMillis());
  }

  /** Null when {@code answer} holds only hits of {@code given}, each at most once; else what is wrong. */
  private static @Nullable String checkReranked(List<SearchHit> given, @Nullable List<SearchHit> answer) {
    if (answer == null) {
      return "the reranker returned null";
    }
    Map<String, SearchHit> byVersion = new HashMap<>();
    for (SearchHit h : given) {
      byVersion.put(h.entry().versionId(), h);
    }
    Set<String> seen = new HashSet<>();
    for (SearchHit h : answer) {
      if (h == null || !h.equals(byVersion.get(h.entry().versionId()))) {
        return "the reranker returned a hit it was not given";
      }
      if (!seen.add(h.entry().versionId())) {
        return "the reranker returned a hit twice";
      }
    }
    return null;
  }

  private SearchResult fusedSearch(Grants grants, SearchRequest request) {
    String query = Text.shortText("query", request.query(), MAX_QUERY_CHARS);
    List<String> topicList = Text.topics("topics", request.topics(), false);
    Set<String> topics = Set.copyOf(topicList);
    Set<String> scopes = grants.visibleScopes();
    boolean fts = store.capabilities().contains(StoreCapability.FULL_TEXT_SEARCH);
    SearchMode mode = request.mode();
    int depth = Math.max(settings.channelDepth(), request.limit());
    // the filters travel into each channel (the store's full-text query, the vector scan), which applies
    // them before it cuts at the depth: a narrow event-time interval still yields its best entries
    VectorIndex.Filter filter = new VectorIndex.Filter(topics, request.types(), request.occurredFrom(),
        request.occurredTo());

    if (mode == SearchMode.FTS) {
      requireFts(fts);
      return result(mode, SearchMode.FTS, ftsOnly(grants, query, topics, request, depth), null);
    }
    // the query embeds on another thread while this one runs the full-text arms
    if (mode == SearchMode.VECTOR || mode == SearchMode.HYBRID) {
      if (mode == SearchMode.HYBRID) {
        requireFts(fts);
      }
      List<VectorBlock> blocks = readyBlocks(scopes);
      Embeddings.PendingQuery pending = embeddings.startQuery(query);
      List<Fusion.Arm> arms = new ArrayList<>();
      if (mode == SearchMode.HYBRID) {
        arms.addAll(textArms(grants, query, topics, request, depth));
      }
      float[] q = pending.await(settings.embedTimeout());
      arms.addAll(vectorArms(grants, blocks, q, depth, filter));
      return result(mode, mode, fusion.fuse(arms, mode, request.limit()), null);
    }
    // AUTO: the vector channel over the scopes whose vectors are complete; a scope with versions lacking
    // vectors is searched by full text only (and said so), so one gap in a shared ancestor does not
    // turn every search below it into full text.
    String reason = vectorsUnconfigured();
    List<Fusion.Arm> text = null;
    if (reason == null) {
      List<VectorBlock> complete = new ArrayList<>();
      List<VectorBlock> incomplete = new ArrayList<>();
      for (VectorBlock b : reindex.repaired(blocks(scopes))) {
        (b.missing == 0 ? complete : incomplete).add(b);
      }
      boolean anyVectors = complete.stream().anyMatch(b -> b.live > 0);
      if (!incomplete.isEmpty() && !anyVectors) {
        reason = incompleteReason(incomplete);
      } else {
        List<String> warnings = new ArrayList<>();
        for (VectorBlock b : incomplete) {
          warnings.add(incompleteReason(List.of(b)) + "; its entries were searched by full text only");
        }
        Embeddings.PendingQuery pending = embeddings.startQuery(query);
        text = fts ? textArms(grants, query, topics, request, depth) : List.of();
        float[] q = null;
        try {
          q = pending.await(settings.embedTimeout());
        } catch (CapabilityNotSupportedException e) {
          reason = e.getMessage();
        }
        if (q != null) {
          for (String w : warnings) {
            logIncomplete(w);
          }
          List<Fusion.Arm> arms = new ArrayList<>(text);
          arms.addAll(vectorArms(grants, complete, q, depth, filter));
          SearchMode used = fts ? SearchMode.HYBRID : SearchMode.VECTOR;
          return new SearchResult(mode, used, fusion.fuse(arms, used, request.limit()), null, warnings);
        }
      }
    }
    requireFts(fts);
    logFallback(reason);
    List<SearchHit> hits =
        text != null ? fusion.fuse(text, SearchMode.FTS, request.limit()) : ftsOnly(grants, query, topics, request, depth);
    // a wiring with vectors that fell back is degraded, and says so among the warnings too; one without
    // vectors searches by full text as configured
    List<String> warnings = reason != null && vectorsUnconfigured() == null
        ? List.of("searched by full text only: " + reason) : List.of();
    return new SearchResult(mode, SearchMode.FTS, hits, reason, warnings);
  }

  private String incompleteReason(List<VectorBlock> incomplete) {
    StringBuilder sb = new StringBuilder("vectors are incomplete: ");
    for (int i = 0; i < incomplete.size(); i++) {
      VectorBlock b = incomplete.get(i);
      sb.append(i == 0 ? "" : ", ").append(b.missing).append(" active entries in ").append(b.scope);
    }
    sb.append(" have no ").append(embeddings.profile().id()).append(" vector");
    // a scope lacking more than a search completes itself was queued for completion by Reindex.repaired
    boolean background = reindex.completesInBackground()
        && incomplete.stream().allMatch(b -> b.missing > Reindex.REPAIR_MAX);
    return sb.append(background ? " (being completed in the background)" : " (call reindex)").toString();
  }

  /** Logs an incomplete-vectors note at WARN once until the note changes. */
  private void logIncomplete(String reason) {
    if (!reason.equals(lastIncompleteReason)) {
      lastIncompleteReason = reason;
      LOG.warn("Search used full text only for part of the scopes: {}", reason);
    }
  }

  /**
   * An automatic search that fell back to full text: a failed or late query embedding or incomplete
   * vectors at WARN (incomplete vectors once until the reason changes), a configuration without vectors
   * at DEBUG.
   */
  private void logFallback(@Nullable String reason) {
    if (reason == null) {
      return;
    }
    if (embeddings == null || !store.capabilities().contains(StoreCapability.VECTOR_STORAGE)) {
      LOG.debug("Search fell back to full text: {}", reason);
    } else if (reason.startsWith("vectors are incomplete")) {
      if (!reason.equals(lastIncompleteReason)) {
        lastIncompleteReason = reason;
        LOG.warn("Search fell back to full text: {}", reason);
      }
    } else {
      LOG.warn("Search fell back to full text: {}", reason);
    }
  }

  private static SearchResult result(SearchMode requested, SearchMode used, List<SearchHit> hits, @Nullable String reason) {
    return new SearchResult(requested, used, hits, reason);
  }

  private void requireFts(boolean fts) {
    if (!fts) {
      throw new CapabilityNotSupportedException(
          store.getClass().getSimpleName() + " does not declare FULL_TEXT_SEARCH; full-text and hybrid search need it");
    }
  }

  /** Null when an embedder is configured and the store keeps vectors; otherwise what is missing. */
  private @Nullable String vectorsUnconfigured() {
    if (embeddings == null) {
      return "no embedder is configured";
    }
    if (!store.capabilities().contains(StoreCapability.VECTOR_STORAGE)) {
      return store.getClass().getSimpleName() + " does not declare VECTOR_STORAGE";
    }
    return null;
  }

  /** The blocks of every scope, for an explicit vector or hybrid search: each scope's vectors must be complete. */
  private List<VectorBlock> readyBlocks(Set<String> scopes) {
    String reason = vectorsUnconfigured();
    List<VectorBlock> blocks = reason == null ? reindex.repaired(blocks(scopes)) : List.of();
    List<VectorBlock> incomplete = new ArrayList<>();
    for (VectorBlock b : blocks) {
      if (b.missing > 0) {
        incomplete.add(b);
      }
    }
    if (reason == null && !incomplete.isEmpty()) {
      reason = incompleteReason(incomplete);
    }
    if (reason != null) {
      throw new CapabilityNotSupportedException("vector search unavailable: " + reason);
    }
    return blocks;
  }

  /** The current block of each scope, at the store's vector epoch read once before them. */
  private List<VectorBlock> blocks(Set<String> scopes) {
    long epoch = store.vectorEpoch();
    List<VectorBlock> out = new ArrayList<>();
    for (String scope : new TreeSet<>(scopes)) {
      out.add(vectors.block(scope, embeddings.profile().id(), embeddings.profile().dimension(), epoch));
    }
    return out;
  }

  private List<ScoredEntry> ftsChannel(Grants grants, String query, Set<String> topics, SearchRequest request, int depth) {
    return covering(query, admitted(grants, readFullText(grants, query, topics, request, depth), request), null);
  }

  /**
   * The hits holding at least the {@link SearchSettings#termCoverage()} share of the query's distinct terms
   * (at least one), in their order: all of them when the floor is 0. {@code keys} null counts the terms of a
   * hit's own fields, else of its retrieval keys.
   */
  private List<ScoredEntry> covering(String query, List<ScoredEntry> hits,
      java.util.@Nullable Map<String, List<String>> keys) {
    if (settings.termCoverage() == 0 || hits.isEmpty()) {
      return hits;
    }
    Set<String> wanted = new HashSet<>(FullTextQuery.terms(query));
    int need = Math.max(1, (int) Math.ceil(settings.termCoverage() * wanted.size() - 1e-9));
    if (need <= 1) {
      return hits;
    }
    List<ScoredEntry> out = new ArrayList<>(hits.size());
    for (ScoredEntry s : hits) {
      Set<String> held = new HashSet<>();
      if (keys == null) {
        TextAnalysis.Fields f = TextAnalysis.fields(s.entry());
        for (List<String> field : List.of(f.content(), f.glossary(), f.disclosure(), f.topics())) {
          held.addAll(field);
        }
      } else {
        for (String key : keys.getOrDefault(s.entry().versionId(), List.of())) {
          held.addAll(TextAnalysis.terms(key));
        }
      }
      held.retainAll(wanted);
      if (held.size() >= need) {
        out.add(s);
      }
    }
    return out;
  }

  private List<ScoredEntry> readFullText(Grants grants, String query, Set<String> topics, SearchRequest request,
      int depth) {
    List<String> terms = FullTextQuery.terms(query);
    if (terms.isEmpty()) {
      return List.of();
    }
    dev.engram.spi.FullTextResult read = store.rankFullText(grants.visibleScopes(),
        new FullTextQuery(terms, topics, request.types(), request.occurredFrom(), request.occurredTo()), depth);
    int[] bound = BOUNDED.get();
    if (read.bounded() && bound != null) {
      bound[0] = read.candidateBound();
    }
    return read.hits();
  }

  /** The store's hits this search may return, in the store's order. */
  private static List<ScoredEntry> admitted(Grants grants, List<ScoredEntry> read, SearchRequest request) {
    List<ScoredEntry> out = new ArrayList<>();
    for (ScoredEntry s : read) {
      // The store filtered by status, scope and event time before its limit; the engine checks again.
      // Recall never returns boot nodes: the agent loads them with the boot block.
      if (s.entry().status() == EntryStatus.ACTIVE && grants.canSee(s.entry().scope())
          && FullTextQuery.occurredIn(s.entry().occurredAt(), request.occurredFrom(), request.occurredTo())
          && !BootNodes.isBootNode(s.entry())) {
        out.add(s);
      }
    }
    return out;
  }

  /**
   * Full text alone: the best {@code limit} hits need only the store's first {@code limit}, unless the
   * channel's own filters (boot nodes) drop some of them; only then is the whole channel
   * depth read. The store's order is total (score, then version id), so the short read is a prefix of
   * the deep one and both give the same hits.
   */
  private List<SearchHit> ftsOnly(Grants grants, String query, Set<String> topics, SearchRequest request, int depth) {
    int limit = request.limit();
    if (keyArmsOn()) {
      return fusion.fuse(textArms(grants, query, topics, request, depth), SearchMode.FTS, limit);
    }
    if (limit < depth) {
      List<ScoredEntry> read = readFullText(grants, query, topics, request, limit);
      List<ScoredEntry> first = covering(query, admitted(grants, read, request), null);
      if (first.size() == limit || read.size() < limit) {
        return ftsHits(first, limit);
      }
    }
    return ftsHits(ftsChannel(grants, query, topics, request, depth), limit);
  }

  private static List<SearchHit> ftsHits(List<ScoredEntry> text, int limit) {
    List<SearchHit> hits = new ArrayList<>();
    for (int i = 0; i < text.size() && hits.size() < limit; i++) {
      ScoredEntry s = text.get(i);
      hits.add(new SearchHit(s.entry(), s.score(), EnumSet.of(SearchChannel.FTS), i + 1, null, null));
    }
    return hits;
  }

  /** Whether the key arms take part in ranking: the store keeps keys and their weight is above 0. */
  private boolean keyArmsOn() {
    return settings.keyFtsWeight() + settings.keyVectorWeight() > 0
        && store.capabilities().contains(StoreCapability.RETRIEVAL_KEYS);
  }

  /** The full-text arms: over the entries' own fields, and (when on) over their retrieval keys. */
  private List<Fusion.Arm> textArms(Grants grants, String query, Set<String> topics, SearchRequest request, int depth) {
    List<Fusion.Arm> arms = new ArrayList<>(2);
    arms.add(Fusion.Arm.ofText(SearchChannel.FTS, ftsChannel(grants, query, topics, request, depth), settings.ftsWeight()));
    if (keyArmsOn()) {
      List<String> terms = FullTextQuery.terms(query);
      List<ScoredEntry> keys = terms.isEmpty() ? List.of() : admitted(grants, store.searchKeys(grants.visibleScopes(),
          new FullTextQuery(terms, topics, request.types(), request.occurredFrom(), request.occurredTo()), depth),
          request);
      if (settings.termCoverage() > 0 && !keys.isEmpty()) {
        List<String> ids = new ArrayList<>(keys.size());
        for (ScoredEntry k : keys) {
          ids.add(k.entry().versionId());
        }
        keys = covering(query, keys, store.keysOf(ids));
      }
      arms.add(Fusion.Arm.ofText(SearchChannel.KEY_FTS, keys, settings.keyFtsWeight()));
    }
    return arms;
  }

  /**
   * The vector arms over {@code blocks}: the entries' content and views, and (when on) the vectors of their
   * retrieval keys in the same scopes.
   */
  private List<Fusion.Arm> vectorArms(Grants grants, List<VectorBlock> blocks, float[] q, int depth,
      VectorIndex.Filter filter) {
    List<Fusion.Arm> arms = new ArrayList<>(2);
    arms.add(Fusion.Arm.ofVectors(SearchChannel.VECTOR, grants, vectors.search(blocks, q, vectorFloor(), depth, filter),
        settings.vectorWeight()));
    if (keyArmsOn()) {
      long epoch = store.vectorEpoch();
      String keyProfile = Embeddings.keyProfileId(embeddings.profile().id());
      List<VectorBlock> keyBlocks = new ArrayList<>(blocks.size());
      for (VectorBlock b : blocks) {
        keyBlocks.add(vectors.block(b.scope, keyProfile, embeddings.profile().dimension(), epoch));
      }
      arms.add(Fusion.Arm.ofVectors(SearchChannel.KEY_VECTOR, grants, vectors.search(keyBlocks, q, vectorFloor(), depth, filter),
          settings.keyVectorWeight()));
    }
    return arms;
  }

  /** Drops everything this service caches of {@code scope}; called when entries of it are erased. */
  void forget(String scope) {
    vectors.invalidate(scope);
  }

  /** A task as a query: its first {@link #MAX_QUERY_CHARS} characters, cut on a code point boundary. */
  static String clipped(String task) {
    if (task.length() <= MAX_QUERY_CHARS) {
      return task;
    }
    int end = Character.isHighSurrogate(task.charAt(MAX_QUERY_CHARS - 1)) ? MAX_QUERY_CHARS - 1 : MAX_QUERY_CHARS;
    return task.substring(0, end);
  }

}
