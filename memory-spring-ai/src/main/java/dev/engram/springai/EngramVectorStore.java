/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.springai;

import dev.engram.Engram;
import dev.engram.Grants;
import dev.engram.InvalidInputException;
import dev.engram.ListOptions;
import dev.engram.MemoryEntry;
import dev.engram.SearchHit;
import dev.engram.SearchMode;
import dev.engram.SearchResult;
import dev.engram.BatchWriteResult;
import dev.engram.ChangeOptions;
import dev.engram.MemoryEvent;
import dev.engram.MemoryException;
import dev.engram.Namespaces;
import dev.engram.WriteOptions;
import dev.engram.WriteRequest;
import dev.engram.WriteResult;
import dev.engram.agent.AgentMemory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.ai.document.Document;
import org.springframework.ai.document.DocumentMetadata;
import org.springframework.ai.vectorstore.SearchRequest;
import org.springframework.ai.vectorstore.VectorStore;
import org.springframework.ai.vectorstore.filter.Filter;

/**
 * A Spring AI {@link VectorStore} whose documents are Engram memory entries, bound to one set of
 * trusted {@link Grants}.
 *
 * <ul>
 *   <li>A document becomes an entry under the store's topic (default {@value #DEFAULT_TOPIC}) with the
 *       document id as the entry's path, so adding a document again under the same id makes a new
 *       version of that entry (history kept) and identical texts under different ids stay distinct
 *       documents.
 *   <li>Metadata is kept with the entry (as glossary terms, see the module README for the limits: at
 *       most 32 keys, each key with its value, as JSON, within 120 characters) and comes back on every result;
 *       filter expressions are evaluated over it.
 *   <li>Vectors are Engram's: the {@link Engram}'s embedder (if any) embeds entries on write and
 *       queries on search; {@code similaritySearch} runs Engram's {@code auto} search (hybrid, or full
 *       text when the engine has no embedder). A similarity threshold above 0 keeps only hits with a
 *       cosine at or above it, so on an engine without vectors it keeps nothing.
 *   <li>A filtered search evaluates the filter over the best {@value #FILTER_CANDIDATES} hits; a
 *       search with an empty query lists the documents (oldest first) instead of ranking them.
 *   <li>{@code add} is all or none (see {@link #add(List)}).
 *   <li>{@code delete} erases the entries (versions, history and index rows), as
 *       {@link Engram#deleteEntry} does, in the store's own scope (the first grant) only.
 *   <li>Ids are unique in every result: where the grants see one id in several scopes, the document
 *       of the deepest scope is returned.
 * </ul>
 *
 * <p>Result documents carry, besides their own metadata, {@value #CITATION_KEY} (the entry's exact
 * citation) and, when the vector channel ran, {@code distance} (1 − cosine); both are dropped again
 * when such a document is added back. Thread-safe when the {@link Engram} is.
 */
public final class EngramVectorStore implements VectorStore {
  /** The topic documents are filed under unless the builder names another. */
  public static final String DEFAULT_TOPIC = "documents";
  /** Metadata key of the entry citation on result documents. */
  public static final String CITATION_KEY = "engram_citation";
  /** How many hits a filtered search evaluates its filter over. */
  public static final int FILTER_CANDIDATES = dev.engram.SearchRequest.MAX_LIMIT;
  private static final String SOURCE = "spring-ai-vector-store";
  private static final Logger LOG = LoggerFactory.getLogger(EngramVectorStore.class);

  private final Engram engram;
  private final Grants grants;
  private final String topic;
  private final String name;

  private EngramVectorStore(Builder b) {
    this.engram = b.engram;
    this.grants = b.grants;
    this.topic = b.topic;
    this.name = b.name;
  }

  /**
   * Starts a store over {@code engram} for {@code grants}.
   *
   * @param engram the memory the documents live in
   * @param grants the trusted grants every call runs under; documents are written to the first
   * @return a builder
   * @throws NullPointerException if an argument is null
   */
  public static Builder builder(Engram engram, Grants grants) {
    return new Builder(engram, grants);
  }

  @Override
  public String getName() {
    return name;
  }

