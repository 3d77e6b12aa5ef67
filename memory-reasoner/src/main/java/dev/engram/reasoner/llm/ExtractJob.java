/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.reasoner.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.CapturedSource;
import dev.engram.EntryType;
import dev.engram.MemoryEntry;
import dev.engram.spi.EntryViews;
import dev.engram.spi.ExtractRequest;
import dev.engram.spi.ExtractedMemory;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.TextStyle;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Extracts the memories worth keeping from one window of captured records: facts, preferences,
 * decisions, events, plans and constraints, each citing the records it rests on, durable profile facts
 * also under {@code core}. Records are shown under short references ({@code r1}, … in capture order)
 * with speaker and day; the answer cites references, which are mapped back to the records' ids, so an
 * answer can only cite records of this window. The window's text is bounded: each record shows at most
 * {@link #RECORD_CHARS} characters, fewer when the window is large ({@link #WINDOW_CHARS} in all, never
 * fewer than {@link #MIN_RECORD_CHARS} each); at most {@link #MAX_KNOWN} existing entries of at most
 * {@link #KNOWN_CHARS} characters are shown so they are not restated.
 *
 * <p>Every memory is checked as untrusted: known references only, a known type, 1 to
 * {@link #MAX_TOPICS} topics, content within its length bound that adds no number or name its cited
 * records (with their speakers and days) lack. One bad memory rejects the whole answer.
 */
final class ExtractJob implements Job<ExtractRequest, List<ExtractedMemory>> {
  static final String NAME = "extract";
  static final int RECORD_CHARS = 2000;
  static final int MIN_RECORD_CHARS = 200;
  static final int WINDOW_CHARS = 40_000;
  static final int MAX_KNOWN = 10;
  static final int KNOWN_CHARS = 300;
  static final int MAX_MEMORIES = 40;
  static final int MAX_CONTENT_CHARS = 1000;
  static final int MAX_TOPICS = 8;
  static final int MAX_EVIDENCE = 32;

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String rules() {
    return """
        Job: extract what is worth remembering from a window of conversation records (the RECORD blocks, \
        oldest first).
        - memories: the facts, preferences, decisions, events, plans and constraints that will still matter \
        in later conversations: who the people are, what they have, like, decided, did or plan, and when. \
        Skip greetings, small talk, questions without an answer and what matters only in the moment. An empty \
        list is a fine answer.
        - content: one self-contained statement that names who it is about (e.g. "Ana moved to Lisbon in \
        May 2023."). Use only what the cited records say, with the day of a record when the time matters; \
        keep every name and number as written.
        - evidence: the references (r1, r2, ...) of the records the statement rests on, at least one.
        - type: fact, preference, event, decision, constraint or summary.
        - topics: 1 to 8 short lowercase topics naming the subject. Add "core" as well for a durable profile \
        fact: identity, family, home, work, equipment, lasting preferences, goals, hard constraints.
        - The KNOWN blocks are memories already stored: do not restate them.""";
  }

  /** Reference ({@code r1}, …) → record, for every record of the window. */
  static Map<String, CapturedSource> shown(ExtractRequest r) {
    return Prompts.references("r", r.window());
  }

  /** How many characters of each record are shown. */
  static int recordChars(int records) {
    return Prompts.share(records, MIN_RECORD_CHARS, RECORD_CHARS, WINDOW_CHARS);
  }

  /** {@code "Monday 8 May 2023 (2023-05-08)"}: the day of an instant (UTC), in words and ISO form. */
  static String day(Instant at) {
    LocalDate d = LocalDate.ofInstant(at, ZoneOffset.UTC);
    return d.getDayOfWeek().getDisplayName(TextStyle.FULL, Locale.ENGLISH) + " " + d.getDayOfMonth() + " "
        + d.getMonth().getDisplayName(TextStyle.FULL, Locale.ENGLISH) + " " + d.getYear() + " (" + d + ")";
  }

  @Override
  public String prompt(ExtractRequest r) {
    int chars = recordChars(r.window().size());
    StringBuilder p = new StringBuilder("Records:\n");
    for (Map.Entry<String, CapturedSource> e : shown(r).entrySet()) {
      CapturedSource s = e.getValue();
      p.append(e.getKey()).append(" (session ").append(Prompts.clip(s.sessionId(), 64)).append(", ")
          .append(day(s.occurredAt())).append(s.text().length() > chars ? ", cut short" : "").append("), speaker:\n")
          .append(Prompts.data("SPEAKER " + e.getKey(), Prompts.clip(s.speaker(), 128))).append('\n')
          .append(Prompts.data("RECORD " + e.getKey(), Prompts.clip(s.text(), chars))).append('\n');
    }
    List<MemoryEntry> known = r.nearby().subList(0, Math.min(MAX_KNOWN, r.nearby().size()));
    if (known.isEmpty()) {
      p.append("\nMemories already stored: none.\n");
    } else {
      p.append("\nMemories already stored:\n");
      for (int i = 0; i < known.size(); i++) {
        p.append(Prompts.data("KNOWN k" + (i + 1), Prompts.clip(known.get(i).content(), KNOWN_CHARS))).append('\n');
      }
    }
    if (r.viewsWanted()) {
      p.append("\nFor each memory also write views: a gist (one short sentence, at most ").append(TagJob.MAX_GIST_CHARS)
          .append(" characters) and up to ").append(TagJob.MAX_QUESTIONS)
          .append(" short questions the memory answers, in the words a person would use to ask.");
    }
    return p.toString();
  }

  @Override
  public ObjectNode schema(ExtractRequest r) {
    Set<String> refs = shown(r).keySet();
    ObjectNode m = Schemas.properties();
    m.set("content", Schemas.string("one self-contained statement; only what the cited records say"));
    List<String> types = new ArrayList<>();
    for (EntryType t : EntryType.values()) {
      types.add(t.wireName());
    }
    m.set("type", Schemas.enumeration(types, "the memory type"));
    m.set("topics", Schemas.array(Schemas.string("a lowercase topic"), 1, MAX_TOPICS, "1 to " + MAX_TOPICS + " topics"));
    m.set("evidence", Schemas.array(Schemas.enumeration(refs, "a record reference"), 1, MAX_EVIDENCE,
        "the records it rests on"));
    if (r.viewsWanted()) {
      m.set("views", TagJob.viewsSchema());
    }
    ObjectNode props = Schemas.properties();
    props.set("memories", Schemas.array(Schemas.object(m), 0, maxMemories(r), "at most " + maxMemories(r) + " memories"));
    return Schemas.object(props);
  }

  private static int maxMemories(ExtractRequest r) {
    return Math.min(MAX_MEMORIES, 4 * r.window().size());
  }

  @Override
  public List<ExtractedMemory> read(JsonNode a, ExtractRequest r) {
    Map<String, CapturedSource> shown = shown(r);
    JsonNode memories = a.get("memories");
    if (memories == null || !memories.isArray()) {
      throw Answers.invalid(NAME, "\"memories\" is missing or not an array");
    }
    if (memories.size() > maxMemories(r)) {
      throw Answers.invalid(NAME, memories.size() + " memories for " + r.window().size() + " records; the limit is "
          + maxMemories(r));
    }
    List<ExtractedMemory> out = new ArrayList<>(memories.size());
    for (int i = 0; i < memories.size(); i++) {
      JsonNode m = memories.get(i);
      String at = "memories[" + i + "]";
      if (!m.isObject()) {
        throw Answers.invalid(NAME, at + " is not an object");
      }
      List<String> refs = Answers.texts(NAME, m, "evidence", MAX_EVIDENCE, 64);
      Set<CapturedSource> cited = new LinkedHashSet<>();
      for (String ref : refs) {
        CapturedSource s = shown.get(ref.strip());
        if (s == null) {
          throw Answers.invalid(NAME, at + ".evidence names '" + Prompts.clip(ref, 40) + "', which is not one of the "
              + shown.size() + " records shown");
        }
        cited.add(s);
      }
      if (cited.isEmpty()) {
        throw Answers.invalid(NAME, at + ".evidence is empty; every memory cites the records it rests on");
      }
      String content = Answers.text(NAME, m, "content", MAX_CONTENT_CHARS);
      StringBuilder source = new StringBuilder();
      int length = 0;
      for (CapturedSource s : cited) {
        source.append(s.speaker()).append('\n').append(day(s.occurredAt())).append('\n').append(s.text()).append('\n');
        length += s.speaker().length() + s.text().length();
      }
      String added = Wording.added(content, source.toString(), Math.max(Wording.bound(" ".repeat(length)), 200));
      if (added != null) {
        throw Answers.invalid(NAME, at + ".content does not rest on its evidence: " + added);
      }
      EntryType type = type(Answers.text(NAME, m, "type", 64), at);
      List<String> topics = topics(m, at);
      List<String> evidence = new ArrayList<>();
      Instant latest = null;
      for (CapturedSource s : cited) {
        evidence.add(s.id());
        if (latest == null || s.occurredAt().isAfter(latest)) {
          latest = s.occurredAt();
        }
      }
      EntryViews views = r.viewsWanted() ? TagJob.views(m.get("views"), content) : null;
      out.add(new ExtractedMemory(content.strip(), topics, type, List.copyOf(evidence), null, null, disclosure(latest),
          List.of(), views));
    }
    return List.copyOf(out);
  }

  /** The day of the latest cited record, as people type it, so a question naming the date meets the memory. */
  private static String disclosure(Instant latest) {
    LocalDate d = LocalDate.ofInstant(latest, ZoneOffset.UTC);
    return d.getDayOfMonth() + " " + d.getMonth().getDisplayName(TextStyle.FULL, Locale.ENGLISH) + " " + d.getYear()
        + " " + d;
  }

  private static EntryType type(String raw, String at) {
    String name = raw.strip().toLowerCase(Locale.ROOT);
    for (EntryType t : EntryType.values()) {
      if (t.wireName().equals(name)) {
        return t;
      }
    }
    throw Answers.invalid(NAME, at + ".type '" + Prompts.clip(raw, 40) + "' is not one of fact, preference, event, "
        + "summary, decision, constraint");
  }

  private static List<String> topics(JsonNode m, String at) {
    JsonNode node = m.get("topics");
    if (node != null && node.isArray() && node.size() > MAX_TOPICS) {
      throw Answers.invalid(NAME, at + ": " + node.size() + " topics; the limit is " + MAX_TOPICS);
    }
    Set<String> out = new LinkedHashSet<>();
    for (String t : Answers.texts(NAME, m, "topics", MAX_TOPICS, TagJob.MAX_TOPIC_CHARS)) {
      if (t.isBlank()) {
        throw Answers.invalid(NAME, at + ": a topic is empty");
      }
      out.add(t.strip().toLowerCase(Locale.ROOT));
    }
    if (out.isEmpty()) {
      throw Answers.invalid(NAME, at + ": no topics");
    }
    return List.copyOf(out);
  }
}
