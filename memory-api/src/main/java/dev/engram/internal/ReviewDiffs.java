/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.internal;

import dev.engram.MemoryEntry;
import dev.engram.ReviewChange;
import dev.engram.ReviewDetail;
import dev.engram.ReviewItem;
import dev.engram.ReviewProposal;
import dev.engram.spi.CurateOp;
import dev.engram.spi.StoreReader;
import dev.engram.spi.TopicState;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A review item's diff against the current state: field by field, what approval would change of each
 * subject (a new experience, the entries a curation op names, the entry an extracted memory creates or
 * updates, a topic's blurb), and warnings when a named entry changed or is gone since the item was queued.
 */
final class ReviewDiffs {
  private static final String NEW_ENTRY = "entry (new)";

  private ReviewDiffs() {}

  static ReviewDetail detail(StoreReader reader, ReviewItem item) {
    List<ReviewChange> changes = new ArrayList<>();
    List<String> warnings = new ArrayList<>();
    ReviewProposal p = item.proposal();
    if (p instanceof ReviewProposal.NewExperience x) {
      String s = "experience (new)";
      changes.add(new ReviewChange(s, "situation", null, x.situation()));
      changes.add(new ReviewChange(s, "action", null, x.action()));
      changes.add(new ReviewChange(s, "outcome", null, x.outcome()));
      changes.add(new ReviewChange(s, "lesson", null, x.lesson()));
    } else if (p instanceof ReviewProposal.Curation k) {
      curation(reader, item, k, changes, warnings);
    } else if (p instanceof ReviewProposal.Extraction x) {
      MemoryEntry held = x.path() == null ? null : reader.findActiveByPath(item.scope(), x.path()).orElse(null);
      if (held == null) {
        changes.add(new ReviewChange(NEW_ENTRY, "content", null, x.content()));
        changes.add(new ReviewChange(NEW_ENTRY, "topics", null, String.join(", ", x.topics())));
        changes.add(new ReviewChange(NEW_ENTRY, "type", null, x.type().wireName()));
        if (x.path() != null) {
          changes.add(new ReviewChange(NEW_ENTRY, "path", null, x.path()));
        }
        if (x.path() == null && reader.findActiveByHash(item.scope(), Text.contentHash(x.content())).isPresent()) {
          warnings.add("an active entry of " + item.scope() + " already holds this content; approval changes nothing");
        }
      } else {
        String s = "entry " + held.entryId();
        diff(changes, s, "content", held.content(), x.content());
        diff(changes, s, "topics", String.join(", ", held.topics()), String.join(", ", x.topics()));
        diff(changes, s, "type", held.type().wireName(), x.type().wireName());
        diff(changes, s, "disclosure", held.disclosure(), x.disclosure());
      }
    }
    return new ReviewDetail(item, changes, warnings);
  }

  private static void curation(StoreReader reader, ReviewItem item, ReviewProposal.Curation k,
      List<ReviewChange> changes, List<String> warnings) {
    CurateOp op = k.op();
    for (String id : item.isPending() ? item.targets() : List.<String>of()) {
      MemoryEntry cur = current(reader, item.scope(), id);
      if (cur == null) {
        warnings.add("entry " + id + " no longer exists; approval will be refused");
      } else if (!cur.isActive()) {
        warnings.add("entry " + id + " is " + cur.status() + " now; approval will be refused");
      } else if (cur.updatedAt().isAfter(item.createdAt())) {
        warnings.add("entry " + id + " changed after this item was queued; the diff shows its current state");
      }
    }
    if (op instanceof CurateOp.Rewrite r) {
      diff(changes, "entry " + r.entryId(), "content", content(reader, item.scope(), r.entryId()), r.content());
    } else if (op instanceof CurateOp.Retire r) {
      changes.add(new ReviewChange("entry " + r.entryId(), "status", status(reader, item.scope(), r.entryId()), "RETIRED"));
    } else if (op instanceof CurateOp.Merge m) {
      if (m.mergedContent() != null) {
        diff(changes, "entry " + m.keepEntryId(), "content", content(reader, item.scope(), m.keepEntryId()), m.mergedContent());
      }
      for (String d : m.duplicateEntryIds()) {
        changes.add(new ReviewChange("entry " + d, "status", status(reader, item.scope(), d), "SUPERSEDED (merged into "
            + m.keepEntryId() + ")"));
        changes.add(new ReviewChange("entry " + d, "content", content(reader, item.scope(), d), null));
      }
    } else if (op instanceof CurateOp.Compact c) {
      for (String id : c.entryIds()) {
        changes.add(new ReviewChange("entry " + id, "status", status(reader, item.scope(), id), "SUPERSEDED (compacted)"));
        changes.add(new ReviewChange("entry " + id, "content", content(reader, item.scope(), id), null));
      }
      changes.add(new ReviewChange(NEW_ENTRY, "content", null, c.summary()));
      changes.add(new ReviewChange(NEW_ENTRY, "type", null, "summary"));
    } else if (op instanceof CurateOp.SetCore sc) {
      MemoryEntry cur = current(reader, item.scope(), sc.entryId());
      List<String> before = cur == null ? List.of() : cur.topics();
      Set<String> after = new LinkedHashSet<>(before);
      if (sc.core()) {
        after.add(Text.CORE_TOPIC);
      } else {
        after.remove(Text.CORE_TOPIC);
      }
      changes.add(new ReviewChange("entry " + sc.entryId(), "topics", cur == null ? null : String.join(", ", before),
          String.join(", ", after)));
    } else if (op instanceof CurateOp.Blurb b) {
      String blurb = null;
      for (TopicState t : reader.topics(List.of(item.scope()))) {
        if (t.topic().equals(k.topic())) {
          blurb = t.blurb();
        }
      }
      diff(changes, "topic " + k.topic(), "blurb", blurb, b.blurb());
    }
  }

  private static void diff(List<ReviewChange> changes, String subject, String field, @Nullable String before,
      @Nullable String after) {
    if (before == null ? after != null : !before.equals(after)) {
      changes.add(new ReviewChange(subject, field, before, after));
    }
  }

  /** The entry's current version, when it lives in {@code scope} (an item never shows another scope's entry). */
  private static @Nullable MemoryEntry current(StoreReader reader, String scope, String entryId) {
    return reader.currentVersion(entryId).filter(e -> e.scope().equals(scope)).orElse(null);
  }

  private static @Nullable String content(StoreReader reader, String scope, String entryId) {
    MemoryEntry e = current(reader, scope, entryId);
    return e == null ? null : e.content();
  }

  private static @Nullable String status(StoreReader reader, String scope, String entryId) {
    MemoryEntry e = current(reader, scope, entryId);
    return e == null ? null : e.status().name();
  }
}