  /**
   * Adds or updates documents, all or none: every document is checked first (text, id, metadata), then
   * all are written in one {@link Engram#writeAll} (in order; a later document with the same id
   * updates an earlier one). When the engine refuses any of them, the documents this call wrote are
   * taken back before the refusal is thrown: a new document is erased, an existing one gets its
   * previous content and metadata back (as a new version, its history kept).
   *
   * @param documents text documents; their ids become entry paths
   * @throws InvalidInputException for a document without text, an id that cannot be a path, or
   *     metadata that cannot be kept; nothing is stored then
   * @throws dev.engram.MemoryException the engine's refusal of a document (its content too long, a
   *     reasoner or store failure, a scope the grants may not write), after the call's writes were
   *     taken back
   * @throws NullPointerException if {@code documents} or a document is null
   */
  @Override
  public void add(List<Document> documents) {
    Objects.requireNonNull(documents, "documents");
    List<WriteRequest> requests = new ArrayList<>(documents.size());
    for (Document d : documents) {
      Prepared p = prepare(Objects.requireNonNull(d, "document"));
      requests.add(WriteRequest.of(p.text, WriteOptions.builder()
          .topicsHint(topic).path(p.path).glossary(p.terms).source(SOURCE).build()));
    }
    if (requests.isEmpty()) {
      return;
    }
    Map<String, MemoryEntry> before = new HashMap<>();
    for (MemoryEntry e : ownEntries()) {
      before.put(e.entryId(), e);
    }
    List<WriteResult> written = new ArrayList<>();
    for (int i = 0; i < requests.size(); i += Engram.MAX_BATCH_WRITES) {
      BatchWriteResult batch = engram.writeAll(grants, requests.subList(i, Math.min(requests.size(), i + Engram.MAX_BATCH_WRITES)));
      written.addAll(batch.results());
      if (!batch.allWritten()) {
        takeBack(written, before);
        throw Objects.requireNonNull(batch.rejected().get(0).error());
      }
    }
  }

  /** Undoes what {@code written} changed: entries that did not exist are erased, others restored to {@code before}. */
  private void takeBack(List<WriteResult> written, Map<String, MemoryEntry> before) {
    Set<String> done = new HashSet<>();
    for (WriteResult w : written) {
      String entryId = w.entry().entryId();
      if (w.outcome() == WriteResult.Outcome.DEDUPED || !done.add(entryId)) {
        continue;
      }
      MemoryEntry old = before.get(entryId);
      try {
        if (old == null) {
          engram.deleteEntry(grants, entryId);
        } else if (!engram.get(grants, entryId).versionId().equals(old.versionId())) {
          for (MemoryEvent ev : engram.history(grants, entryId)) {
            if (ev.after() != null && ev.after().versionId().equals(old.versionId())) {
              engram.rollback(grants, ev.eventId(), ChangeOptions.builder().reason("a batch of documents was refused").source(SOURCE).build());
              break;
            }
          }
        }
      } catch (MemoryException e) {
        LOG.warn("add: document entry {} could not be taken back after a refused batch: {}", entryId, e.code());
      }
    }
  }

  private record Prepared(String path, String text, List<String> terms) {}

  private static Prepared prepare(Document d) {
    if (!d.isText() || d.getText() == null) {
      throw new InvalidInputException("document.text", "document " + d.getId() + " has no text (media documents are not kept)");
    }
    Map<String, Object> metadata = new LinkedHashMap<>(d.getMetadata());
    metadata.remove(CITATION_KEY);
    metadata.remove(DocumentMetadata.DISTANCE.value());
    return new Prepared(DocumentPaths.pathOf(d.getId()), d.getText(), MetadataTerms.encode(metadata));
  }

