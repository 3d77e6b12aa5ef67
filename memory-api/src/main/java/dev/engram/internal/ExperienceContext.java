/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.internal;

import dev.engram.ContextRequest;
import dev.engram.Experience;
import dev.engram.ExperienceCitation;
import dev.engram.Grants;
import dev.engram.PreparedContext;
import dev.engram.UntrustedText;
import dev.engram.spi.FullTextQuery;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.ScoredExperience;
import dev.engram.spi.StoreCapability;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The experience share of a {@link PreparedContext}: up to {@value PreparedContext#EXPERIENCE_CANDIDATES}
 * active experience candidates of the visible scopes found by full text for the task, of which at most
 * {@value PreparedContext#MAX_EXPERIENCE_ITEMS} are rendered (and never more than a quarter of
 * {@link ContextRequest#maxItems()}), each within {@link ContextRequest#maxItemBytes()}, all of them within
 * a quarter of the budget the core profile left; what they leave unused goes to the memory hits. Items are
 * labelled {@code experience}, cited exactly, lesson first (so a cut keeps it), inside the same untrusted
 * fence as the entries. A store without {@link StoreCapability#REVIEW} holds no experience: the share is
 * then empty and the context is what it was without experience.
 */
final class ExperienceContext {
  /** The share of the budget (left by the core profile) experience may take. */
  static final int BUDGET_DIVISOR = 4;
  /** Room for an item number in the reserved bytes: a context renders at most 32 items, two digits. */
  private static final String WIDEST_NUMBER = "99";

  private final MemoryStore store;

  ExperienceContext(MemoryStore store) {
    this.store = store;
  }

  /** Experience picked for one context: rendered after the memory hits, in the bytes reserved for it. */
  static final class Plan {
    static final Plan NONE = new Plan(List.of(), List.of(), 0);
    private final List<Experience> picked;
    private final List<String> quoted;
    private final int bytes;

    private Plan(List<Experience> picked, List<String> quoted, int bytes) {
      this.picked = picked;
      this.quoted = quoted;
      this.bytes = bytes;
    }

    /** The bytes reserved for the experience items (their rendering never takes more). */
    int bytes() {
      return bytes;
    }

    /** {@code request} with the items the experience takes removed from the hits' share. */
    ContextRequest forHits(ContextRequest request) {
      if (picked.isEmpty()) {
        return request;
      }
      return request.toBuilder().maxItems(request.maxItems() - picked.size()).build();
    }

    /** Appends the items to {@code body}, numbered from {@code first}; returns their citations in order. */
    List<ExperienceCitation> appendTo(StringBuilder body, int first) {
      List<ExperienceCitation> out = new ArrayList<>();
      for (int i = 0; i < picked.size(); i++) {
        ExperienceCitation c = picked.get(i).citation();
        body.append(head(String.valueOf(first + i), c)).append(quoted.get(i)).append('\n');
        out.add(c);
      }
      return out;
    }
  }

  private static String head(String number, ExperienceCitation c) {
    return "[" + number + "] cite " + c.render() + " | experience\n";
  }

  /** The text an item quotes: the lesson first, then what it rests on. */
  static String text(Experience e) {
    return "Lesson: " + e.lesson() + "\nSituation: " + e.situation() + "\nAction: " + e.action() + "\nOutcome: "
        + e.outcome();
  }

  /**
   * Picks the experience for a context.
   *
   * @param grants the caller's grants
   * @param task the task, clipped as the search takes it
   * @param request the context request
   * @param budget the bytes the core profile left for hits and experience
   * @param rendered the items already rendered (the core profile's)
   */
  Plan plan(Grants grants, String task, ContextRequest request, int budget, int rendered) {
    int most = Math.min(Math.min(PreparedContext.MAX_EXPERIENCE_ITEMS, request.maxItems() / BUDGET_DIVISOR),
        request.maxItems() - rendered);
    if (most <= 0 || !store.capabilities().contains(StoreCapability.REVIEW)) {
      return Plan.NONE;
    }
    List<String> terms = FullTextQuery.terms(task);
    if (terms.isEmpty()) {
      return Plan.NONE;
    }
    List<ScoredExperience> found = store.searchExperience(new TreeSet<>(grants.visibleScopes()),
        new FullTextQuery(terms, Set.of(), Set.of()), PreparedContext.EXPERIENCE_CANDIDATES);
    int share = budget / BUDGET_DIVISOR;
    List<Experience> picked = new ArrayList<>();
    List<String> quoted = new ArrayList<>();
    Set<String> lessons = new HashSet<>();
    int used = 0;
    for (ScoredExperience s : found) {
      Experience e = s.experience();
      if (picked.size() >= most) {
        break;
      }
      if (!e.isActive() || !grants.canSee(e.scope()) || !lessons.add(Text.canonical(e.lesson()))) {
        continue;
      }
      String head = head(WIDEST_NUMBER, e.citation());
      int room = share - used - Text.utf8Length(head) - 1;
      int cap = Math.min(room, request.maxItemBytes());
      String full = UntrustedText.quote(text(e));
      if (Text.utf8Length(full) > cap && cap < PreparedContexts.MIN_CONTENT_BYTES) {
        continue;
      }
      String content = PreparedContexts.truncate(full, cap);
      picked.add(e);
      quoted.add(content);
      used += Text.utf8Length(head) + Text.utf8Length(content) + 1;
    }
    return picked.isEmpty() ? Plan.NONE : new Plan(List.copyOf(picked), List.copyOf(quoted), used);
  }
}
