/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.tck;

import dev.engram.EntryType;
import dev.engram.spi.Reasoner;
import dev.engram.spi.TagProposal;
import dev.engram.spi.TagRequest;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;

/**
 * A reasoner whose filing decision the test makes: every write is proposed for the namespace last set
 * with {@link #fileInto(String)} (or the first grant when none is set), under the caller's topic hints.
 * It lets a contract test propose targets above, below or beside the grants and check that the engine
 * accepts only writable ones.
 */
public final class TargetedReasoner implements Reasoner {
  private final AtomicReference<@Nullable String> target = new AtomicReference<>();

  /**
   * Proposes {@code namespace} for the following writes; {@code null} returns to the first grant.
   *
   * @param namespace the namespace to propose, or null
   * @return this reasoner
   */
  public TargetedReasoner fileInto(@Nullable String namespace) {
    target.set(namespace);
    return this;
  }

  @Override
  public TagProposal tag(TagRequest request) {
    String ns = target.get();
    List<String> topics = request.topicsHint().isEmpty() ? List.of("general") : request.topicsHint();
    EntryType type = request.typeHint() != null ? request.typeHint() : EntryType.FACT;
    return new TagProposal(ns != null ? ns : request.grants().get(0), topics, type, request.content(), null);
  }
}
