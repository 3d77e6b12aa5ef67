/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.spi;

import com.fasterxml.jackson.core.JsonProcessingException;
import static dev.engram.json.JsonForms.instant;
import static dev.engram.json.JsonForms.integer;
import static dev.engram.json.JsonForms.longValue;
import static dev.engram.json.JsonForms.optInstant;
import static dev.engram.json.JsonForms.optText;
import static dev.engram.json.JsonForms.text;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.EntryType;
import dev.engram.Experience;
import dev.engram.ExperienceStatus;
import dev.engram.InvalidInputException;
import dev.engram.ReviewItem;
import dev.engram.ReviewKind;
import dev.engram.ReviewProposal;
import dev.engram.ReviewState;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The one JSON form of experience versions and review items, shared by the SQL stores (one document
 * column per row) and by export / import, in the manner of {@link EntryJson}: stable field names,
 * ISO-8601 UTC instants, one compact object per document; readers ignore unknown fields and reject
 * malformed documents with {@link InvalidInputException}. Only strings cross this surface.
 */
public final class ReviewJson {
  private static final ObjectMapper MAPPER = new ObjectMapper();

  private ReviewJson() {}

  // ---- experience

  /**
   * Writes one experience version.
   *
   * @param e the version
   * @return a JSON object with every field of {@code e}
   */
  public static String writeExperience(Experience e) {
    ObjectNode n = MAPPER.createObjectNode();
    n.put("experienceId", e.experienceId());
    n.put("versionId", e.versionId());
    n.put("version", e.version());
    n.put("previousVersionId", e.previousVersionId());
    n.put("scope", e.scope());
    n.put("situation", e.situation());
    n.put("action", e.action());
    n.put("outcome", e.outcome());
    n.put("lesson", e.lesson());
    n.set("evidence", array(e.evidence()));
    n.put("status", e.status().name());
    n.put("actor", e.actor());
    n.put("reason", e.reason());
    n.put("reviewItemId", e.reviewItemId());
    n.put("createdAt", e.createdAt().toString());
    n.put("updatedAt", e.updatedAt().toString());
    return n.toString();
  }

  /**
   * Reads what {@link #writeExperience} wrote.
   *
   * @param json a JSON object
   * @return the version it describes
   * @throws InvalidInputException if {@code json} is not valid JSON or not a well-formed experience version
   */
  public static Experience readExperience(String json) {
    JsonNode n = parse(json);
    try {
      return new Experience(text(n, "experienceId"), text(n, "versionId"), integer(n, "version"),
          optText(n, "previousVersionId"), text(n, "scope"), text(n, "situation"), text(n, "action"),
          text(n, "outcome"), text(n, "lesson"), strings(n.get("evidence"), "evidence"),
          ExperienceStatus.valueOf(text(n, "status")), optText(n, "actor"), optText(n, "reason"),
          optText(n, "reviewItemId"), instant(n, "createdAt"), instant(n, "updatedAt"));
    } catch (IllegalArgumentException | NullPointerException e) {
      throw new InvalidInputException("experience", "malformed experience record: " + e.getMessage());
    }
  }

  // ---- review items

  /**
   * Writes one review item with its proposal.
   *
   * @param item the item
   * @return a JSON object with every field of {@code item}
   */
  public static String writeReviewItem(ReviewItem item) {
    ObjectNode n = MAPPER.createObjectNode();
    n.put("id", item.id());
    n.put("scope", item.scope());
    n.put("kind", item.kind().name());
    n.put("state", item.state().name());
    n.put("version", item.version());
    n.set("proposal", proposal(item.proposal()));
    n.set("targets", array(item.targets()));
    n.set("evidence", array(item.evidence()));
    n.put("proposedBy", item.proposedBy());
    n.put("decidedBy", item.decidedBy());
    n.put("reason", item.reason());
    n.set("results", array(item.results()));
    n.put("createdAt", item.createdAt().toString());
    n.put("updatedAt", item.updatedAt().toString());
    return n.toString();
  }

  /**
   * Reads what {@link #writeReviewItem} wrote.
   *
   * @param json a JSON object
   * @return the item it describes
   * @throws InvalidInputException if {@code json} is not valid JSON or not a well-formed review item
   */
  public static ReviewItem readReviewItem(String json) {
    JsonNode n = parse(json);
    try {
      JsonNode p = n.get("proposal");
      if (p == null || !p.isObject()) {
        throw new IllegalArgumentException("field 'proposal' must be an object");
      }
      return new ReviewItem(text(n, "id"), text(n, "scope"), ReviewKind.valueOf(text(n, "kind")),
          ReviewState.valueOf(text(n, "state")), longValue(n, "version"), proposal(p),
          strings(n.get("targets"), "targets"), strings(n.get("evidence"), "evidence"), text(n, "proposedBy"),
          optText(n, "decidedBy"), optText(n, "reason"), strings(n.get("results"), "results"),
          instant(n, "createdAt"), instant(n, "updatedAt"));
    } catch (IllegalArgumentException | NullPointerException e) {
      throw new InvalidInputException("reviewItem", "malformed review item: " + e.getMessage());
    }
  }