  /**
   * Erases the documents with these ids in the store's own scope (the first grant); ids without a
   * document there are ignored, and documents of ancestor scopes that the store reads are never
   * touched.
   *
   * @param idList document ids
   * @throws NullPointerException if {@code idList} or an id is null
   */
  @Override
  public void delete(List<String> idList) {
    Objects.requireNonNull(idList, "idList");
    Set<String> paths = new LinkedHashSet<>();
    for (String id : idList) {
      paths.add(DocumentPaths.pathOf(Objects.requireNonNull(id, "id")));
    }
    int erased = 0;
    for (MemoryEntry e : ownEntries()) {
      if (paths.contains(e.path())) {
        engram.deleteEntry(grants, e.entryId());
        erased++;
      }
    }
    LOG.debug("erased {} of {} requested documents", erased, paths.size());
  }

  /**
   * Erases every document of the store's own scope (the first grant) whose metadata matches the
   * expression.
   *
   * @param filterExpression a Spring AI filter expression
   * @throws InvalidInputException for a malformed expression
   * @throws NullPointerException if {@code filterExpression} is null
   */
  @Override
  public void delete(Filter.Expression filterExpression) {
    Objects.requireNonNull(filterExpression, "filterExpression");
    for (MemoryEntry e : ownEntries()) {
      if (MetadataFilter.matches(filterExpression, MetadataTerms.decode(e.glossary()))) {
        engram.deleteEntry(grants, e.entryId());
      }
    }
  }

  /**
   * Ranks documents for the request's query, best first. A long query (a user message of any length)
   * is clipped for recall, as {@link AgentMemory#recallQuery(String)} does, instead of failing.
   *
   * @param request the query, topK, similarity threshold and filter
   * @return at most {@code topK} documents
   * @throws NullPointerException if {@code request} is null
   */
  @Override
  public List<Document> similaritySearch(SearchRequest request) {
    Objects.requireNonNull(request, "request");
    Filter.Expression filter = request.getFilterExpression();
    int topK = request.getTopK();
    double threshold = request.getSimilarityThreshold();
    List<Document> out = new ArrayList<>();
    if (topK == 0) {
      return out;
    }
    String query = request.getQuery() == null ? "" : AgentMemory.recallQuery(request.getQuery());
    if (query.isEmpty()) {
      for (MemoryEntry e : documentEntries()) {
        Document d = toDocument(e, null, null);
        if (threshold <= 0 && (filter == null || MetadataFilter.matches(filter, d.getMetadata()))) {
          out.add(d);
          if (out.size() == topK) {
            break;
          }
        }
      }
      return out;
    }
    int limit = filter != null ? FILTER_CANDIDATES : Math.min(topK, FILTER_CANDIDATES);
    if (topK > FILTER_CANDIDATES) {
      LOG.warn("similaritySearch: topK {} is above the engine's limit; at most {} documents are returned", topK, FILTER_CANDIDATES);
    }
    SearchResult result = engram.search(grants, dev.engram.SearchRequest.builder(query)
        .mode(SearchMode.AUTO).topics(topic).limit(limit).build());
    if (result.fallbackReason() != null) {
      LOG.info("similaritySearch ran {} instead of {}: {}", result.used(), result.requested(), result.fallbackReason());
    }
    Map<String, String> nearest = new HashMap<>();
    for (SearchHit hit : result.hits()) {
      nearer(nearest, hit.entry());
    }
    int documents = 0;
    for (SearchHit hit : result.hits()) {
      MemoryEntry e = hit.entry();
      if (DocumentPaths.idOf(e.path()) == null) {
        continue;
      }
      documents++;
      if (!e.scope().equals(nearest.get(e.path()))) {
        continue;
      }
      if (threshold > 0 && (hit.cosine() == null || hit.cosine() < threshold)) {
        continue;
      }
      Document d = toDocument(e, hit.cosine(), hit.score());
      if (filter == null || MetadataFilter.matches(filter, d.getMetadata())) {
        out.add(d);
        if (out.size() == topK) {
          break;
        }
      }
    }
    if (filter != null && out.size() < topK && documents == FILTER_CANDIDATES) {
      LOG.warn("similaritySearch: the filter matched {} of the best {} hits; documents ranked lower were not considered",
          out.size(), FILTER_CANDIDATES);
    }
    return out;
  }

  /** The Engram instance behind this store. */
  @Override
  @SuppressWarnings("unchecked")
  public <T> Optional<T> getNativeClient() {
    return Optional.of((T) engram);
  }

