/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.ReviewChange;
import dev.engram.ReviewDetail;
import dev.engram.ReviewItem;
import dev.engram.ReviewProposal;
import dev.engram.spi.CurateOp;
import dev.engram.spi.ReviewJson;

/** How the console and the command line name a review item: a one-line summary and its JSON form. */
final class ReviewText {
  /** The actor the console and the command line record on what a reviewer decides. */
  static final String REVIEWER = "engram-console";

  private ReviewText() {}

  /** One line saying what the item would change. */
  static String summary(ReviewItem item) {
    ReviewProposal p = item.proposal();
    if (p instanceof ReviewProposal.NewExperience x) {
      return "new experience: " + x.lesson();
    }
    if (p instanceof ReviewProposal.Extraction x) {
      return "new memory: " + x.content();
    }
    ReviewProposal.Curation k = (ReviewProposal.Curation) p;
    CurateOp op = k.op();
    if (op instanceof CurateOp.Rewrite r) {
      return "rewrite entry " + r.entryId() + " in topic " + k.topic();
    }
    if (op instanceof CurateOp.Retire r) {
      return "retire entry " + r.entryId() + " in topic " + k.topic();
    }
    if (op instanceof CurateOp.Merge m) {
      return "merge " + m.duplicateEntryIds().size() + " into entry " + m.keepEntryId() + " in topic " + k.topic();
    }
    if (op instanceof CurateOp.Compact c) {
      return "compact " + c.entryIds().size() + " entries of topic " + k.topic();
    }
    if (op instanceof CurateOp.SetCore c) {
      return (c.core() ? "promote entry " : "demote entry ") + c.entryId() + (c.core() ? " to" : " from") + " core";
    }
    return "blurb of topic " + k.topic();
  }

  /** The item as its JSON document, with the summary. */
  static ObjectNode node(ReviewItem item) {
    try {
      ObjectNode n = (ObjectNode) Json.MAPPER.readTree(ReviewJson.writeReviewItem(item));
      n.put("summary", summary(item));
      return n;
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("ReviewJson wrote invalid JSON", e);
    }
  }

  /** The item with its diff and warnings. */
  static ObjectNode node(ReviewDetail d) {
    ObjectNode n = node(d.item());
    ArrayNode changes = n.putArray("changes");
    for (ReviewChange c : d.changes()) {
      ObjectNode o = changes.addObject();
      o.put("subject", c.subject());
      o.put("field", c.field());
      o.put("before", c.before());
      o.put("after", c.after());
    }
    ArrayNode warnings = n.putArray("warnings");
    d.warnings().forEach(warnings::add);
    return n;
  }
}