  private static ObjectNode proposal(ReviewProposal p) {
    ObjectNode n = MAPPER.createObjectNode();
    if (p instanceof ReviewProposal.NewExperience x) {
      n.put("kind", "experience");
      n.put("situation", x.situation());
      n.put("action", x.action());
      n.put("outcome", x.outcome());
      n.put("lesson", x.lesson());
    } else if (p instanceof ReviewProposal.Curation c) {
      n.put("kind", "curation");
      n.put("topic", c.topic());
      n.set("op", op(c.op()));
    } else if (p instanceof ReviewProposal.Extraction x) {
      n.put("kind", "extraction");
      n.put("content", x.content());
      n.set("topics", array(x.topics()));
      n.put("type", x.type().wireName());
      n.put("occurredAt", x.occurredAt() == null ? null : x.occurredAt().toString());
      n.put("path", x.path());
      n.put("disclosure", x.disclosure());
      n.set("glossary", array(x.glossary()));
      n.put("source", x.source());
    }
    return n;
  }

  private static ReviewProposal proposal(JsonNode n) {
    String kind = text(n, "kind");
    return switch (kind) {
      case "experience" -> new ReviewProposal.NewExperience(text(n, "situation"), text(n, "action"),
          text(n, "outcome"), text(n, "lesson"));
      case "curation" -> {
        JsonNode op = n.get("op");
        if (op == null || !op.isObject()) {
          throw new IllegalArgumentException("field 'op' must be an object");
        }
        yield new ReviewProposal.Curation(text(n, "topic"), op(op));
      }
      case "extraction" -> new ReviewProposal.Extraction(text(n, "content"), strings(n.get("topics"), "topics"),
          EntryType.fromWireName(text(n, "type")), optInstant(n, "occurredAt"), optText(n, "path"),
          optText(n, "disclosure"), strings(n.get("glossary"), "glossary"), optText(n, "source"));
      default -> throw new IllegalArgumentException("unknown proposal kind '" + kind + "'");
    };
  }

  private static ObjectNode op(CurateOp op) {
    ObjectNode n = MAPPER.createObjectNode();
    if (op instanceof CurateOp.Merge m) {
      n.put("op", "merge");
      n.put("keepEntryId", m.keepEntryId());
      n.set("duplicateEntryIds", array(m.duplicateEntryIds()));
      n.put("mergedContent", m.mergedContent());
    } else if (op instanceof CurateOp.Rewrite r) {
      n.put("op", "rewrite");
      n.put("entryId", r.entryId());
      n.put("content", r.content());
      n.put("reason", r.reason());
    } else if (op instanceof CurateOp.Retire r) {
      n.put("op", "retire");
      n.put("entryId", r.entryId());
      n.put("reason", r.reason());
    } else if (op instanceof CurateOp.Compact k) {
      n.put("op", "compact");
      n.set("entryIds", array(k.entryIds()));
      n.put("summary", k.summary());
    } else if (op instanceof CurateOp.SetCore c) {
      n.put("op", "setCore");
      n.put("entryId", c.entryId());
      n.put("core", c.core());
    } else if (op instanceof CurateOp.Blurb b) {
      n.put("op", "blurb");
      n.put("blurb", b.blurb());
    }
    return n;
  }

  private static CurateOp op(JsonNode n) {
    String op = text(n, "op");
    return switch (op) {
      case "merge" -> new CurateOp.Merge(text(n, "keepEntryId"), strings(n.get("duplicateEntryIds"), "duplicateEntryIds"),
          optText(n, "mergedContent"));
      case "rewrite" -> new CurateOp.Rewrite(text(n, "entryId"), text(n, "content"), optText(n, "reason"));
      case "retire" -> new CurateOp.Retire(text(n, "entryId"), optText(n, "reason"));
      case "compact" -> new CurateOp.Compact(strings(n.get("entryIds"), "entryIds"), text(n, "summary"));
      case "setCore" -> {
        JsonNode core = n.get("core");
        if (core == null || !core.isBoolean()) {
          throw new IllegalArgumentException("field 'core' must be a boolean");
        }
        yield new CurateOp.SetCore(text(n, "entryId"), core.asBoolean());
      }
      case "blurb" -> new CurateOp.Blurb(text(n, "blurb"));
      default -> throw new IllegalArgumentException("unknown curation op '" + op + "'");
    };
  }

  // ---- helpers

  private static JsonNode parse(String json) {
    try {
      JsonNode n = MAPPER.readTree(json);
      if (n == null || !n.isObject()) {
        throw new InvalidInputException("json", "expected a JSON object");
      }
      return n;
    } catch (JsonProcessingException e) {
      throw new InvalidInputException("json", "not valid JSON: " + e.getOriginalMessage());
    }
  }

  private static ArrayNode array(List<String> values) {
    ArrayNode a = MAPPER.createArrayNode();
    values.forEach(a::add);
    return a;
  }

  private static List<String> strings(@Nullable JsonNode node, String field) {
    if (node == null || !node.isArray()) {
      throw new IllegalArgumentException("field '" + field + "' must be an array of strings");
    }
    List<String> out = new ArrayList<>(node.size());
    for (JsonNode v : node) {
      if (!v.isTextual()) {
        throw new IllegalArgumentException("field '" + field + "' must be an array of strings");
      }
      out.add(v.asText());
    }
    return out;
  }
}
