/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.internal;

import com.fasterxml.jackson.databind.JsonNode;
import dev.engram.Experience;
import dev.engram.ExperienceStatus;
import dev.engram.InvalidInputException;
import dev.engram.ReviewItem;
import dev.engram.ReviewProposal;
import dev.engram.ReviewState;
import dev.engram.spi.CurateOp;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.ReviewJson;
import dev.engram.spi.SourceState;
import dev.engram.spi.StoreCapability;
import dev.engram.spi.StoreReader;
import java.io.IOException;
import java.io.Writer;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import org.jspecify.annotations.Nullable;

/**
 * The experience part of an export (format 4): per scope its {@code experience} versions, its
 * {@code reviewItem}s (pending and decided) and its {@code incubation} cursor, read in the scope's export
 * transaction and written after its sources; on import checked against the rules the engine keeps (four
 * fields and evidence in the form the engine stores, version chains with at most one active version,
 * items whose proposals validate, ids unique and new to the target store, the cursor within the scope's
 * last position) and restored in the scope's import commit.
 */
final class ReviewTransfer {
  private static final int PAGE = 1000;

  private final MemoryStore store;
  private final EngineConfig config;
  private final @Nullable ImportValidator ids;

  ReviewTransfer(MemoryStore store, EngineConfig config) {
    this(store, config, null);
  }

  /** A transfer whose import checks ask {@code ids} whether an id the target store holds is taken. */
  ReviewTransfer(MemoryStore store, EngineConfig config, @Nullable ImportValidator ids) {
    this.ids = ids;
    this.store = store;
    this.config = config;
  }

  /** One scope's experience, review items and incubation cursor. */
  static final class Part {
    final List<Experience> experience = new ArrayList<>();
    final List<ReviewItem> items = new ArrayList<>();
    long incubation;
    boolean incubationSeen;

    boolean isEmpty() {
      return experience.isEmpty() && items.isEmpty() && incubation == 0;
    }
  }

  // ---- export

  /** Reads the part of {@code scope} inside its export transaction. */
  Part read(StoreReader tx, String scope) {
    Part p = new Part();
    if (!store.capabilities().contains(StoreCapability.REVIEW)) {
      return p;
    }
    p.experience.addAll(tx.experiences(List.of(scope), EnumSet.allOf(ExperienceStatus.class), Integer.MAX_VALUE));
    String after = "";
    while (true) {
      List<ReviewItem> page = tx.reviewItems(List.of(scope), EnumSet.allOf(ReviewState.class), after, PAGE);
      p.items.addAll(page);
      if (page.size() < PAGE) {
        break;
      }
      after = page.get(page.size() - 1).id();
    }
    if (store.capabilities().contains(StoreCapability.SOURCES)) {
      p.incubation = tx.incubationCursor(scope);
    }
    return p;
  }

  /** Writes the part's records. */
  static void write(Writer out, String scope, Part p) throws IOException {
    for (Experience e : p.experience) {
      line(out, typed("experience", ReviewJson.writeExperience(e)));
    }
    for (ReviewItem i : p.items) {
      line(out, typed("reviewItem", ReviewJson.writeReviewItem(i)));
    }
    if (p.incubation > 0) {
      com.fasterxml.jackson.databind.node.ObjectNode n =
          new com.fasterxml.jackson.databind.ObjectMapper().createObjectNode();
      n.put("record", "incubation");
      n.put("scope", scope);
      n.put("cursor", p.incubation);
      line(out, n.toString());
    }
  }

  private static String typed(String type, String body) {
    return "{\"record\":\"" + type + "\"," + body.substring(1);
  }

  private static void line(Writer out, String json) throws IOException {
    out.write(json);
    out.write('\n');
  }

  // ---- import

  /** Whether {@code type} is a record of this part. */
  static boolean handles(String type) {
    return type.equals("experience") || type.equals("reviewItem") || type.equals("incubation");
  }

