/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.spi;

import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * Files content on write ({@link #tag}) and, optionally, tidies a topic ({@link #curate}). Its answers
 * are untrusted candidates: the engine validates them, and a bad answer fails the call without
 * changing memory.
 */
public interface Reasoner {

  /**
   * Files one write: where it goes, which topics and type it gets, and the optional fields. The caller's
   * fields win over the proposal: a type the caller gave replaces the proposed one, and the caller's
   * topics are kept, the proposed ones added after them; the reasoner fills what the caller left open
   * (namespace, further topics, the normalized wording, the duplicate among the candidates).
   *
   * @param request the content, the caller's hints and (when {@link #usesContext()}) the context
   * @return the proposal, validated by the engine before anything is stored
   * @throws RuntimeException when the reasoner fails; the engine reports it as a {@code ReasonerException}
   */
  TagProposal tag(TagRequest request);

  /**
   * Whether {@link #tag} looks at {@link TagRequest#visibleTopics()} and {@link TagRequest#candidates()}.
   * When false the engine skips the reads that gather them and passes empty lists, which saves two
   * queries per write. When true (a model-backed reasoner, whose calls cost), the engine also answers
   * a write whose canonical content is already active in a granted namespace as {@code DEDUPED}
   * before calling {@link #tag} at all. The default is true.
   *
   * @return whether the tag step reads its context
   */
  default boolean usesContext() {
    return true;
  }

  /**
   * What the engine does when {@link #tag} fails (throws, or its proposal is refused) for a write whose
   * caller left its type or its topics open: fail the write, or file it deterministically and say so on
   * the result. A write whose caller gave both is filed from the caller's fields either way. The default
   * is {@link TagFailure#FAIL}.
   *
   * @return how a failed tag step ends
   */
  default TagFailure tagFailure() {
    return TagFailure.FAIL;
  }

  /**
   * Whether {@link #curate} does anything; when false, {@code Engram.curate} is a no-op.
   *
   * @return whether this reasoner curates
   */
  default boolean curates() {
    return false;
  }

  /**
   * Proposes operations for one slice of a dirty topic. The default proposes none.
   *
   * @param request the scope, topic, blurb and active entries of the slice
   * @return the proposed operations, each validated by the engine (invalid ones are rejected, not applied)
   */
  default List<CurateOp> curate(CurateRequest request) {
    return List.of();
  }

  /**
   * Whether {@link #extract} does anything; when false, {@code Engram.flush} refuses to run.
   *
   * @return true when this reasoner extracts memories from captured sources (the default: false)
   */
  default boolean extracts() {
    return false;
  }

  /**
   * Turns one window of captured sources into candidate memories, each citing the ids of the window's records
   * it rests on. The answer is untrusted (see {@link ExtractedMemory}). The default extracts nothing.
   *
   * @param request the scope, the window of records after its cursor, and nearby entries to compare with
   * @return the candidates, possibly none; one invalid candidate fails the whole window
   */
  default List<ExtractedMemory> extract(ExtractRequest request) {
    return List.of();
  }

  /**
   * Whether {@link #incubate} turns task outcomes into experience; the default (and the deterministic
   * reasoner) does not, and {@code incubate} then reports that it did nothing.
   *
   * @return true when {@link #incubate} is implemented
   */
  default boolean incubates() {
    return false;
  }

  /**
   * Turns one window of captured task outcomes into candidate experience (situation, action, outcome,
   * lesson), each citing the ids of the window's records it rests on. The answer is untrusted (see
   * {@link IncubatedExperience}) and only ever becomes pending review items. The default incubates
   * nothing.
   *
   * @param request the window and the scope's known experience
   * @return the candidates, possibly none
   */
  default List<IncubatedExperience> incubate(IncubateRequest request) {
    return List.of();
  }

  /**
   * Writes the views (gist and questions) of a version about to be stored. Return null to let the
   * engine build rule-based views from the content, disclosure, glossary and path. The answer is
   * untrusted: invalid views are replaced by the rule-based ones.
   *
   * @param content the content
   * @param disclosure the disclosure, or null
   * @param glossary the glossary terms
   * @param path the path, or null
   * @return the views, or null for the rule-based ones
   */
  default @Nullable EntryViews views(
      String content, @Nullable String disclosure, List<String> glossary, @Nullable String path) {
    return null;
  }

  /**
   * A reasoner that does what this one does and also reports each of its model calls, successful or
   * failed, to {@code listener} on the calling thread (see {@link ModelCallListener}). This reasoner is
   * left unchanged; the engine calls this once when it is built, to keep model usage per scope and day.
   * A reasoner that calls no model (the default) returns itself; a wrapper of another reasoner returns
   * a wrapper of {@code delegate.reportingTo(listener)}.
   *
   * @param listener receives every model call
   * @return a reasoner that reports its model calls to {@code listener}
   * @throws NullPointerException if {@code listener} is null
   */
  default Reasoner reportingTo(ModelCallListener listener) {
    java.util.Objects.requireNonNull(listener, "listener");
    return this;
  }
}
