/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.langchain4j;

import dev.engram.Citation;
import dev.engram.ContextRequest;
import dev.engram.Engram;
import dev.engram.Grants;
import dev.engram.InvalidInputException;
import dev.engram.MemoryEntry;
import dev.engram.PreparedContext;
import dev.engram.SearchHit;
import dev.engram.SearchRequest;
import dev.engram.SearchResult;
import dev.engram.agent.AgentMemory;
import dev.langchain4j.data.document.Metadata;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.rag.content.Content;
import dev.langchain4j.rag.content.ContentMetadata;
import dev.langchain4j.rag.content.retriever.ContentRetriever;
import dev.langchain4j.rag.query.Query;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Engram memory as LangChain4j retrieval-augmented content. Two shapes:
 *
 * <ul>
 *   <li>{@link Shape#PREPARED_CONTEXT} (default): one {@link Content} holding Engram's prepared
 *       context for the query: byte-bounded, deduplicated, labelled untrusted, with the rendered
 *       citations of its items in the metadata key {@value #CITATIONS_KEY} (space-separated);
 *       nothing when no memory matches.
 *   <li>{@link Shape#SEARCH_HITS}: one {@link Content} per search hit, best first, whose segment
 *       metadata carries the exact citation ({@value #CITATION_KEY}, and its parts
 *       {@value #SCOPE_KEY}, {@value #ENTRY_ID_KEY}, {@value #VERSION_ID_KEY}, {@value #REVISION_KEY})
 *       and whose content metadata carries the score.
 * </ul>
 *
 * <p>Grants come from the query's chat memory id (the AI service's {@code @MemoryId}) through
 * trusted {@link MemoryIdGrants}, or are fixed with {@link Builder#grants(Grants)}.
 */
public final class EngramContentRetriever implements ContentRetriever {
  /** Segment metadata key of a search hit's rendered citation. */
  public static final String CITATION_KEY = "engram_citation";
  /** Segment metadata key of a prepared context's rendered citations, space-separated. */
  public static final String CITATIONS_KEY = "engram_citations";
  /** Segment metadata key of a search hit's scope. */
  public static final String SCOPE_KEY = "engram_scope";
  /** Segment metadata key of a search hit's entry id. */
  public static final String ENTRY_ID_KEY = "engram_entry_id";
  /** Segment metadata key of a search hit's version id. */
  public static final String VERSION_ID_KEY = "engram_version_id";
  /** Segment metadata key of a search hit's revision (a long). */
  public static final String REVISION_KEY = "engram_revision";
  private static final Logger LOG = LoggerFactory.getLogger(EngramContentRetriever.class);

  /** What the retriever returns. */
  public enum Shape {
    /** One bounded, cited block. */
    PREPARED_CONTEXT,
    /** One content per search hit. */
    SEARCH_HITS
  }

  private final Engram engram;
  private final @Nullable Grants fixed;
  private final @Nullable MemoryIdGrants resolver;
  private final Shape shape;
  private final int maxBytes;
  private final int maxResults;

  private EngramContentRetriever(Builder b) {
    this.engram = b.engram;
    this.fixed = b.fixed;
    this.resolver = b.resolver;
    this.shape = b.shape;
    this.maxBytes = b.maxBytes;
    this.maxResults = b.maxResults;
  }

  /**
   * Starts a retriever over {@code engram}; name the grants with {@link Builder#grants(Grants)} or
   * {@link Builder#grants(MemoryIdGrants)}.
   *
   * @param engram the memory
   * @return a builder
   */
  public static Builder builder(Engram engram) {
    return new Builder(engram);
  }

  /**
   * Retrieves memory for the query. A long query (a user message of any length) is clipped for
   * recall, as {@link AgentMemory#recallQuery(String)} does, instead of failing.
   *
   * @param query the query; its metadata's chat memory id names the grants unless they are fixed
   * @return the contents, possibly empty (also for a blank query)
   * @throws InvalidInputException if the grants cannot be resolved
   * @throws NullPointerException if {@code query} is null
   */
  @Override
  public List<Content> retrieve(Query query) {
    Objects.requireNonNull(query, "query");
    Grants grants = grantsFor(query);
    String text = query.text() == null ? "" : AgentMemory.recallQuery(query.text());
    if (text.isEmpty()) {
      return List.of();
    }
    return shape == Shape.PREPARED_CONTEXT ? context(grants, text) : hits(grants, text);
  }

  private Grants grantsFor(Query query) {
    if (fixed != null) {
      return fixed;
    }
    Object memoryId = query.metadata() == null ? null : query.metadata().chatMemoryId();
    if (memoryId == null) {
      throw new InvalidInputException("memoryId", "the query carries no chat memory id and the retriever has no fixed grants");
    }
    return Objects.requireNonNull(resolver).resolve(memoryId);
  }

  private List<Content> context(Grants grants, String text) {
    PreparedContext ctx = engram.prepareContext(grants, ContextRequest.of(text, maxBytes));
    if (ctx.status() != PreparedContext.Status.READY || ctx.content() == null) {
      return List.of();
    }
    StringBuilder cites = new StringBuilder();
    for (Citation c : ctx.citations()) {
      cites.append(cites.length() == 0 ? "" : " ").append(c.render());
    }
    Metadata metadata = new Metadata().put(CITATIONS_KEY, cites.toString());
    return List.of(Content.from(TextSegment.from(ctx.content(), metadata)));
  }

  private List<Content> hits(Grants grants, String text) {
    SearchResult result = engram.search(grants, SearchRequest.builder(text).limit(maxResults).build());
    if (result.fallbackReason() != null) {
      LOG.info("memory search ran {} instead of {}: {}", result.used(), result.requested(), result.fallbackReason());
    }
    List<Content> out = new ArrayList<>(result.hits().size());
    for (SearchHit hit : result.hits()) {
      MemoryEntry e = hit.entry();
      Citation c = e.citation();
      Metadata metadata = new Metadata()
          .put(CITATION_KEY, c.render())
          .put(SCOPE_KEY, c.scope())
          .put(ENTRY_ID_KEY, c.entryId())
          .put(VERSION_ID_KEY, c.versionId())
          .put(REVISION_KEY, c.revision());
      out.add(Content.from(TextSegment.from(e.content(), metadata), Map.of(ContentMetadata.SCORE, hit.score())));
    }
    return out;
  }

  /** Settings of an {@link EngramContentRetriever}. */
  public static final class Builder {
    private final Engram engram;
    private @Nullable Grants fixed;
    private @Nullable MemoryIdGrants resolver;
    private Shape shape = Shape.PREPARED_CONTEXT;
    private int maxBytes = ContextRequest.DEFAULT_MAX_BYTES;
    private int maxResults = SearchRequest.DEFAULT_LIMIT;

    private Builder(Engram engram) {
      this.engram = Objects.requireNonNull(engram, "engram");
    }

    /**
     * Fixed grants for every query.
     *
     * @param grants trusted grants
     * @return this builder
     * @throws NullPointerException if {@code grants} is null
     */
    public Builder grants(Grants grants) {
      this.fixed = Objects.requireNonNull(grants, "grants");
      this.resolver = null;
      return this;
    }

    /**
     * Grants from each query's chat memory id.
     *
     * @param resolver trusted code that maps the memory id to grants
     * @return this builder
     * @throws NullPointerException if {@code resolver} is null
     */
    public Builder grants(MemoryIdGrants resolver) {
      this.resolver = Objects.requireNonNull(resolver, "resolver");
      this.fixed = null;
      return this;
    }

    /**
     * What to return (default {@link Shape#PREPARED_CONTEXT}).
     *
     * @param shape the shape
     * @return this builder
     * @throws NullPointerException if {@code shape} is null
     */
    public Builder shape(Shape shape) {
      this.shape = Objects.requireNonNull(shape, "shape");
      return this;
    }

    /**
     * The UTF-8 byte budget of the prepared context (default {@value ContextRequest#DEFAULT_MAX_BYTES}).
     *
     * @param maxBytes within the engine's range for a prepared context (512..32768)
     * @return this builder
     * @throws InvalidInputException if out of range
     */
    public Builder maxBytes(int maxBytes) {
      ContextRequest.of("budget check", maxBytes);
      this.maxBytes = maxBytes;
      return this;
    }

    /**
     * The most search hits (default {@value SearchRequest#DEFAULT_LIMIT}).
     *
     * @param maxResults 1..{@value SearchRequest#MAX_LIMIT}
     * @return this builder
     * @throws InvalidInputException if out of range
     */
    public Builder maxResults(int maxResults) {
      if (maxResults < 1 || maxResults > SearchRequest.MAX_LIMIT) {
        throw new InvalidInputException("maxResults", "must be between 1 and " + SearchRequest.MAX_LIMIT + ", was " + maxResults);
      }
      this.maxResults = maxResults;
      return this;
    }

    /**
     * Builds the retriever.
     *
     * @return the retriever
     * @throws InvalidInputException if no grants were named
     */
    public EngramContentRetriever build() {
      if (fixed == null && resolver == null) {
        throw new InvalidInputException("grants", "name fixed grants or a MemoryIdGrants resolver");
      }
      return new EngramContentRetriever(this);
    }
  }
}
