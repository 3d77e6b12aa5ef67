/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.internal;

import dev.engram.spi.TextAnalysis;
import dev.engram.spi.EntryViews;
import dev.engram.spi.Reasoner;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The texts embedded for one version: the content itself, a gist and up to three more views. Views
 * come from the reasoner when it writes them, else from rules over content, disclosure, glossary and
 * path: the gist is the first sentence; the views are a question per disclosure, glossary and path, and
 * the view slots these leave free take the rest of a long content in sentence chunks (consecutive
 * sentences after the first, cut at sentence ends, at most {@value #CHUNK_CHARS} characters each), so
 * that a detail deep in a long text is not averaged away by the single vector of the whole. The cap is
 * {@value #MAX_QUESTIONS} views, five embedded texts per version in all: what a long content holds beyond
 * its first four sentence chunks is embedded only as part of the content. A reasoner's own views (an LLM
 * writing questions the entry answers) are the richer path and replace the rules.
 */
final class Views {
  private static final Logger LOG = LoggerFactory.getLogger(Views.class);
  static final int MAX_GIST_CHARS = 200;
  static final int MAX_QUESTION_CHARS = 300;
  static final int MAX_QUESTIONS = 3;
  /** The longest sentence chunk of the rule-based views. */
  static final int CHUNK_CHARS = 200;

  private Views() {}

  /** View name → text, content first, without repeats. */
  static Map<String, String> texts(
      Reasoner reasoner, String content, @Nullable String disclosure, List<String> glossary, @Nullable String path) {
    return texts(reasoner, content, disclosure, glossary, path, null);
  }

  /**
   * As {@link #texts(Reasoner, String, String, List, String)}; {@code written} views (from the tag
   * answer) are used when valid, without asking the reasoner again. Invalid written views fall back
   * to the rules, not to another reasoner call.
   */
  static Map<String, String> texts(Reasoner reasoner, String content, @Nullable String disclosure,
      List<String> glossary, @Nullable String path, @Nullable EntryViews written) {
    EntryViews views;
    try {
      EntryViews proposed = written != null ? written : reasoner.views(content, disclosure, glossary, path);
      views = validate(proposed);
      if (proposed != null && views == null) {
        LOG.warn("The reasoner's views of a version are invalid; the version is embedded with rule-based views");
      }
    } catch (RuntimeException e) {
      // the exception's class only: a model's error may quote the content, which is never logged
      LOG.warn("The reasoner failed to write the views of a version ({}); the version is embedded with rule-based views",
          e.getClass().getName());
      views = null;
    }
    if (views == null) {
      views = ruleBased(content, disclosure, glossary, path);
    }
    Map<String, String> out = new LinkedHashMap<>();
    out.put("content", content);
    if (!views.gist().isEmpty() && !out.containsValue(views.gist())) {
      out.put("gist", views.gist());
    }
    int i = 1;
    for (String q : views.questions()) {
      if (!out.containsValue(q)) {
        out.put("question" + i++, q);
      }
    }
    return out;
  }

  static EntryViews ruleBased(String content, @Nullable String disclosure, List<String> glossary, @Nullable String path) {
    String gist = clip(firstSentence(content), MAX_GIST_CHARS);
    if (!glossary.isEmpty()) {
      gist = clip(gist + " (" + String.join(", ", glossary) + ")", MAX_GIST_CHARS);
    }
    List<String> questions = new ArrayList<>();
    if (disclosure != null) {
      questions.add(clip("What should be remembered " + lowerFirst(disclosure).replaceAll("[.?!]+$", "") + "?",
          MAX_QUESTION_CHARS));
    }
    if (!glossary.isEmpty()) {
      questions.add(clip("What is known about " + String.join(", ", glossary) + "?", MAX_QUESTION_CHARS));
    }
    if (path != null) {
      String topic = path.replaceFirst("^[a-z][a-z0-9_-]*://", "").replaceAll("[/_.-]+", " ").trim();
      if (!topic.isEmpty()) {
        questions.add(clip("What is recorded about " + topic + "?", MAX_QUESTION_CHARS));
      }
    }
    List<String> sentences = TextAnalysis.sentences(content);
    StringBuilder chunk = new StringBuilder();
    for (String sentence : sentences.subList(1, sentences.size())) {
      if (questions.size() >= MAX_QUESTIONS) {
        break;
      }
      if (chunk.length() > 0 && chunk.length() + 1 + sentence.length() > CHUNK_CHARS) {
        questions.add(clip(chunk.toString(), MAX_QUESTION_CHARS));
        chunk.setLength(0);
      }
      chunk.append(chunk.length() > 0 ? " " : "").append(sentence);
    }
    if (chunk.length() > 0 && questions.size() < MAX_QUESTIONS) {
      questions.add(clip(chunk.toString(), MAX_QUESTION_CHARS));
    }
    return new EntryViews(gist, questions.subList(0, Math.min(MAX_QUESTIONS, questions.size())));
  }


  /**
   * The valid retrieval keys of {@code written} (flattened whitespace, without repeats), or none: a list
   * longer than {@link EntryViews#MAX_KEYS}, or with a blank or longer key than
   * {@link EntryViews#MAX_KEY_CHARS}, is dropped whole with a warning (the version is stored without keys).
   */
  static List<String> keys(@Nullable EntryViews written) {
    if (written == null || written.keys().isEmpty()) {
      return List.of();
    }
    List<String> out = new ArrayList<>();
    try {
      if (written.keys().size() > EntryViews.MAX_KEYS) {
        throw new dev.engram.InvalidInputException("keys",
            written.keys().size() + " retrieval keys; the limit is " + EntryViews.MAX_KEYS);
      }
      for (String k : written.keys()) {
        String key = Text.shortText("key", k, EntryViews.MAX_KEY_CHARS).replaceAll("\\s+", " ").strip();
        if (!out.contains(key)) {
          out.add(key);
        }
      }
    } catch (dev.engram.InvalidInputException e) {
      LOG.warn("The reasoner's retrieval keys of a version are invalid ({}); the version is stored without keys",
          e.getMessage());
      return List.of();
    }
    return List.copyOf(out);
  }

  private static @Nullable EntryViews validate(@Nullable EntryViews views) {
    if (views == null) {
      return null;
    }
    String gist = Text.shortText("gist", views.gist(), MAX_GIST_CHARS);
    if (views.questions().size() > MAX_QUESTIONS) {
      return null;
    }
    List<String> qs = new ArrayList<>();
    for (String q : views.questions()) {
      qs.add(Text.shortText("question", q, MAX_QUESTION_CHARS));
    }
    return new EntryViews(gist, qs);
  }

  private static String firstSentence(String content) {
    String flat = Text.canonical(content);
    for (int i = 0; i < flat.length() - 1; i++) {
      char c = flat.charAt(i);
      if ((c == '.' || c == '!' || c == '?') && flat.charAt(i + 1) == ' ' && i >= 20) {
        return flat.substring(0, i + 1);
      }
    }
    return flat;
  }

  private static String lowerFirst(String s) {
    if (s.length() > 1 && Character.isUpperCase(s.charAt(0)) && !Character.isUpperCase(s.charAt(1))) {
      return s.substring(0, 1).toLowerCase(Locale.ROOT) + s.substring(1);
    }
    return s;
  }

  private static String clip(String s, int max) {
    if (s.length() <= max) {
      return s;
    }
    int cut = s.lastIndexOf(' ', max - 1);
    return (cut > max / 2 ? s.substring(0, cut) : s.substring(0, max - 1)) + "…";
  }
}
