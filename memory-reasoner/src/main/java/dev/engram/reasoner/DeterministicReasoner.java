/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.reasoner;

import dev.engram.EntryType;
import dev.engram.spi.ExtractRequest;
import dev.engram.spi.ExtractedMemory;
import dev.engram.spi.Reasoner;
import dev.engram.spi.TagProposal;
import dev.engram.spi.TagRequest;
import java.util.List;

/**
 * The no-model reasoner: files every write in the first grant, under the caller's topic hints (or
 * {@code general}), as the hinted type (or {@code fact}), with the content trimmed. It never flags
 * duplicates itself (the engine's canonical dedupe still applies) and has no curate step, so
 * {@code curate} is a no-op. It extracts one memory per captured turn ({@code "speaker: text"}, topic
 * {@code conversation}, type {@code event}, citing the turn, at the turn's time, with the day in the
 * disclosure and the surrounding exchange as an embedded view; see {@link TurnExtraction} for why).
 * It incubates no experience ({@link #incubates()} is false): a lesson needs judgement a rule cannot
 * give, so {@code experience().incubate} reports that it did nothing and task outcomes wait after the
 * incubation cursor for a reasoner that does. Use it for tests, offline runs, and as a kill switch.
 */
public final class DeterministicReasoner implements Reasoner {

  /** It never looks at visible topics or duplicate candidates, so the engine need not gather them. */
  @Override
  public boolean usesContext() {
    return false;
  }

  @Override
  public boolean extracts() {
    return true;
  }

  @Override
  public List<ExtractedMemory> extract(ExtractRequest request) {
    return TurnExtraction.extract(request);
  }

  @Override
  public TagProposal tag(TagRequest request) {
    List<String> topics = request.topicsHint().isEmpty() ? List.of("general") : request.topicsHint();
    EntryType type = request.typeHint() != null ? request.typeHint() : EntryType.FACT;
    return new TagProposal(request.grants().get(0), topics, type, request.content().trim(), null);
  }
}
