/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.benchmarks.retrieval;

import dev.engram.WriteOptions;
import dev.engram.benchmarks.retrieval.LocomoFile.Conversation;
import dev.engram.benchmarks.retrieval.LocomoFile.Session;
import dev.engram.benchmarks.retrieval.LocomoFile.Turn;
import dev.engram.spi.EntryViews;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * What is written for each dialog turn. The content is the turn as said ({@code "Speaker: text"}, with
 * the caption of a shared image when asked), the turn's dia_id is the entry's evidence, and its path is
 * {@code turn/<dia_id>}.
 *
 * <p>The views embedded next to the content (see {@link TurnViewsReasoner}) are what a model that read
 * the conversation could write, made by rule: the gist is the turn's first sentence (as the engine's
 * own rule-based gist); with {@link #chunks}, the rest of a long turn is cut at sentence ends into
 * pieces of at most {@value #CHUNK_CHARS} characters, each a view of its own, so a detail deep inside a
 * long turn is not averaged away; with {@link Context#VIEW}, the turn inside its exchange (the
 * neighbouring turns of the session around it) is one more view. The engine embeds at most three views
 * besides the gist, the context window first.
 *
 * <p>With {@link Context#DISCLOSURE} the neighbouring turns go into the disclosure instead, where both
 * channels search them.
 *
 * @param captions append {@code " [shares <caption>]"} to turns that share an image
 * @param date where the session date goes: spelled out ({@link SessionDates}) into the disclosure, as
 *     written in the file in front of the content, or nowhere
 * @param before how many earlier turns of the session are in the context window
 * @param after how many later turns of the session are in the context window
 * @param chunks whether the sentences after the first become views
 */
public record TurnDocuments(boolean captions, Date date, int before, int after, Context context, boolean chunks) {
  /** The disclosure limit of the engine. */
  static final int MAX_DISCLOSURE_CHARS = 512;
  /** The engine's limits on views: gist length, view ("question") length and count. */
  static final int MAX_GIST_CHARS = 200;
  static final int MAX_VIEW_CHARS = 300;
  static final int MAX_VIEWS = 3;
  /** Each neighbour is clipped to this many characters in a context window. */
  static final int NEIGHBOUR_CHARS = 100;
  /** Sentences are packed into chunks of at most this many characters. */
  static final int CHUNK_CHARS = 200;
  /** A sentence ends at '.', '!' or '?' before a space, at least this many characters after it started. */
  static final int MIN_SENTENCE_CHARS = 20;

  /** Where the session date goes. */
  public enum Date {
    DISCLOSURE,
    CONTENT,
    OFF;

    static Date parse(String s) {
      return valueOf(s.strip().toUpperCase(Locale.ROOT));
    }
  }

  /** Where the neighbouring turns go. */
  public enum Context {
    VIEW,
    DISCLOSURE,
    NONE;

    static Context parse(String s) {
      return valueOf(s.strip().toUpperCase(Locale.ROOT));
    }
  }

  /** One entry to write, with the views its reasoner will answer. */
  public record Doc(String diaId, String path, String content, @Nullable String disclosure, EntryViews views) {
    WriteOptions options() {
      WriteOptions.Builder b = WriteOptions.builder().evidence(diaId).path(path);
      if (disclosure != null) {
        b.disclosure(disclosure);
      }
      return b.build();
    }
  }

  public List<Doc> docs(Conversation conversation) {
    List<Doc> out = new ArrayList<>(conversation.turnCount());
    for (Session session : conversation.sessions()) {
      List<Turn> turns = session.turns();
      for (int i = 0; i < turns.size(); i++) {
        Turn t = turns.get(i);
        String content = said(t);
        if (date == Date.CONTENT && !session.dateTime().isBlank()) {
          content = session.dateTime().strip() + " " + content;
        }
        String disclosure = context == Context.DISCLOSURE ? disclosure(turns, i) : null;
        if (date == Date.DISCLOSURE) {
          String when = SessionDates.words(session.dateTime());
          if (when != null) {
            disclosure = disclosure == null ? when : clip(when + " " + disclosure, MAX_DISCLOSURE_CHARS);
          }
        }
        out.add(new Doc(t.diaId(), pathOf(t.diaId()), content, disclosure, views(turns, i, content)));
      }
    }
    return out;
  }

  /** {@code turn/D1.4} for dia_id {@code D1:4}: path segments allow letters, digits, '_', '-' and '.'. */
  static String pathOf(String diaId) {
    String seg = diaId.strip().replaceAll("[^A-Za-z0-9_.-]+", ".").replaceAll("^\\.+|\\.+$", "");
    if (seg.isEmpty() || seg.chars().allMatch(c -> c == '.')) {
      seg = "x" + Integer.toHexString(diaId.hashCode());
    }
    return "turn/" + seg;
  }

  private EntryViews views(List<Turn> turns, int i, String content) {
    List<String> sentences = sentences(content);
    String gist = clip(sentences.get(0), MAX_GIST_CHARS);
    List<String> views = new ArrayList<>();
    if (context == Context.VIEW) {
      String window = window(turns, i);
      if (window != null) {
        views.add(clip(window, MAX_VIEW_CHARS));
      }
    }
    if (chunks) {
      String speaker = turns.get(i).speaker().strip() + ": ";
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
    }
    return new EntryViews(gist, views.subList(0, Math.min(MAX_VIEWS, views.size())));
  }

  /** The sentences of a text, whitespace collapsed; never empty for a non-blank text. */
  static List<String> sentences(String text) {
    String f = flat(text);
    List<String> out = new ArrayList<>();
    int start = 0;
    for (int i = 0; i < f.length() - 1; i++) {
      char c = f.charAt(i);
      if ((c == '.' || c == '!' || c == '?') && f.charAt(i + 1) == ' ' && i - start >= MIN_SENTENCE_CHARS) {
        out.add(f.substring(start, i + 1).strip());
        start = i + 2;
      }
    }
    if (start < f.length()) {
      out.add(f.substring(start).strip());
    }
    out.removeIf(String::isEmpty);
    if (out.isEmpty()) {
      out.add(f);
    }
    return out;
  }

  private String said(Turn t) {
    String text = t.speaker().strip() + ": " + t.text().strip();
    if (captions && t.caption() != null && !t.caption().isBlank()) {
      text += " [shares " + t.caption().strip() + "]";
    }
    return text;
  }

  private List<Turn> neighbours(List<Turn> turns, int i, boolean earlier) {
    List<Turn> out = new ArrayList<>();
    if (earlier) {
      for (int j = Math.max(0, i - before); j < i; j++) {
        out.add(turns.get(j));
      }
    } else {
      for (int j = i + 1; j <= Math.min(turns.size() - 1, i + after); j++) {
        out.add(turns.get(j));
      }
    }
    return out;
  }

  /** The turn between its neighbours, in order; neighbours are clipped so the turn keeps most of the room. */
  private @Nullable String window(List<Turn> turns, int i) {
    List<Turn> earlier = neighbours(turns, i, true);
    List<Turn> later = neighbours(turns, i, false);
    if (earlier.isEmpty() && later.isEmpty()) {
      return null;
    }
    List<String> parts = new ArrayList<>();
    for (Turn t : earlier) {
      parts.add(clip(flat(said(t)), NEIGHBOUR_CHARS));
    }
    parts.add(flat(said(turns.get(i))));
    for (Turn t : later) {
      parts.add(clip(flat(said(t)), NEIGHBOUR_CHARS));
    }
    return String.join(" ", parts);
  }

  /** The neighbouring turns, nearest first, each clipped so that all fit the disclosure limit. */
  private @Nullable String disclosure(List<Turn> turns, int i) {
    List<Turn> near = new ArrayList<>();
    for (int d = 1; d <= Math.max(before, after); d++) {
      if (d <= before && i - d >= 0) {
        near.add(turns.get(i - d));
      }
      if (d <= after && i + d < turns.size()) {
        near.add(turns.get(i + d));
      }
    }
    if (near.isEmpty()) {
      return null;
    }
    int share = MAX_DISCLOSURE_CHARS / near.size() - 2;
    StringBuilder sb = new StringBuilder();
    for (Turn t : near) {
      String s = clip(flat(said(t)), share);
      if (sb.length() > 0) {
        sb.append(" | ");
      }
      sb.append(s);
    }
    String out = sb.toString().strip();
    return out.isEmpty() ? null : clip(out, MAX_DISCLOSURE_CHARS);
  }

  static String flat(String s) {
    return s.replaceAll("\\s+", " ").strip();
  }

  /** At most {@code max} characters, cut at a space when one is near the end, marked with an ellipsis. */
  static String clip(String s, int max) {
    if (s.length() <= max) {
      return s;
    }
    int cut = s.lastIndexOf(' ', max - 1);
    return (cut > max / 2 ? s.substring(0, cut) : s.substring(0, max - 1)) + "…";
  }
}