  /** Reads one record of this part into {@code p}, checking it alone. */
  void record(Part p, String scope, String type, JsonNode n) {
    switch (type) {
      case "experience" -> {
        Experience e = ReviewJson.readExperience(n.toString());
        checkExperience(e, scope);
        p.experience.add(e);
      }
      case "reviewItem" -> {
        ReviewItem i = ReviewJson.readReviewItem(n.toString());
        checkItem(i, scope);
        p.items.add(i);
      }
      default -> {
        if (p.incubationSeen) {
          throw new InvalidInputException("incubation", "the incubation cursor of " + scope + " appears twice");
        }
        JsonNode v = n.get("cursor");
        if (v == null || !v.canConvertToExactIntegral() || !v.canConvertToLong() || v.asLong() < 0) {
          throw new InvalidInputException("cursor", "must be a whole number >= 0");
        }
        p.incubation = v.asLong();
        p.incubationSeen = true;
      }
    }
  }

  private void checkExperience(Experience e, String scope) {
    if (!e.scope().equals(scope)) {
      throw new InvalidInputException("scope", "experience version " + e.versionId() + " is filed under " + scope
          + " but names " + e.scope());
    }
    Text.id("experienceId", e.experienceId());
    Text.id("versionId", e.versionId());
    if (e.previousVersionId() != null) {
      Text.id("previousVersionId", e.previousVersionId());
    }
    for (String[] f : new String[][] {{"situation", e.situation()}, {"action", e.action()}, {"outcome", e.outcome()},
        {"lesson", e.lesson()}}) {
      normalized(f[0], f[1], ExperienceService.field(f[0], f[1]));
    }
    normalized("evidence", e.evidence(), ExperienceService.evidence(e.evidence()));
    normalized("actor", e.actor(), Text.optionalShort("actor", e.actor(), Text.MAX_SOURCE_CHARS));
    normalized("reason", e.reason(), Text.optionalShort("reason", e.reason(), Text.MAX_REASON_CHARS));
    if (e.reviewItemId() != null) {
      Text.id("reviewItemId", e.reviewItemId());
    }
  }

  private void checkItem(ReviewItem i, String scope) {
    if (!i.scope().equals(scope)) {
      throw new InvalidInputException("scope", "review item " + i.id() + " is filed under " + scope + " but names "
          + i.scope());
    }
    Text.id("id", i.id());
    for (String t : i.targets()) {
      Text.id("targets", t);
    }
    for (String r : i.results()) {
      Text.id("results", r);
    }
    normalized("evidence", i.evidence(), ExperienceService.evidence(i.evidence()));
    normalized("proposedBy", i.proposedBy(), Text.shortText("proposedBy", i.proposedBy(), Text.MAX_SOURCE_CHARS));
    normalized("decidedBy", i.decidedBy(), Text.optionalShort("decidedBy", i.decidedBy(), Text.MAX_SOURCE_CHARS));
    normalized("reason", i.reason(), Text.optionalShort("reason", i.reason(), ReviewItem.MAX_REASON_CHARS));
    if (i.state() == ReviewState.REJECTED && i.reason() == null) {
      throw new InvalidInputException("reason", "review item " + i.id() + " is REJECTED without a reason");
    }
    ReviewProposal p = i.proposal();
    if (p instanceof ReviewProposal.NewExperience x) {
      for (String[] f : new String[][] {{"situation", x.situation()}, {"action", x.action()},
          {"outcome", x.outcome()}, {"lesson", x.lesson()}}) {
        normalized(f[0], f[1], ExperienceService.field(f[0], f[1]));
      }
    } else if (p instanceof ReviewProposal.Extraction x) {
      normalized("content", x.content(), Text.content("content", x.content(), config.maxContentBytes()));
      normalized("topics", x.topics(), Text.topics("topics", x.topics(), true));
      Text.path("path", x.path());
    } else if (p instanceof ReviewProposal.Curation k) {
      Text.topic("topic", k.topic());
      CurateOp op = k.op();
      String text = op instanceof CurateOp.Rewrite r ? r.content()
          : op instanceof CurateOp.Merge m ? m.mergedContent()
          : op instanceof CurateOp.Compact c ? c.summary() : null;
      if (text != null) {
        normalized("content", text, Text.content("content", text, config.maxContentBytes()));
      }
      for (String t : ReviewQueue.targets(op)) {
        Text.id("op", t);
      }
    }
  }

  /** A stored value must be in the form the engine stores. */
  private static void normalized(String field, @Nullable Object stored, @Nullable Object normal) {
    if (!Objects.equals(stored, normal)) {
      throw new InvalidInputException(field, "is not in the normalized form the engine stores");
    }
  }

