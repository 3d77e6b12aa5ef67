/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.reasoner.llm;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.MemoryEntry;
import dev.engram.spi.CurateOp;
import dev.engram.spi.CurateRequest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Tidies one (scope, topic) slice: merges duplicates, rewrites contradictions (newer wins unless the
 * content says otherwise), retires what no longer holds, compacts old events into a summary, promotes
 * or demotes {@code core}, and writes the topic's blurb. The scope is never shown. Entries are shown
 * under short references ({@code e1}, …), at most {@link #MAX_ENTRIES}, each at most
 * {@link #ENTRY_CHARS} characters; an entry shown cut short may be merged away, retired or moved in
 * or out of {@code core}, but its wording is never replaced. Any invalid op rejects the whole answer.
 */
final class CurateJob implements Job<CurateRequest, List<CurateOp>> {
  static final String NAME = "curate";
  static final int MAX_ENTRIES = 50;
  static final int ENTRY_CHARS = 1000;
  static final int MAX_OPS = 25;
  static final int MAX_BLURB_CHARS = 300;
  static final int MAX_REASON_CHARS = 300;
  private static final List<String> OPS = List.of("merge", "rewrite", "retire", "compact", "set_core");

  @Override
  public String name() {
    return NAME;
  }

  @Override
  public String rules() {
    return """
        Job: tidy the memory entries of one topic (the ENTRY blocks, newest first). Propose only what is needed:
        - merge: entries that say the same thing. target = the entry to keep, entries = the duplicates, \
        content = a better combined wording or null.
        - rewrite: two entries contradict. target = the entry to correct, content = the corrected statement. \
        The newer entry wins unless the content says otherwise; retire the one that no longer holds instead \
        when nothing is left to say.
        - retire: target = an entry that no longer holds.
        - compact: several old events that are better kept as one summary. entries = them (at least 2), \
        content = the summary.
        - set_core: target = an entry, core = true to add the "core" topic (a durable profile fact: identity, \
        equipment, schedule, goals, hard constraints) or false to remove it.
        - blurb: one line describing the topic for a table of contents, or null to keep the current one. For \
        the topic "core" the blurb is a one-line profile of the user.
        Unused fields are null. Use only the references shown. New wording may only restate what the entries say.""";
  }

  /** Reference ({@code e1}, …) → entry, for the entries shown. */
  static Map<String, MemoryEntry> shown(CurateRequest r) {
    Map<String, MemoryEntry> out = new LinkedHashMap<>();
    for (MemoryEntry e : r.entries()) {
      if (out.size() == MAX_ENTRIES) {
        break;
      }
      out.put("e" + (out.size() + 1), e);
    }
    return out;
  }

  @Override
  public String prompt(CurateRequest r) {
    StringBuilder p = new StringBuilder("Topic: ").append(r.topic()).append('\n');
    p.append("Current blurb: ").append(r.blurb() == null ? "(none)\n" : "\n" + Prompts.data("BLURB", r.blurb()) + "\n");
    p.append("\nEntries:\n");
    for (Map.Entry<String, MemoryEntry> e : shown(r).entrySet()) {
      MemoryEntry m = e.getValue();
      p.append(e.getKey()).append(" (").append(m.type().wireName()).append(", topics ")
          .append(String.join(", ", m.topics())).append(", written ").append(m.updatedAt().toString(), 0, 10)
          .append(m.content().length() > ENTRY_CHARS ? ", cut short" : "").append("):\n")
          .append(Prompts.data("ENTRY " + e.getKey(), Prompts.clip(m.content(), ENTRY_CHARS))).append('\n');
    }
    return p.toString();
  }

  @Override
  public ObjectNode schema(CurateRequest r) {
    Set<String> refs = shown(r).keySet();
    ObjectNode op = Schemas.properties();
    op.set("op", Schemas.enumeration(OPS, "the operation"));
    op.set("target", Schemas.nullable(Schemas.enumeration(refs, "an entry reference")));
    op.set("entries", Schemas.nullable(Schemas.array(Schemas.enumeration(refs, "an entry reference"),
        "entry references")));
    op.set("content", Schemas.nullable(Schemas.string("new wording; restates only what the entries say")));
    op.set("core", Schemas.nullable(Schemas.bool("for set_core")));
    op.set("reason", Schemas.nullable(Schemas.string("why, in a few words")));
    ObjectNode props = Schemas.properties();
    props.set("ops", Schemas.array(Schemas.object(op), 0, MAX_OPS, "at most " + MAX_OPS + " operations"));
    props.set("blurb", Schemas.nullable(Schemas.string("one line, at most " + MAX_BLURB_CHARS + " characters")));
    return Schemas.object(props);
  }

  @Override
  public List<CurateOp> read(JsonNode a, CurateRequest r) {
    Map<String, MemoryEntry> shown = shown(r);
    JsonNode ops = a.get("ops");
    if (ops == null || !ops.isArray()) {
      throw Answers.invalid(NAME, "\"ops\" is missing or not an array");
    }
    if (ops.size() > MAX_OPS) {
      throw Answers.invalid(NAME, ops.size() + " ops; the limit is " + MAX_OPS);
    }
    List<CurateOp> out = new ArrayList<>();
    for (int i = 0; i < ops.size(); i++) {
      JsonNode o = ops.get(i);
      String at = "ops[" + i + "]";
      if (!o.isObject()) {
        throw Answers.invalid(NAME, at + " is not an object");
      }
      String kind = Answers.text(NAME, o, "op", 32);
      String reason = Answers.optionalText(NAME, o, "reason", MAX_REASON_CHARS);
      switch (kind) {
        case "merge" -> {
          MemoryEntry keep = entry(shown, o, "target", at);
          List<MemoryEntry> dups = entries(shown, o, at, 1);
          String content = Answers.optionalText(NAME, o, "content", ENTRY_CHARS * 4);
          List<MemoryEntry> all = new ArrayList<>(dups);
          all.add(keep);
          if (content != null) {
            wording(at, content, all, shown);
          }
          out.add(new CurateOp.Merge(keep.entryId(), ids(dups), content));
        }
        case "rewrite" -> {
          MemoryEntry target = entry(shown, o, "target", at);
          String content = Answers.text(NAME, o, "content", ENTRY_CHARS * 4);
          wording(at, content, List.of(target), shown);
          out.add(new CurateOp.Rewrite(target.entryId(), content, reason));
        }
        case "retire" -> out.add(new CurateOp.Retire(entry(shown, o, "target", at).entryId(), reason));
        case "compact" -> {
          List<MemoryEntry> olds = entries(shown, o, at, 2);
          String content = Answers.text(NAME, o, "content", ENTRY_CHARS * 4);
          wording(at, content, olds, shown);
          out.add(new CurateOp.Compact(ids(olds), content));
        }
        case "set_core" -> {
          MemoryEntry target = entry(shown, o, "target", at);
          JsonNode core = o.get("core");
          if (core == null || !core.isBoolean()) {
            throw Answers.invalid(NAME, at + ".core must be true or false for set_core");
          }
          out.add(new CurateOp.SetCore(target.entryId(), core.asBoolean()));
        }
        default -> throw Answers.invalid(NAME, at + ".op '" + Prompts.clip(kind, 32) + "' is not one of " + OPS);
      }
    }
    String blurb = Answers.optionalText(NAME, a, "blurb", MAX_BLURB_CHARS);
    if (blurb != null && !blurb.isBlank()) {
      StringBuilder source = new StringBuilder(r.topic()).append('\n');
      for (MemoryEntry e : shown.values()) {
        source.append(e.content()).append('\n');
      }
      if (r.blurb() != null) {
        source.append(r.blurb());
      }
      String added = Wording.added(blurb, source.toString(), MAX_BLURB_CHARS);
      if (added != null) {
        throw Answers.invalid(NAME, "the blurb " + added);
      }
      out.add(new CurateOp.Blurb(blurb.strip()));
    }
    return List.copyOf(out);
  }

  private static MemoryEntry entry(Map<String, MemoryEntry> shown, JsonNode o, String field, String at) {
    String ref = Answers.optionalText(NAME, o, field, 64);
    if (ref == null) {
      throw Answers.invalid(NAME, at + "." + field + " is missing");
    }
    MemoryEntry e = shown.get(ref.strip());
    if (e == null) {
      throw Answers.invalid(NAME, at + "." + field + " '" + Prompts.clip(ref, 40)
          + "' is not one of the " + shown.size() + " entries shown");
    }
    return e;
  }

  private static List<MemoryEntry> entries(Map<String, MemoryEntry> shown, JsonNode o, String at, int min) {
    List<String> refs = Answers.optionalTexts(NAME, o, "entries", MAX_ENTRIES, 64);
    if (refs == null || refs.size() < min) {
      throw Answers.invalid(NAME, at + ".entries needs at least " + min + " reference(s)");
    }
    Set<MemoryEntry> out = new LinkedHashSet<>();
    for (String ref : refs) {
      MemoryEntry e = shown.get(ref.strip());
      if (e == null) {
        throw Answers.invalid(NAME, at + ".entries names '" + Prompts.clip(ref, 40)
            + "', which is not one of the " + shown.size() + " entries shown");
      }
      out.add(e);
    }
    return List.copyOf(out);
  }

  private static void wording(String at, String content, List<MemoryEntry> sources, Map<String, MemoryEntry> shown) {
    StringBuilder source = new StringBuilder();
    int length = 0;
    for (MemoryEntry e : sources) {
      if (e.content().length() > ENTRY_CHARS) {
        throw Answers.invalid(NAME, at + " replaces the wording of an entry that was shown cut short");
      }
      length += e.content().length();
    }
    for (MemoryEntry e : shown.values()) {
      source.append(e.content()).append('\n');
    }
    String added = Wording.added(content, source.toString(), Math.max(Wording.bound(" ".repeat(length)), 200));
    if (added != null) {
      throw Answers.invalid(NAME, at + ".content is not a restatement of the entries: " + added);
    }
  }

  private static List<String> ids(List<MemoryEntry> entries) {
    List<String> out = new ArrayList<>();
    for (MemoryEntry e : entries) {
      out.add(e.entryId());
    }
    return out;
  }

}
