/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.reasoner;

import dev.engram.spi.TextAnalysis;
import dev.engram.CapturedSource;
import dev.engram.EntryType;
import dev.engram.spi.EntryViews;
import dev.engram.spi.ExtractRequest;
import dev.engram.spi.ExtractedMemory;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.TextStyle;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * One memory per captured turn, with what makes a turn findable on its own. Each choice rests on a
 * reason that holds for any conversation, not on one data set (measured on REALTALK, see
 * {@code docs/BENCHMARKS.md}):
 *
 * <ul>
 *   <li>content {@code "speaker: text"}: who said it is part of what was said ("what did Ana say about
 *       …"); evidence is the record's id, {@code occurredAt} its event time;
 *   <li>disclosure: the day it happened, spelled as people type it ({@code "8 May 2023 2023-05-08"}), so a
 *       question naming a date or month meets the turns of that day in the full-text channel;
 *   <li>views (embedded, not full-text indexed): the gist (first sentence), the turn inside its exchange
 *       (the previous and next turn of the same session, clipped so the turn keeps most of the room) —
 *       a reply like "Yes, twice last year" means nothing without the question it answers — and the rest
 *       of a long turn in sentence chunks, so one detail deep in a long turn is not averaged away by a
 *       single vector. The neighbours stay out of the full-text index: there every turn would match its
 *       neighbours' words at full weight and the turn that says a thing would no longer stand out;
 *   <li>a retrieval key (searched by full text and by its vector as arms of their own, see
 *       {@link EntryViews}): the previous turn of the same session, clipped to {@value #KEY_PREVIOUS_CHARS}
 *       characters, and this turn — the question a reply answers is how people ask for it later ("What's
 *       your favourite food?" — "Sushi."), and as its own arm it finds the reply without the question's
 *       words drowning out the turn that says a thing.
 * </ul>
 */
final class TurnExtraction {
  static final String TOPIC = "conversation";
  static final int MAX_GIST_CHARS = 200;
  static final int MAX_VIEW_CHARS = 300;
  static final int MAX_VIEWS = 3;
  static final int NEIGHBOUR_CHARS = 100;
  static final int CHUNK_CHARS = 200;
  static final int KEY_PREVIOUS_CHARS = 300;

  private TurnExtraction() {}

  static List<ExtractedMemory> extract(ExtractRequest request) {
    List<CapturedSource> window = request.window();
    List<ExtractedMemory> out = new ArrayList<>(window.size());
    for (int i = 0; i < window.size(); i++) {
      CapturedSource s = window.get(i);
      String content = said(s);
      out.add(new ExtractedMemory(content, List.of(TOPIC), EntryType.EVENT, List.of(s.id()), s.occurredAt(), null,
          day(s), List.of(), views(window, i, content, request.before())));
    }
    return out;
  }

  static String said(CapturedSource s) {
    return s.speaker().strip() + ": " + s.text().strip();
  }

  /** {@code "8 May 2023 2023-05-08"}: the day (UTC) in words and in ISO form. */
  static String day(CapturedSource s) {
    LocalDate d = LocalDate.ofInstant(s.occurredAt(), ZoneOffset.UTC);
    return d.getDayOfMonth() + " " + d.getMonth().getDisplayName(TextStyle.FULL, Locale.ENGLISH) + " " + d.getYear()
        + " " + d;
  }

  /**
   * The record before {@code window.get(i)} in the same session: the previous one of the window, or for the
   * window's first the record before the window; null when there is none.
   */
  private static @Nullable CapturedSource previous(List<CapturedSource> window, int i, List<CapturedSource> before) {
    CapturedSource p = i > 0 ? window.get(i - 1) : before.isEmpty() ? null : before.get(before.size() - 1);
    return p != null && p.sessionId().equals(window.get(i).sessionId()) ? p : null;
  }

  private static EntryViews views(List<CapturedSource> window, int i, String content, List<CapturedSource> before) {
    List<String> sentences = TextAnalysis.sentences(content);
    String gist = clip(sentences.get(0), MAX_GIST_CHARS);
    List<String> views = new ArrayList<>();
    CapturedSource prior = previous(window, i, before);
    String exchange = exchange(window, i, prior);
    if (exchange != null) {
      views.add(clip(exchange, MAX_VIEW_CHARS));
    }
    String speaker = window.get(i).speaker().strip() + ": ";
    StringBuilder chunk = new StringBuilder();
    for (String s : sentences.subList(1, sentences.size())) {
      if (chunk.length() > 0 && chunk.length() + 1 + s.length() > CHUNK_CHARS) {
        views.add(clip(speaker + chunk, MAX_VIEW_CHARS));
        chunk.setLength(0);
      }
      chunk.append(chunk.length() > 0 ? " " : "").append(s);
    }
    if (chunk.length() > 0) {
      views.add(clip(speaker + chunk, MAX_VIEW_CHARS));
    }
    List<String> keys = List.of();
    if (prior != null) {
      String key = clip(flat(said(prior)), KEY_PREVIOUS_CHARS) + " " + flat(content);
      keys = List.of(clip(key, EntryViews.MAX_KEY_CHARS));
    }
    return new EntryViews(gist, views.subList(0, Math.min(MAX_VIEWS, views.size())), keys);
  }

  /** The turn between its neighbours of the same session ({@code before}, and the next record of the window), or null when it has none. */
  private static @Nullable String exchange(List<CapturedSource> window, int i, @Nullable CapturedSource before) {
    CapturedSource turn = window.get(i);
    CapturedSource after = i + 1 < window.size() && window.get(i + 1).sessionId().equals(turn.sessionId())
        ? window.get(i + 1) : null;
    if (before == null && after == null) {
      return null;
    }
    List<String> parts = new ArrayList<>(3);
    if (before != null) {
      parts.add(clip(flat(said(before)), NEIGHBOUR_CHARS));
    }
    parts.add(flat(said(turn)));
    if (after != null) {
      parts.add(clip(flat(said(after)), NEIGHBOUR_CHARS));
    }
    return String.join(" ", parts);
  }


  static String flat(String s) {
    return s.replaceAll("\\s+", " ").strip();
  }

  /** At most {@code max} characters, cut at a space near the end, marked with an ellipsis. */
  static String clip(String s, int max) {
    if (s.length() <= max) {
      return s;
    }
    int cut = s.lastIndexOf(' ', max - 1);
    return (cut > max / 2 ? s.substring(0, cut) : s.substring(0, max - 1)) + "…";
  }
}