  /**
   * The documents the store reads, one per id: where the grants see the same id in several scopes
   * (a tenant's and an ancestor's), the document of the deepest scope.
   */
  private List<MemoryEntry> documentEntries() {
    List<MemoryEntry> all = visibleDocuments();
    Map<String, String> nearest = new HashMap<>();
    for (MemoryEntry e : all) {
      nearer(nearest, e);
    }
    List<MemoryEntry> out = new ArrayList<>();
    for (MemoryEntry e : all) {
      if (e.scope().equals(nearest.get(e.path()))) {
        out.add(e);
      }
    }
    return out;
  }

  /** Every document entry the grants see, in every visible scope. */
  private List<MemoryEntry> visibleDocuments() {
    List<MemoryEntry> out = new ArrayList<>();
    for (MemoryEntry e : engram.list(grants, ListOptions.builder().topic(topic).build())) {
      if (DocumentPaths.idOf(e.path()) != null) {
        out.add(e);
      }
    }
    return out;
  }

  /** The documents of the store's own scope, the first grant: the only ones it writes and erases. */
  private List<MemoryEntry> ownEntries() {
    String own = grants.namespaces().get(0);
    List<MemoryEntry> out = new ArrayList<>();
    for (MemoryEntry e : visibleDocuments()) {
      if (e.scope().equals(own)) {
        out.add(e);
      }
    }
    return out;
  }

  /** Records {@code e}'s scope for its path in {@code nearest} when it is deeper than the one recorded. */
  private static void nearer(Map<String, String> nearest, MemoryEntry e) {
    if (e.path() != null) {
      nearest.merge(e.path(), e.scope(), (a, b) -> Namespaces.depth(b) > Namespaces.depth(a) ? b : a);
    }
  }

  private static Document toDocument(MemoryEntry e, @Nullable Double cosine, @Nullable Double score) {
    Map<String, Object> metadata = new HashMap<>(MetadataTerms.decode(e.glossary()));
    metadata.put(CITATION_KEY, e.citation().render());
    if (cosine != null) {
      metadata.put(DocumentMetadata.DISTANCE.value(), 1.0 - cosine);
    }
    return Document.builder()
        .id(Objects.requireNonNull(DocumentPaths.idOf(e.path())))
        .text(e.content())
        .metadata(metadata)
        .score(cosine != null ? cosine : score)
        .build();
  }

  /** Settings of an {@link EngramVectorStore}. */
  public static final class Builder {
    private final Engram engram;
    private final Grants grants;
    private String topic = DEFAULT_TOPIC;
    private String name = "engram";

    private Builder(Engram engram, Grants grants) {
      this.engram = Objects.requireNonNull(engram, "engram");
      this.grants = Objects.requireNonNull(grants, "grants");
    }

    /**
     * The topic documents are filed under and searched in.
     *
     * @param topic a topic name (lowercase letters, digits, {@code -}, {@code _})
     * @return this builder
     * @throws InvalidInputException if the topic is blank or contains {@code /} or {@code *}
     * @throws NullPointerException if {@code topic} is null
     */
    public Builder topic(String topic) {
      Objects.requireNonNull(topic, "topic");
      String t = topic.strip();
      if (t.isEmpty() || t.contains("/") || t.contains("*") || !t.equals(t.toLowerCase(java.util.Locale.ROOT))) {
        throw new InvalidInputException("topic", "'" + topic + "' is not a lowercase topic name without '/' or '*'");
      }
      this.topic = t;
      return this;
    }

    /**
     * The name {@link VectorStore#getName()} reports.
     *
     * @param name a non-blank name
     * @return this builder
     * @throws InvalidInputException if the name is blank
     * @throws NullPointerException if {@code name} is null
     */
    public Builder name(String name) {
      Objects.requireNonNull(name, "name");
      if (name.isBlank()) {
        throw new InvalidInputException("name", "is blank");
      }
      this.name = name;
      return this;
    }

    /**
     * Builds the store.
     *
     * @return the store
     */
    public EngramVectorStore build() {
      return new EngramVectorStore(this);
    }
  }
}
