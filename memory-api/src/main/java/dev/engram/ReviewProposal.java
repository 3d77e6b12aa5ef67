/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import dev.engram.spi.CurateOp;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What a {@link ReviewItem} would change when approved: already validated as model output when it was
 * queued, and validated again, against the state of that moment, when it is approved.
 */
public sealed interface ReviewProposal {

  /** @return the kind of change this proposal makes */
  ReviewKind kind();

  /**
   * A new experience (approval records it as version 1 of a new experience).
   *
   * @param situation the task and its circumstances
   * @param action what was done
   * @param outcome how it turned out
   * @param lesson what to do next time
   */
  record NewExperience(String situation, String action, String outcome, String lesson) implements ReviewProposal {
    /**
     * Checks the components are present.
     *
     * @param situation the task and its circumstances
     * @param action what was done
     * @param outcome how it turned out
     * @param lesson what to do next time
     * @throws NullPointerException when a component is null
     */
    public NewExperience {
      Objects.requireNonNull(situation, "situation");
      Objects.requireNonNull(action, "action");
      Objects.requireNonNull(outcome, "outcome");
      Objects.requireNonNull(lesson, "lesson");
    }

    @Override
    public ReviewKind kind() {
      return ReviewKind.EXPERIENCE;
    }
  }

  /**
   * One op of a curation run over one topic (approval applies it as the run would have).
   *
   * @param topic the topic whose slice the reasoner curated
   * @param op the op, as proposed (or as revised by a reviewer)
   */
  record Curation(String topic, CurateOp op) implements ReviewProposal {
    /**
     * Checks the components are present.
     *
     * @param topic the topic whose slice the reasoner curated
     * @param op the op
     * @throws NullPointerException when a component is null
     */
    public Curation {
      Objects.requireNonNull(topic, "topic");
      Objects.requireNonNull(op, "op");
    }

    @Override
    public ReviewKind kind() {
      return ReviewKind.CURATION;
    }
  }

  /**
   * One memory extracted from a window of captured sources (approval commits it as the flush would have:
   * a new entry, a new version of the entry at its path, or nothing when the content is already held).
   *
   * @param content the memory
   * @param topics where it is filed
   * @param type what kind of conclusion it is
   * @param occurredAt when the remembered thing happened
   * @param path the address it names, or null
   * @param disclosure when it should surface, or null
   * @param glossary words people type when they mean it
   * @param source the session it was extracted from ({@code session:<id>})
   */
  record Extraction(String content, List<String> topics, EntryType type, @Nullable Instant occurredAt,
      @Nullable String path, @Nullable String disclosure, List<String> glossary, @Nullable String source)
      implements ReviewProposal {
    /**
     * Checks and copies the components.
     *
     * @param content the memory
     * @param topics where it is filed
     * @param type what kind of conclusion it is
     * @param occurredAt when the remembered thing happened, or null
     * @param path the address it names, or null
     * @param disclosure when it should surface, or null
     * @param glossary words people type when they mean it
     * @param source the session it was extracted from, or null
     * @throws NullPointerException when {@code content}, {@code type} or a list (or an element of one) is null
     */
    public Extraction {
      Objects.requireNonNull(content, "content");
      topics = List.copyOf(topics);
      Objects.requireNonNull(type, "type");
      glossary = List.copyOf(glossary);
    }

    @Override
    public ReviewKind kind() {
      return ReviewKind.EXTRACTION;
    }
  }
}
