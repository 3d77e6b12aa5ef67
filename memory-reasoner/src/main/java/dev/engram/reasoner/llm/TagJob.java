/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.reasoner.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.EntryType;
import dev.engram.MemoryEntry;
import dev.engram.spi.EntryViews;
import dev.engram.spi.TagProposal;
import dev.engram.spi.TagRequest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Files one write: picks a namespace among the grants, topics (reusing visible ones, {@code core} for
 * durable profile facts), the entry type, a normalized wording, and the duplicate among the shown
 * candidates; optionally the views in the same call. Prompt caps: at most {@link #MAX_TOPICS_SHOWN}
 * visible topics (in the order given, which the engine makes most used first), at most
 * {@link #MAX_CANDIDATES} candidates of at most {@link #CANDIDATE_CHARS} characters each.
 */
final class TagJob implements Job<TagJob.Input, TagJob.Tagged> {
  static final String NAME = "tag";
  static final int MAX_TOPICS_SHOWN = 100;
  static final int MAX_CANDIDATES = 10;
  static final int CANDIDATE_CHARS = 300;
  static final int MAX_TOPICS = 8;
  static final int MAX_TOPIC_CHARS = 64;
  static final int MAX_GIST_CHARS = 200;
  static final int MAX_QUESTIONS = 3;
  static final int MAX_QUESTION_CHARS = 300;

  /** A tag request, and whether views are wanted in the same answer. */
  record Input(TagRequest request, boolean views) {
    /** Candidate reference ({@code c1}, {@code c2}, …) → the candidate shown under it. */
    Map<String, MemoryEntry> shown() {
      Map<String, MemoryEntry> out = new LinkedHashMap<>();
      for (MemoryEntry c : request.candidates()) {
        if (out.size() == MAX_CANDIDATES) {
          break;
        }
        out.put("c" + (out.size() + 1), c);
      }
      return out;
    }
  }

  /** The validated proposal and, when asked for and valid, the views. */
  record Tagged(TagProposal proposal, @Nullable EntryViews views) {}

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String rules() {
    return """
        Job: file one new memory entry (the CONTENT block).
        - namespace: exactly one of the listed namespaces; the first is the default, choose another only \
        when the content clearly belongs there.
        - topics: 1 to 8 short lowercase topics naming the subject (e.g. "preferences", "equipment", \
        "schedule"). Reuse an existing topic whenever one fits. The caller's topics are kept whatever you \
        answer: repeat them, and add others only where they help.
        - Add the topic "core" as well when the content is a durable profile fact: identity, equipment, \
        schedule, goals, hard constraints, lasting preferences. Never for one-off events.
        - type: fact, preference, event, summary, decision or constraint; when the caller gave a type, that one.
        - content: the same statement, normalized: fix spelling, spacing and grammar, keep it short and in \
        the language of the content. Do not add, guess or expand anything; keep every name and number as written.
        - duplicate_of: the reference (c1, c2, …) of a listed candidate that states the same thing in other \
        words, or null. Only a true duplicate: a candidate that differs in a detail is not one.""";
  }

  @Override
  public String prompt(Input input) {
    TagRequest r = input.request();
    StringBuilder p = new StringBuilder();
    p.append("Namespaces to choose from:\n");
    for (String g : r.grants()) {
      p.append("- ").append(g).append('\n');
    }
    List<String> topics = r.visibleTopics().subList(0, Math.min(MAX_TOPICS_SHOWN, r.visibleTopics().size()));
    p.append("\nExisting topics, most used first: ").append(topics.isEmpty() ? "(none yet)" : String.join(", ", topics));
    if (r.visibleTopics().size() > MAX_TOPICS_SHOWN) {
      p.append(" (and ").append(r.visibleTopics().size() - MAX_TOPICS_SHOWN).append(" more)");
    }
    p.append("\nCaller's topic hints: ").append(r.topicsHint().isEmpty() ? "(none)" : String.join(", ", r.topicsHint()));
    p.append("\nCaller's type hint: ").append(r.typeHint() == null ? "(none)" : r.typeHint().wireName() + " (kept)");
    Map<String, MemoryEntry> shown = input.shown();
    if (shown.isEmpty()) {
      p.append("\n\nCandidate duplicates: none; duplicate_of must be null.\n");
    } else {
      p.append("\n\nCandidate duplicates (active entries):\n");
      for (Map.Entry<String, MemoryEntry> c : shown.entrySet()) {
        p.append(c.getKey()).append(" (").append(c.getValue().type().wireName()).append(", topics ")
            .append(String.join(", ", c.getValue().topics())).append("):\n")
            .append(Prompts.data("CANDIDATE " + c.getKey(), Prompts.clip(c.getValue().content(), CANDIDATE_CHARS)))
            .append('\n');
      }
    }
    p.append("\nThe new content:\n").append(Prompts.data("CONTENT", r.content()));
    if (input.views()) {
      p.append("\n\nAlso write views of the normalized content: a gist (one short sentence, at most ")
          .append(MAX_GIST_CHARS).append(" characters) and up to ").append(MAX_QUESTIONS)
          .append(" short questions that the entry answers, in the words a person would use to ask.");
    }
    return p.toString();
  }

  @Override
  public ObjectNode schema(Input input) {
    ObjectNode props = Schemas.properties();
    props.set("namespace", Schemas.enumeration(input.request().grants(), "one of the listed namespaces"));
    props.set("topics", Schemas.array(Schemas.string("a lowercase topic"), 1, MAX_TOPICS,
        "1 to " + MAX_TOPICS + " topics"));
    List<String> types = new ArrayList<>();
    EntryType fixed = input.request().typeHint();
    for (EntryType t : EntryType.values()) {
      if (fixed == null || t == fixed) {
        types.add(t.wireName());
      }
    }
    props.set("type", Schemas.enumeration(types, fixed == null ? "the entry type" : "the caller's type"));
    props.set("content", Schemas.string("the normalized content; adds nothing"));
    Set<String> refs = input.shown().keySet();
    props.set("duplicate_of", refs.isEmpty()
        ? Schemas.nullOnly("no candidates were shown")
        : Schemas.nullable(Schemas.enumeration(refs, "the reference of the duplicated candidate")));
    if (input.views()) {
      props.set("views", viewsSchema());
    }
    return Schemas.object(props);
  }

  static ObjectNode viewsSchema() {
    ObjectNode v = Schemas.properties();
    v.set("gist", Schemas.string("one short sentence, at most " + MAX_GIST_CHARS + " characters"));
    v.set("questions", Schemas.array(Schemas.string("a question the entry answers"), 0, MAX_QUESTIONS,
        "up to " + MAX_QUESTIONS + " questions"));
    return Schemas.object(v);
  }

  @Override
  public Tagged read(JsonNode a, Input input) {
    TagRequest r = input.request();
    String namespace = Answers.text(NAME, a, "namespace", 1024);
    if (!r.grants().contains(namespace)) {
      throw Answers.invalid(NAME, "namespace '" + Prompts.clip(namespace, 80) + "' is not one of the "
          + r.grants().size() + " granted namespaces");
    }
    JsonNode topicsNode = a.get("topics");
    if (topicsNode != null && topicsNode.isArray() && topicsNode.size() > MAX_TOPICS) {
      throw Answers.invalid(NAME, topicsNode.size() + " topics; the limit is " + MAX_TOPICS);
    }
    List<String> rawTopics = Answers.texts(NAME, a, "topics", MAX_TOPICS, MAX_TOPIC_CHARS);
    Set<String> topics = new LinkedHashSet<>();
    for (String t : rawTopics) {
      if (t.isBlank()) {
        throw Answers.invalid(NAME, "a topic is empty");
      }
      topics.add(t.strip().toLowerCase(java.util.Locale.ROOT));
    }
    if (topics.isEmpty()) {
      throw Answers.invalid(NAME, "no topics");
    }
    String typeName = Answers.text(NAME, a, "type", 64);
    EntryType type = null;
    for (EntryType t : EntryType.values()) {
      if (t.wireName().equals(typeName.strip().toLowerCase(java.util.Locale.ROOT))) {
        type = t;
      }
    }
    if (type == null) {
      throw Answers.invalid(NAME, "type '" + Prompts.clip(typeName, 40) + "' is not one of fact, preference, event, "
          + "summary, decision, constraint");
    }
    String source = r.content() + "\n" + String.join(" ", r.topicsHint());
    String content = Answers.text(NAME, a, "content", Wording.bound(r.content()) * 4);
    String added = Wording.added(content, source, Wording.bound(r.content()));
    if (added != null) {
      throw Answers.invalid(NAME, "the normalized content is not a rewording of the input: " + added);
    }
    String ref = Answers.optionalText(NAME, a, "duplicate_of", 64);
    String duplicateOf = null;
    if (ref != null) {
      MemoryEntry dup = input.shown().get(ref.strip());
      if (dup == null) {
        throw Answers.invalid(NAME, "duplicate_of '" + Prompts.clip(ref, 40) + "' is not one of the "
            + input.shown().size() + " candidates shown");
      }
      duplicateOf = dup.entryId();
    }
    EntryViews views = input.views() ? views(a.get("views"), content) : null;
    return new Tagged(new TagProposal(namespace, List.copyOf(topics), type, content, duplicateOf), views);
  }

  /** Views from an answer, or null when they are missing or invalid (the engine then builds its own). */
  static @Nullable EntryViews views(@Nullable JsonNode v, String content) {
    if (v == null || !v.isObject()) {
      return null;
    }
    try {
      String gist = Answers.text("views", v, "gist", MAX_GIST_CHARS);
      List<String> questions = Answers.texts("views", v, "questions", MAX_QUESTIONS, MAX_QUESTION_CHARS);
      int bound = Math.max(Wording.bound(content), MAX_GIST_CHARS + MAX_QUESTION_CHARS);
      if (Wording.added(gist, content, bound) != null) {
        return null;
      }
      List<String> qs = new ArrayList<>();
      for (String q : questions) {
        if (!q.isBlank() && Wording.added(q, content, bound) == null) {
          qs.add(q.strip());
        }
      }
      return new EntryViews(gist.strip(), qs);
    } catch (LlmException e) {
      return null;
    }
  }
}
