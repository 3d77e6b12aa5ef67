/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram;

import java.util.List;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * A bounded, cited view of memory for one request: untrusted historical data, not instructions, and
 * not a durable asset.
 *
 * @param status whether anything was rendered
 * @param content the rendered text, null when {@code EMPTY}
 * @param contentBytes the UTF-8 length of {@code content} (0 when {@code EMPTY}), never above the budget
 * @param citations the exact version of every rendered entry, in render order
 * @param experience the exact version of every rendered experience, in render order (at most
 *     {@value #MAX_EXPERIENCE_ITEMS}); their items are labelled {@code experience}
 */
public record PreparedContext(
    Status status, @Nullable String content, int contentBytes, List<Citation> citations,
    List<ExperienceCitation> experience) {
  /** The most experience items one context renders (of its {@link ContextRequest#maxItems()}). */
  public static final int MAX_EXPERIENCE_ITEMS = 2;
  /** The most active experience candidates a context looks at before it picks its items. */
  public static final int EXPERIENCE_CANDIDATES = 8;

  /** Whether a context rendered anything. */
  public enum Status {
    /** Something visible matched and was rendered into {@code content}. */
    READY,
    /** Nothing was rendered: {@code content} is null and there are no citations. */
    EMPTY
  }

  /**
   * Checks the status and copies the citation lists.
   *
   * @param status whether anything was rendered
   * @param content the rendered text, or null
   * @param contentBytes the UTF-8 length of {@code content}
   * @param citations the exact version of every rendered entry, in render order
   * @param experience the exact version of every rendered experience, in render order
   * @throws NullPointerException when {@code status}, {@code citations} or {@code experience} (or an element
   *     of one) is null
   */
  public PreparedContext {
    Objects.requireNonNull(status, "status");
    citations = List.copyOf(citations);
    experience = List.copyOf(experience);
  }

  /**
   * A context that renders no experience.
   *
   * @param status ready or empty
   * @param content the rendered text, null when empty
   * @param contentBytes its UTF-8 length
   * @param citations the rendered entries
   */
  public PreparedContext(Status status, @Nullable String content, int contentBytes, List<Citation> citations) {
    this(status, content, contentBytes, citations, List.of());
  }

  /** @return a context with nothing rendered: {@link Status#EMPTY}, no content, 0 bytes, no citations */
  public static PreparedContext empty() {
    return new PreparedContext(Status.EMPTY, null, 0, List.of(), List.of());
  }
}
