/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.reasoner.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.CapturedSource;
import dev.engram.Experience;
import dev.engram.spi.IncubateRequest;
import dev.engram.spi.IncubatedExperience;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Incubates experience from one window of captured task outcomes: for each outcome worth learning from,
 * the situation, what was done, how it turned out and the lesson for next time, citing the outcomes it
 * rests on. Outcomes are shown under short references ({@code o1}, … in capture order) with session,
 * speaker and day; the answer cites references, which are mapped back to the records' ids, so an answer
 * can only cite outcomes of this window. Each outcome shows at most {@link #RECORD_CHARS} characters
 * (fewer in a large window, {@link #WINDOW_CHARS} in all); at most {@link #MAX_KNOWN} lessons already
 * kept are shown so they are not restated.
 *
 * <p>Every experience is checked as untrusted: known references only (1 to
 * {@value Experience#MAX_EVIDENCE}), each of the four fields non-empty and within
 * {@value #MAX_FIELD_CHARS} characters, and none adding a number or name its cited outcomes lack. At most
 * one experience per outcome. One bad experience rejects the whole answer. The result only ever becomes
 * pending review items: a person approves experience.
 */
final class IncubateJob implements Job<IncubateRequest, List<IncubatedExperience>> {
  static final String NAME = "incubate";
  static final int RECORD_CHARS = 4000;
  static final int MIN_RECORD_CHARS = 400;
  static final int WINDOW_CHARS = 40_000;
  static final int MAX_KNOWN = 10;
  static final int KNOWN_CHARS = 300;
  static final int MAX_FIELD_CHARS = 2000;

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String rules() {
    return """
        Job: learn from task outcomes (the OUTCOME blocks, oldest first): reports of how an agent's task went.
        - experiences: for an outcome that teaches something for next time (a failure and its cause, a \
        workaround that worked, a step that must come first), one experience with: situation (the task and \
        its circumstances), action (what was done), outcome (how it turned out), lesson (what to do or avoid \
        next time, as an instruction). Skip outcomes that teach nothing (a routine success). An empty list \
        is a fine answer; at most one experience per outcome.
        - Use only what the cited outcomes say; keep every name and number as written, add none.
        - evidence: the references (o1, o2, ...) of the outcomes the experience rests on, at least one.
        - The KNOWN blocks are lessons already kept: do not restate them.""";
  }

  /** Reference ({@code o1}, …) → record, for every task outcome of the window. */
  static Map<String, CapturedSource> shown(IncubateRequest r) {
    return Prompts.references("o", r.window());
  }

  static int recordChars(int records) {
    return Prompts.share(records, MIN_RECORD_CHARS, RECORD_CHARS, WINDOW_CHARS);
  }

  @Override
  public String prompt(IncubateRequest r) {
    int chars = recordChars(r.window().size());
    StringBuilder p = new StringBuilder("Task outcomes:\n");
    for (Map.Entry<String, CapturedSource> e : shown(r).entrySet()) {
      CapturedSource s = e.getValue();
      p.append(e.getKey()).append(" (session ").append(Prompts.clip(s.sessionId(), 64)).append(", ")
          .append(ExtractJob.day(s.occurredAt())).append(s.text().length() > chars ? ", cut short" : "")
          .append("), reported by:\n")
          .append(Prompts.data("SPEAKER " + e.getKey(), Prompts.clip(s.speaker(), 128))).append('\n')
          .append(Prompts.data("OUTCOME " + e.getKey(), Prompts.clip(s.text(), chars))).append('\n');
    }
    List<Experience> known = r.known().subList(0, Math.min(MAX_KNOWN, r.known().size()));
    if (known.isEmpty()) {
      p.append("\nLessons already kept: none.\n");
    } else {
      p.append("\nLessons already kept:\n");
      for (int i = 0; i < known.size(); i++) {
        p.append(Prompts.data("KNOWN k" + (i + 1), Prompts.clip(known.get(i).lesson(), KNOWN_CHARS))).append('\n');
      }
    }
    return p.toString();
  }

  @Override
  public ObjectNode schema(IncubateRequest r) {
    Set<String> refs = shown(r).keySet();
    ObjectNode x = Schemas.properties();
    x.set("situation", Schemas.string("the task and its circumstances; at most " + MAX_FIELD_CHARS + " characters"));
    x.set("action", Schemas.string("what was done; at most " + MAX_FIELD_CHARS + " characters"));
    x.set("outcome", Schemas.string("how it turned out; at most " + MAX_FIELD_CHARS + " characters"));
    x.set("lesson", Schemas.string("what to do or avoid next time; at most " + MAX_FIELD_CHARS + " characters"));
    x.set("evidence", Schemas.array(Schemas.enumeration(refs, "an outcome reference"), 1,
        Math.min(Experience.MAX_EVIDENCE, refs.size()), "the outcomes it rests on"));
    ObjectNode props = Schemas.properties();
    props.set("experiences", Schemas.array(Schemas.object(x), 0, r.window().size(),
        "at most " + r.window().size() + " experiences, one per outcome"));
    return Schemas.object(props);
  }

  @Override
  public List<IncubatedExperience> read(JsonNode a, IncubateRequest r) {
    Map<String, CapturedSource> shown = shown(r);
    JsonNode list = a.get("experiences");
    if (list == null || !list.isArray()) {
      throw Answers.invalid(NAME, "\"experiences\" is missing or not an array");
    }
    if (list.size() > r.window().size()) {
      throw Answers.invalid(NAME, list.size() + " experiences for " + r.window().size()
          + " outcomes; the limit is one per outcome");
    }
    List<IncubatedExperience> out = new ArrayList<>(list.size());
    for (int i = 0; i < list.size(); i++) {
      JsonNode x = list.get(i);
      String at = "experiences[" + i + "]";
      if (!x.isObject()) {
        throw Answers.invalid(NAME, at + " is not an object");
      }
      Set<CapturedSource> cited = new LinkedHashSet<>();
      for (String ref : Answers.texts(NAME, x, "evidence", Experience.MAX_EVIDENCE, 64)) {
        CapturedSource s = shown.get(ref.strip());
        if (s == null) {
          throw Answers.invalid(NAME, at + ".evidence names '" + Prompts.clip(ref, 40) + "', which is not one of the "
              + shown.size() + " outcomes shown");
        }
        cited.add(s);
      }
      if (cited.isEmpty()) {
        throw Answers.invalid(NAME, at + ".evidence is empty; every experience cites the outcomes it rests on");
      }
      StringBuilder source = new StringBuilder();
      for (CapturedSource s : cited) {
        source.append(s.sessionId()).append('\n').append(s.speaker()).append('\n')
            .append(ExtractJob.day(s.occurredAt())).append('\n').append(s.text()).append('\n');
      }
      String[] fields = new String[4];
      String[] names = {"situation", "action", "outcome", "lesson"};
      for (int f = 0; f < names.length; f++) {
        String text = Answers.text(NAME, x, names[f], MAX_FIELD_CHARS).strip();
        String added = Wording.added(text, source.toString(), MAX_FIELD_CHARS);
        if (added != null) {
          throw Answers.invalid(NAME, at + "." + names[f] + " does not rest on its evidence: " + added);
        }
        fields[f] = text;
      }
      List<String> evidence = new ArrayList<>();
      for (CapturedSource s : cited) {
        evidence.add(s.id());
      }
      out.add(new IncubatedExperience(fields[0], fields[1], fields[2], fields[3], List.copyOf(evidence)));
    }
    return List.copyOf(out);
  }
}