  /** The whole part of one scope, and nothing colliding with the target store or other scopes of the file. */
  void validate(String scope, Part p, @Nullable SourceState sources, Set<String> seenIds) {
    if (p.isEmpty()) {
      return;
    }
    if (!store.capabilities().contains(StoreCapability.REVIEW)) {
      throw new dev.engram.CapabilityNotSupportedException(store.getClass().getSimpleName()
          + " does not declare REVIEW; the export carries experience or review items of " + scope);
    }
    Map<String, List<Experience>> chains = new TreeMap<>();
    for (Experience e : p.experience) {
      if (!seenIds.add("v:" + e.versionId())) {
        throw new InvalidInputException("versionId", "experience version " + e.versionId() + " appears twice");
      }
      chains.computeIfAbsent(e.experienceId(), k -> new ArrayList<>()).add(e);
    }
    for (Map.Entry<String, List<Experience>> c : chains.entrySet()) {
      if (!seenIds.add("x:" + c.getKey())) {
        throw new InvalidInputException("experienceId", "experience " + c.getKey() + " appears in two scopes");
      }
      List<Experience> held = store.experienceVersions(c.getKey());
      if (taken(held.isEmpty() ? null : held.get(0).scope(), scope)) {
        throw new InvalidInputException("experienceId", "experience " + c.getKey() + " already exists in the target store");
      }
      List<Experience> chain = c.getValue();
      chain.sort((a, b) -> Integer.compare(a.version(), b.version()));
      for (int k = 0; k < chain.size(); k++) {
        Experience v = chain.get(k);
        if (v.version() != k + 1) {
          throw new InvalidInputException("version", "experience " + c.getKey() + " versions are not 1.." + chain.size());
        }
        if (!Objects.equals(k == 0 ? null : chain.get(k - 1).versionId(), v.previousVersionId())) {
          throw new InvalidInputException("previousVersionId", "experience version " + v.versionId()
              + " breaks the chain of experience " + c.getKey());
        }
        if (k < chain.size() - 1 && v.status() != ExperienceStatus.SUPERSEDED) {
          throw new InvalidInputException("status", "experience version " + v.versionId() + " is " + v.status()
              + " but a later version exists; only the newest version may be current");
        }
        if (k == chain.size() - 1 && v.status() == ExperienceStatus.SUPERSEDED) {
          throw new InvalidInputException("status", "the newest version " + v.versionId() + " of experience "
              + c.getKey() + " is SUPERSEDED");
        }
        if (taken(store.experienceVersion(v.versionId()).map(Experience::scope).orElse(null), scope)) {
          throw new InvalidInputException("versionId", "experience version " + v.versionId()
              + " already exists in the target store");
        }
      }
    }
    Map<String, ReviewItem> items = new LinkedHashMap<>();
    for (ReviewItem i : p.items) {
      if (!seenIds.add("r:" + i.id()) || items.put(i.id(), i) != null) {
        throw new InvalidInputException("id", "review item " + i.id() + " appears twice");
      }
      if (taken(store.reviewItem(i.id()).map(ReviewItem::scope).orElse(null), scope)) {
        throw new InvalidInputException("id", "review item " + i.id() + " already exists in the target store");
      }
    }
    if (p.incubation > 0) {
      long last = sources == null ? 0 : sources.lastPosition();
      if (p.incubation > last) {
        throw new InvalidInputException("cursor", "the incubation cursor " + p.incubation + " of " + scope
            + " lies beyond the scope's last source position " + last);
      }
    }
  }

  /** Whether an id the target store holds in {@code holderScope} (null: none) is taken for an import of {@code scope}. */
  private boolean taken(@Nullable String holderScope, String scope) {
    return ids != null ? ids.taken(holderScope, scope) : holderScope != null;
  }

  /** Writes the part in the scope's import commit, after its versions and sources. */
  static void restore(Commit c, Part p) {
    List<Experience> ordered = new ArrayList<>(p.experience);
    ordered.sort((a, b) -> a.experienceId().equals(b.experienceId())
        ? Integer.compare(a.version(), b.version()) : a.experienceId().compareTo(b.experienceId()));
    for (Experience e : ordered) {
      c.insertExperience(e);
    }
    for (ReviewItem i : p.items) {
      c.putReviewItem(i);
    }
    if (p.incubation > 0) {
      c.advanceIncubation(p.incubation);
    }
  }
}
