/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.internal;

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
 * The texts embedded for one version: the content itself, a gist and up to three questions. Views
 * come from the reasoner when it writes them, else from rules over content, disclosure, glossary and
 * path.
 */
final class Views {
  private static final Logger LOG = LoggerFactory.getLogger(Views.class);
  static final int MAX_GIST_CHARS = 200;
  static final int MAX_QUESTION_CHARS = 300;
  static final int MAX_QUESTIONS = 3;

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
    return new EntryViews(gist, questions.subList(0, Math.min(MAX_QUESTIONS, questions.size())));
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
