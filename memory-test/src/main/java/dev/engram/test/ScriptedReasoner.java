/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.test;

import dev.engram.reasoner.DeterministicReasoner;
import dev.engram.spi.CurateOp;
import dev.engram.spi.CurateRequest;
import dev.engram.spi.ExtractRequest;
import dev.engram.spi.ExtractedMemory;
import dev.engram.spi.Reasoner;
import dev.engram.spi.TagFailure;
import dev.engram.spi.TagProposal;
import dev.engram.spi.TagRequest;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * A reasoner whose answers a test scripts. It tags like {@link DeterministicReasoner} until
 * {@link #onTag} says otherwise (a failed tag fails the write unless {@link #onTagFailure} says otherwise),
 * curates ({@link #curates()} is true) with whatever {@link #onCurate} returns, extracts like the
 * deterministic reasoner until {@link #onExtract} says otherwise, incubates ({@link #incubates()} is true)
 * with whatever {@link #onIncubate} returns (nothing until then), and records every request it receives.
 * Answers may be deliberately hostile: null lists,
 * null ops, ids it was never shown. Thread-safe.
 */
public final class ScriptedReasoner implements Reasoner {
  private final DeterministicReasoner deterministic = new DeterministicReasoner();
  private volatile Function<TagRequest, TagProposal> tagScript = deterministic::tag;
  private volatile Function<CurateRequest, List<CurateOp>> curateScript = request -> List.of();
  private volatile TagFailure tagFailure = TagFailure.FAIL;
  private final List<TagRequest> tagRequests = new CopyOnWriteArrayList<>();
  private final List<CurateRequest> curateRequests = new CopyOnWriteArrayList<>();
  private volatile Function<ExtractRequest, List<ExtractedMemory>> extractScript = deterministic::extract;
  private volatile Function<dev.engram.spi.IncubateRequest, List<dev.engram.spi.IncubatedExperience>> incubateScript =
      request -> List.of();
  private final List<dev.engram.spi.IncubateRequest> incubateRequests = new CopyOnWriteArrayList<>();

  /**
   * Answers every later tag request with {@code script}; it may return null or throw.
   *
   * @param script the answer to each request
   * @return this reasoner
   * @throws NullPointerException if {@code script} is null
   */
  public ScriptedReasoner onTag(Function<TagRequest, TagProposal> script) {
    this.tagScript = Objects.requireNonNull(script, "script");
    return this;
  }

  /**
   * From now on a failed tag step ends as {@code failure} says ({@link TagFailure#FAIL} until set).
   *
   * @param failure what the engine does when tagging fails
   * @return this reasoner
   * @throws NullPointerException if {@code failure} is null
   */
  public ScriptedReasoner onTagFailure(TagFailure failure) {
    this.tagFailure = Objects.requireNonNull(failure, "failure");
    return this;
  }

  @Override
  public TagFailure tagFailure() {
    return tagFailure;
  }

  /**
   * Tags like the deterministic reasoner again.
   *
   * @return this reasoner
   */
  public ScriptedReasoner tagDeterministically() {
    return onTag(deterministic::tag);
  }

  /**
   * Answers every later curate request with {@code script}; it may return null, null ops or throw.
   *
   * @param script the answer to each request
   * @return this reasoner
   * @throws NullPointerException if {@code script} is null
   */
  public ScriptedReasoner onCurate(Function<CurateRequest, List<CurateOp>> script) {
    this.curateScript = Objects.requireNonNull(script, "script");
    return this;
  }

  /**
   * Proposes {@code ops} (null elements allowed) whenever the slice of {@code topic} is curated, and nothing
   * for other topics.
   *
   * @param topic the topic whose slices get the ops
   * @param ops the operations to propose, in order
   * @return this reasoner
   */
  public ScriptedReasoner onCurate(String topic, CurateOp... ops) {
    List<CurateOp> proposal = Arrays.asList(ops.clone());
    return onCurate(request -> request.topic().equals(topic) ? proposal : List.of());
  }

  @Override
  public TagProposal tag(TagRequest request) {
    tagRequests.add(request);
    return tagScript.apply(request);
  }

  @Override
  public boolean curates() {
    return true;
  }

  @Override
  public List<CurateOp> curate(CurateRequest request) {
    curateRequests.add(request);
    return curateScript.apply(request);
  }

  /**
   * Answers every later extract request with {@code script}; it may return null, null candidates or throw.
   *
   * @param script the answer to each request
   * @return this reasoner
   * @throws NullPointerException if {@code script} is null
   */
  public ScriptedReasoner onExtract(Function<ExtractRequest, List<ExtractedMemory>> script) {
    this.extractScript = Objects.requireNonNull(script, "script");
    return this;
  }

  @Override
  public boolean extracts() {
    return true;
  }

  @Override
  public List<ExtractedMemory> extract(ExtractRequest request) {
    return extractScript.apply(request);
  }

  /**
   * Answers every later incubate request with {@code script}; it may return null, null candidates or throw.
   *
   * @param script the answer to each request
   * @return this reasoner
   * @throws NullPointerException if {@code script} is null
   */
  public ScriptedReasoner onIncubate(
      Function<dev.engram.spi.IncubateRequest, List<dev.engram.spi.IncubatedExperience>> script) {
    this.incubateScript = Objects.requireNonNull(script, "script");
    return this;
  }

  @Override
  public boolean incubates() {
    return true;
  }

  @Override
  public List<dev.engram.spi.IncubatedExperience> incubate(dev.engram.spi.IncubateRequest request) {
    incubateRequests.add(request);
    return incubateScript.apply(request);
  }

  /**
   * Every incubate request received, oldest first.
   *
   * @return the requests (a copy)
   */
  public List<dev.engram.spi.IncubateRequest> incubateRequests() {
    return List.copyOf(incubateRequests);
  }

  /** @return every tag request received, oldest first (a copy) */
  public List<TagRequest> tagRequests() {
    return List.copyOf(tagRequests);
  }

  /** @return every curate request received, oldest first (a copy) */
  public List<CurateRequest> curateRequests() {
    return List.copyOf(curateRequests);
  }

  /**
   * @return the most recent tag request
   * @throws IllegalStateException if no tag request was received
   */
  public TagRequest lastTagRequest() {
    if (tagRequests.isEmpty()) {
      throw new IllegalStateException("no tag request was received");
    }
    return tagRequests.get(tagRequests.size() - 1);
  }
}
