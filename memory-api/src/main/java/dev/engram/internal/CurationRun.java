/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.internal;

import dev.engram.CurateReport;
import dev.engram.DirtyTopic;
import dev.engram.ErrorCode;
import dev.engram.Grants;
import dev.engram.MemoryEntry;
import dev.engram.MemoryException;
import dev.engram.ReasonerException;
import dev.engram.StoreException;
import dev.engram.WritePolicy;
import dev.engram.spi.CurateOp;
import dev.engram.spi.CurateRequest;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.Reasoner;
import dev.engram.spi.StoreCapability;
import dev.engram.spi.TopicState;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One {@code curate} call: the dirty (scope, topic) pairs of the grants' own writable scopes, at most
 * {@link CurateReport#MAX_TOPICS_PER_CALL} of them, each sent to the reasoner with a bounded slice.
 * Every proposal is asked for and checked against {@link CurateReport#MAX_OPS_PER_TOPIC} before any op
 * is applied, so a reasoner failure or an oversized proposal changes nothing. Then each op is applied
 * as one commit (a rejected op is reported, the rest still apply) and each topic is marked curated.
 */
final class CurationRun {
  private static final Logger LOG = LoggerFactory.getLogger(CurationRun.class);
  private static final int CURATE_SLICE = 50;

  private final MemoryStore store;
  private final Reasoner reasoner;
  private final GrantPolicy policy;
  private final WritePolicy writePolicy;
  private final int maxContentBytes;
  private final WriteVectors writeVectors;
  private final Reindex reindex;
  private final Commits commits;
  private final boolean reviews;

  CurationRun(
      MemoryStore store, Reasoner reasoner, GrantPolicy policy, EngineConfig config, WriteVectors writeVectors,
      Reindex reindex, Commits commits) {
    this.store = store;
    this.reasoner = reasoner;
    this.policy = policy;
    this.writePolicy = config.writePolicy();
    this.maxContentBytes = config.maxContentBytes();
    this.writeVectors = writeVectors;
    this.reindex = reindex;
    this.commits = commits;
    this.reviews = config.reviews(dev.engram.ReviewKind.CURATION);
  }

  private record Proposal(TopicState topic, Set<String> shown, @Nullable List<CurateOp> ops) {}

  CurateReport curate(Grants grants) {
    return curate(grants, null);
  }

  /** Curates the dirty topics of the grants that {@code only} accepts (all of them when null). */
  CurateReport curate(Grants grants, java.util.function.@Nullable Predicate<TopicState> only) {
    if (!reasoner.curates()) {
      return new CurateReport(false, List.of(), List.of(), List.of());
    }
    boolean review = reviews;
    List<TopicState> dirty = new ArrayList<>();
    int remaining = 0;
    for (TopicState t : store.topics(grants.namespaces())) {
      if (t.dirty() && grants.namespaces().contains(t.scope()) && policy.writable(grants, writePolicy, t.scope())
          && (only == null || only.test(t))) {
        if (dirty.size() < CurateReport.MAX_TOPICS_PER_CALL) {
          dirty.add(t);
        } else {
          remaining++;
        }
      }
    }
    List<Proposal> proposals = new ArrayList<>();
    for (TopicState t : dirty) {
      // Boot nodes are not shown (an op naming one is refused as not shown), and the commit of every op
      // refuses a model-made change of a boot node in any case.
      List<MemoryEntry> slice = new ArrayList<>(store.activeByTopic(List.of(t.scope()), t.topic(), CURATE_SLICE));
      slice.removeIf(BootNodes::isBootNode);
      List<CurateOp> ops = ask(new CurateRequest(t.scope(), t.topic(), t.blurb(), slice));
      if (ops != null && ops.size() > CurateReport.MAX_OPS_PER_TOPIC) {
        throw ReasonerException.invalidOutput("curate proposed " + ops.size() + " operations for " + t.scope() + "/"
            + t.topic() + "; the limit is " + CurateReport.MAX_OPS_PER_TOPIC + " per topic, so none was applied");
      }
      Set<String> shown = new HashSet<>();
      for (MemoryEntry e : slice) {
        shown.add(e.entryId());
      }
      proposals.add(new Proposal(t, shown, ops == null ? null : new ArrayList<>(ops)));
    }

    List<DirtyTopic> curated = new ArrayList<>();
    List<String> applied = new ArrayList<>();
    List<String> rejected = new ArrayList<>();
    List<dev.engram.ReviewItem> pending = new ArrayList<>();
    for (Proposal p : proposals) {
      TopicState t = p.topic();
      if (p.ops() == null) {
        rejected.add(t.scope() + "/" + t.topic() + ": reasoner returned null");
        continue;
      }
      Curation curation = new Curation(commits, maxContentBytes, t.scope(), p.shown());
      if (review) {
        curated.add(queue(t, curation, p.ops(), rejected, pending));
        continue;
      }
      String blurb = null;
      for (CurateOp op : p.ops()) {
        String label = t.scope() + "/" + t.topic() + " " + describe(op);
        try {
          if (op instanceof CurateOp.Blurb b) {
            blurb = Text.shortText("blurb", b.blurb(), Text.MAX_DISCLOSURE_CHARS);
          } else {
            curation.apply(op);
          }
          applied.add(label);
        } catch (StoreException e) {
          throw e;
        } catch (MemoryException | NullPointerException e) {
          rejected.add(label + ": " + e.getMessage());
        }
      }
      String finalBlurb = blurb;
      long at = commits.run(t.scope(), c -> {
        c.markCurated(t.topic(), finalBlurb);
        return c.head();
      });
      curated.add(new DirtyTopic(t.scope(), t.topic(), t.lastWriteRevision(), at));
    }
    if (!review && !curated.isEmpty() && writeVectors.profileId() != null
        && store.capabilities().contains(StoreCapability.VECTOR_STORAGE)) {
      List<String> scopes = new ArrayList<>(new TreeSet<>(curated.stream().map(DirtyTopic::scope).toList()));
      try {
        reindex.reindex(Grants.of(scopes));
      } catch (MemoryException | IllegalStateException e) {
        rejected.add("reindex after curation failed (vectors stay incomplete until reindex): " + e.getMessage());
        LOG.warn("Reindex after curation failed; vectors stay incomplete until reindex: {}", e.toString());
      }
    }
    LOG.info("Curation: {} topics curated, {} operations applied, {} queued for review, {} rejected, {} topics left"
        + " for a later call", curated.size(), applied.size(), pending.size(), rejected.size(), remaining);
    return new CurateReport(true, curated, applied, rejected, remaining, null, pending);
  }

  /**
   * With review on: each op that passes {@link Curation#check} becomes a pending item instead of being
   * applied; the items and the topic's curation mark commit together, and memory stays as it was.
   */
  private DirtyTopic queue(TopicState t, Curation curation, List<CurateOp> ops, List<String> rejected,
      List<dev.engram.ReviewItem> pending) {
    List<CurateOp> valid = new ArrayList<>();
    for (CurateOp op : ops) {
      try {
        curation.check(store, op);
        valid.add(op);
      } catch (StoreException e) {
        throw e;
      } catch (MemoryException | NullPointerException e) {
        rejected.add(t.scope() + "/" + t.topic() + " " + describe(op) + ": " + e.getMessage());
      }
    }
    List<dev.engram.ReviewItem> queued = new ArrayList<>();
    long at = commits.run(t.scope(), c -> {
      queued.clear();
      for (CurateOp op : valid) {
        dev.engram.ReviewItem item = ReviewQueue.curation(t.scope(), t.topic(), op, c.now());
        c.putReviewItem(item);
        queued.add(item);
      }
      c.markCurated(t.topic(), null);
      return c.head();
    });
    pending.addAll(queued);
    return new DirtyTopic(t.scope(), t.topic(), t.lastWriteRevision(), at);
  }

  private @Nullable List<CurateOp> ask(CurateRequest request) {
    try {
      return reasoner.curate(request);
    } catch (ReasonerException e) {
      throw e;
    } catch (RuntimeException e) {
      throw new ReasonerException(ErrorCode.REASONER_FAILED, "reasoner.curate failed: " + e.getMessage(), e);
    }
  }

  private static String describe(@Nullable CurateOp op) {
    return op == null ? "null op" : op.getClass().getSimpleName().toLowerCase(Locale.ROOT);
  }
}
