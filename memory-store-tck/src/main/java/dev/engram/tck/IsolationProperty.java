/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.engram.AncestorPromotion;
import dev.engram.Citation;
import dev.engram.ContextRequest;
import dev.engram.Engram;
import dev.engram.EngramBuilder;
import dev.engram.Grants;
import dev.engram.InvalidGrantException;
import dev.engram.ListOptions;
import dev.engram.MemoryEntry;
import dev.engram.MemoryEvent;
import dev.engram.NotFoundException;
import dev.engram.PreparedContext;
import dev.engram.ProtectedNamespace;
import dev.engram.ReadOptions;
import dev.engram.ReasonerException;
import dev.engram.ScopeViolationException;
import dev.engram.SearchMode;
import dev.engram.SearchRequest;
import dev.engram.SearchResult;
import dev.engram.TopicSummary;
import dev.engram.WriteOptions;
import dev.engram.WritePolicy;
import dev.engram.WriteResult;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.StoreCapability;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The randomized isolation property of {@link IsolationContract}. Each trial builds a random namespace
 * tree under its own top-level namespace (so many trials share one store), optionally protects a
 * random subtree, writes entries, attempts random writes, captures (on stores with sources),
 * corrections and erasures with random grants and policies, and then checks every read path (read,
 * list, scan, search, context, get, history, revision, changes, sources) of random reader grants
 * against an independent model of visibility and write authority. One job, one property: the length is
 * the model and the one check per read path, which must stay side by side to be read against each other.
 */
final class IsolationProperty {
  private static final List<String> SEGMENTS = List.of("a", "b", "ab", "a_b", "aXb", "a%", "A", "u-1", "x.y");
  private static final List<String> TOPICS = List.of("general", "alpha", "beta");
  private static final int MAX_DEPTH = 5;

  private final MemoryStore store;
  private final Engram auditorEngine;
  private final long seed;
  private final int trials;
  private final boolean fullText;
  private final boolean sources;

  IsolationProperty(MemoryStore store, Engram auditorEngine, long seed, int trials) {
    this.store = store;
    this.auditorEngine = auditorEngine;
    this.seed = seed;
    this.trials = trials;
    this.fullText = store.capabilities().contains(StoreCapability.FULL_TEXT_SEARCH);
    this.sources = store.capabilities().contains(StoreCapability.SOURCES);
  }

  /** Runs trial {@code index} and returns the number of checks it made. */
  int runTrial(int index) {
    Trial trial = new Trial(index);
    trial.run();
    return trial.checks;
  }

  // ---- the model, independent of the engine ----------------------------------------------------

  static int depth(String ns) {
    return ns.split("/", -1).length;
  }

  static boolean isStrictAncestor(String ancestor, String ns) {
    return ns.startsWith(ancestor + "/");
  }

  static Set<String> selfAndAncestors(List<String> grants) {
    Set<String> out = new HashSet<>();
    for (String g : grants) {
      String cur = g;
      out.add(cur);
      for (int i = cur.lastIndexOf('/'); i > 0; i = cur.lastIndexOf('/')) {
        cur = cur.substring(0, i);
        out.add(cur);
      }
    }
    return out;
  }

  static boolean visible(List<String> grants, String scope) {
    for (String g : grants) {
      if (g.equals(scope) || isStrictAncestor(scope, g)) {
        return true;
      }
    }
    return false;
  }

  private static boolean covers(@Nullable ProtectedNamespace p, String ns) {
    return p != null && (ns.equals(p.boundary()) || isStrictAncestor(p.boundary(), ns));
  }

  static boolean tooShallow(@Nullable ProtectedNamespace p, String ns) {
    return covers(p, ns) && depth(ns) - depth(p.boundary()) < p.minDepthBelow();
  }

  /** The model of a per-call policy under a configured one: it only narrows. */
  static WritePolicy narrow(WritePolicy configured, WritePolicy requested) {
    AncestorPromotion promotion = requested.ancestorPromotion().ordinal() < configured.ancestorPromotion().ordinal()
        ? requested.ancestorPromotion() : configured.ancestorPromotion();
    return WritePolicy.builder().allowDescendants(configured.allowDescendants() && requested.allowDescendants()).ancestorPromotion(promotion).build();
  }

  static boolean writable(List<String> grants, WritePolicy policy, String target, @Nullable ProtectedNamespace p) {
    if (tooShallow(p, target)) {
      return false;
    }
    for (String g : grants) {
      boolean authorized = g.equals(target)
          || (policy.allowDescendants() && isStrictAncestor(g, target))
          || (isStrictAncestor(target, g)
              && (policy.ancestorPromotion() == AncestorPromotion.ANCESTORS
                  || (policy.ancestorPromotion() == AncestorPromotion.PARENT && depth(g) - depth(target) == 1)));
      boolean crosses = covers(p, target) && !covers(p, g);
      if (authorized && !crosses) {
        return true;
      }
    }
    return false;
  }

  /** What the trial believes about one entry. */
  private static final class Tracked {
    final String entryId;
    final String scope;
    final List<String> topics;
    final @Nullable String path;
    final List<Citation> citations = new ArrayList<>();
    String currentVersionId;
    boolean active = true;

    Tracked(MemoryEntry first) {
      entryId = first.entryId();
      scope = first.scope();
      topics = first.topics();
      path = first.path();
      citations.add(first.citation());
      currentVersionId = first.versionId();
    }

    void newVersion(MemoryEntry next) {
      citations.add(next.citation());
      currentVersionId = next.versionId();
    }
  }

  private final class Trial {
    final int index;
    final Random random;
    final String top;
    final List<String> nodes = new ArrayList<>();
    final Set<String> universe = new TreeSet<>();
    final Map<String, Tracked> ledger = new LinkedHashMap<>();
    final List<Citation> erased = new ArrayList<>();
    final List<String> erasedIds = new ArrayList<>();
    /** Captured source id -> its scope. */
    final Map<String, String> captured = new LinkedHashMap<>();
    final TargetedReasoner reasoner = new TargetedReasoner();
    @Nullable ProtectedNamespace boundary;
    /** The engine's configured write policy; a per-call policy can only narrow it. */
    WritePolicy configured = WritePolicy.defaults();
    Engram engine;
    @Nullable Grants auditor;
    int checks;
    int contents;

    Trial(int index) {
      this.index = index;
      this.random = new Random(seed ^ (0x9E3779B97F4A7C15L * (index + 1L)));
      this.top = "iso" + index;
    }

    Supplier<String> ctx(String what) {
      return () -> "seed=" + seed + " trial=" + index + " tree=" + nodes + " protected=" + boundary + " ledger="
          + ledger.size() + ": " + what + " (rerun with -Dengram.tck.seed=" + seed + " -Dengram.tck.trials="
          + trials + ")";
    }

    void run() {
      buildTree();
      for (int k = 0, n = 3 + random.nextInt(4); k < n; k++) {
        seedEntry(k);
      }
      for (int k = 0, n = 2 + random.nextInt(3); k < n; k++) {
        attemptWrite();
      }
      if (sources) {
        for (int k = 0, n = 2 + random.nextInt(3); k < n; k++) {
          attemptCapture(k);
        }
      }
      for (int k = 0; k < 2; k++) {
        attemptCorrection();
      }
      attemptErasure();
      for (int k = 0; k < 2; k++) {
        checkReader(randomGrants(random.nextInt(8) == 0));
      }
    }

    void buildTree() {
      nodes.add(top);
      int size = 5 + random.nextInt(8);
      for (int guard = 0; nodes.size() < size && guard < 200; guard++) {
        String parent = nodes.get(random.nextInt(nodes.size()));
        if (depth(parent) < MAX_DEPTH) {
          String child = parent + "/" + SEGMENTS.get(random.nextInt(SEGMENTS.size()));
          if (!nodes.contains(child)) {
            nodes.add(child);
          }
        }
      }
      universe.addAll(nodes);
      EngramBuilder builder = Engram.builder().store(store).reasoner(reasoner);
      if (random.nextBoolean()) {
        configured = WritePolicy.builder().allowDescendants(random.nextBoolean()).ancestorPromotion(AncestorPromotion.values()[random.nextInt(3)]).build();
        builder.writePolicy(configured);
      }
      if (random.nextInt(3) == 0) {
        boundary = new ProtectedNamespace(nodes.get(1 + random.nextInt(nodes.size() - 1)), 1 + random.nextInt(2));
        builder.protectNamespace(boundary);
      }
      engine = builder.build();
    }

    String content(String label) {
      return "trial " + index + " " + label + " " + (++contents) + " " + Long.toHexString(random.nextLong());
    }

    List<String> randomTopics() {
      List<String> out = new ArrayList<>(TOPICS);
      java.util.Collections.shuffle(out, random);
      return out.subList(0, 1 + random.nextInt(2));
    }

    String randomNode(boolean allowShallow) {
      for (int guard = 0; guard < 100; guard++) {
        String n = nodes.get(random.nextInt(nodes.size()));
        if (allowShallow || !tooShallow(boundary, n)) {
          return n;
        }
      }
      return top;
    }

    List<String> randomGrants(boolean allowShallow) {
      Set<String> out = new LinkedHashSet<>();
      for (int i = 0, n = 1 + random.nextInt(3); i < n; i++) {
        out.add(randomNode(allowShallow));
      }
      return List.copyOf(out);
    }

    Grants auditor() {
      if (auditor == null || auditor.namespaces().size() != universe.size()) {
        auditor = Grants.of(List.copyOf(universe));
      }
      return auditor;
    }

    void record(MemoryEntry e) {
      ledger.put(e.entryId(), new Tracked(e));
    }

    void seedEntry(int k) {
      String scope = randomNode(false);
      List<String> writer = new ArrayList<>();
      writer.add(scope);
      if (random.nextBoolean()) {
        String extra = randomNode(false);
        if (!writer.contains(extra)) {
          writer.add(extra);
        }
      }
      reasoner.fileInto(null);
      WriteOptions.Builder options = WriteOptions.builder().topicsHint(randomTopics());
      if (random.nextBoolean()) {
        String domain = random.nextBoolean() ? "project" : "core";
        boolean nested = random.nextBoolean();
        if (nested) {
          // a path below the top level needs its parent in the same scope
          WriteResult parent = engine.write(Grants.of(scope), content("parent"),
              WriteOptions.builder().topicsHint(randomTopics()).path(domain + "://p" + k).build());
          assertThat(parent.outcome()).as(ctx("seed parent " + k)).isEqualTo(WriteResult.Outcome.APPENDED);
          assertThat(parent.entry().scope()).as(ctx("seed parent " + k)).isEqualTo(scope);
          record(parent.entry());
        }
        options.path(domain + "://p" + k + (nested ? "/x" : ""));
      }
      WriteResult r = engine.write(Grants.of(writer), content("seed"), options.build());
      assertThat(r.outcome()).as(ctx("seed write " + k)).isEqualTo(WriteResult.Outcome.APPENDED);
      assertThat(r.entry().scope()).as(ctx("seed write " + k)).isEqualTo(scope);
      record(r.entry());
      Tracked t = ledger.get(r.entry().entryId());
      if (random.nextInt(10) < 3) {
        MemoryEntry next = engine.correct(Grants.of(scope), t.entryId, content("corrected"));
        assertThat(next.version()).as(ctx("seed correction")).isEqualTo(2);
        t.newVersion(next);
      }
      if (random.nextInt(10) < 2) {
        MemoryEntry cur = engine.get(Grants.of(scope), t.entryId);
        engine.retire(Grants.of(scope), cur.citation(), "random retirement");
        t.active = false;
      }
      checks++;
    }

    void attemptWrite() {
      boolean allowShallow = random.nextInt(10) == 0;
      List<String> writer = randomGrants(allowShallow);
      WritePolicy policy = WritePolicy.builder().allowDescendants(random.nextBoolean()).ancestorPromotion(AncestorPromotion.values()[random.nextInt(3)]).build();
      String target = randomNode(true);
      if (random.nextInt(10) < 3 && depth(target) < MAX_DEPTH + 1) {
        target = target + "/n" + random.nextInt(3);
      }
      universe.add(target);
      String finalTarget = target;
      Grants auditor = auditor();
      int before = everything(auditor).size();
      long headBefore = auditorEngine.revision(auditor, target);
      reasoner.fileInto(target);
      String content = content("attempt");
      Throwable thrown = catchThrowable(() -> {
        WriteResult r = engine.write(Grants.of(writer), content,
            WriteOptions.builder().topicsHint(randomTopics()).writePolicy(policy).build());
        assertThat(r.outcome()).isEqualTo(WriteResult.Outcome.APPENDED);
        assertThat(r.entry().scope()).isEqualTo(finalTarget);
        record(r.entry());
      });
      String what = "write by " + writer + " with " + policy + " under configured " + configured + " into " + target;
      boolean shallowGrant = writer.stream().anyMatch(g -> tooShallow(boundary, g));
      if (shallowGrant) {
        assertThat(thrown).as(ctx(what)).isInstanceOf(InvalidGrantException.class);
      } else if (writable(writer, narrow(configured, policy), target, boundary)) {
        assertThat(thrown).as(ctx(what + " should land")).isNull();
      } else {
        assertThat(thrown).as(ctx(what + " must be refused"))
            .isInstanceOfAny(ReasonerException.class, ScopeViolationException.class);
      }
      if (thrown != null) {
        assertThat(everything(auditor)).as(ctx(what + " stored something")).hasSize(before);
        assertThat(auditorEngine.revision(auditor, target)).as(ctx(what + " moved the revision")).isEqualTo(headBefore);
      }
      checks++;
    }

    /** Capture with random grants into a random target: lands exactly where a write would be authorized. */
    void attemptCapture(int k) {
      List<String> writer = randomGrants(random.nextInt(10) == 0);
      String target = randomNode(true);
      universe.add(target);
      String id = "iso" + index + "-c" + k;
      Throwable thrown = catchThrowable(() -> {
        dev.engram.CapturedSource s = engine.capture(Grants.of(writer),
            dev.engram.SourceRecord.of("iso", "user", content("captured")).in(target).id(id));
        assertThat(s.scope()).isEqualTo(target);
        captured.put(id, target);
      });
      String what = "capture by " + writer + " under " + configured + " into " + target;
      if (writer.stream().anyMatch(g -> tooShallow(boundary, g))) {
        assertThat(thrown).as(ctx(what)).isInstanceOf(InvalidGrantException.class);
      } else if (writable(writer, configured, target, boundary)) {
        assertThat(thrown).as(ctx(what + " should land")).isNull();
      } else {
        assertThat(thrown).as(ctx(what + " must be refused")).isInstanceOf(ScopeViolationException.class);
        assertThat(store.source(target, id)).as(ctx(what + " stored something")).isEmpty();
      }
      checks++;
    }

    List<Tracked> active() {
      return ledger.values().stream().filter(t -> t.active).toList();
    }

    /** Correct with random grants: NotFound when invisible, ScopeViolation when not writable. */
    void attemptCorrection() {
      List<Tracked> candidates = active();
      if (candidates.isEmpty()) {
        return;
      }
      Tracked t = candidates.get(random.nextInt(candidates.size()));
      List<String> grants = randomGrants(random.nextInt(10) == 0);
      String what = "correct " + t.scope + " entry by " + grants;
      long headBefore = auditorEngine.revision(auditor(), t.scope);
      Throwable thrown = catchThrowable(() -> {
        MemoryEntry next = engine.correct(Grants.of(grants), t.entryId, content("correction attempt"));
        assertThat(next.scope()).isEqualTo(t.scope);
        assertThat(next.previousVersionId()).isEqualTo(t.currentVersionId);
        t.newVersion(next);
      });
      expectOutcome(what, grants, t.scope, thrown);
      if (thrown != null) {
        assertThat(auditorEngine.get(auditor(), t.entryId).versionId()).as(ctx(what)).isEqualTo(t.currentVersionId);
        assertThat(auditorEngine.revision(auditor(), t.scope)).as(ctx(what)).isEqualTo(headBefore);
      }
      checks++;
    }

    void attemptErasure() {
      if (ledger.isEmpty()) {
        return;
      }
      List<Tracked> all = List.copyOf(ledger.values());
      Tracked t = all.get(random.nextInt(all.size()));
      List<String> grants = randomGrants(random.nextInt(10) == 0);
      String what = "deleteEntry in " + t.scope + " by " + grants;
      int before = everything(auditor()).size();
      Throwable thrown = catchThrowable(() ->
          assertThat(engine.deleteEntry(Grants.of(grants), t.entryId)).isEqualTo(t.citations.size()));
      expectOutcome(what, grants, t.scope, thrown);
      if (thrown == null) {
        ledger.remove(t.entryId);
        erased.addAll(t.citations);
        erasedIds.add(t.entryId);
        assertThat(everything(auditor())).as(ctx(what)).hasSize(before - t.citations.size());
      } else {
        assertThat(everything(auditor())).as(ctx(what)).hasSize(before);
      }
      checks++;
    }

    /** The outcome of a change to an existing entry under the engine's configured write policy. */
    void expectOutcome(String what, List<String> grants, String scope, @Nullable Throwable thrown) {
      if (grants.stream().anyMatch(g -> tooShallow(boundary, g))) {
        assertThat(thrown).as(ctx(what)).isInstanceOf(InvalidGrantException.class);
      } else if (!visible(grants, scope)) {
        assertThat(thrown).as(ctx(what + " is invisible")).isInstanceOf(NotFoundException.class);
      } else if (!writable(grants, configured, scope, boundary)) {
        assertThat(thrown).as(ctx(what + " is not writable")).isInstanceOf(ScopeViolationException.class);
      } else {
        assertThat(thrown).as(ctx(what + " should succeed")).isNull();
      }
    }

    List<MemoryEntry> everything(Grants auditor) {
      return auditorEngine.list(auditor, ListOptions.builder().includeSuperseded(true).build());
    }

    void checkSearch(Grants reader, String who, Set<String> vis, Set<String> expectActive, Set<String> expectVersions) {
      SearchResult found = engine.search(reader,
          SearchRequest.builder("trial").mode(SearchMode.FTS).limit(SearchRequest.MAX_LIMIT).build());
      assertThat(found.hits()).as(ctx(who + " search")).allSatisfy(h -> assertThat(vis).contains(h.entry().scope()));
      assertThat(found.hits()).as(ctx(who + " search")).extracting(h -> h.entry().entryId())
          .containsExactlyInAnyOrderElementsOf(expectActive);
      PreparedContext context = engine.prepareContext(reader, ContextRequest.of("trial"));
      assertThat(context.citations()).as(ctx(who + " prepareContext"))
          .allSatisfy(c -> assertThat(vis).contains(c.scope()))
          .allSatisfy(c -> assertThat(expectVersions).contains(c.versionId()));
      assertThat(context.citations().isEmpty()).as(ctx(who + " prepareContext")).isEqualTo(expectActive.isEmpty());
    }

    /** domains and browse against the model: active, visible entries with a path only. */
    void checkPaths(Grants reader, String who, List<String> names) {
      Map<String, Integer> domains = new java.util.TreeMap<>();
      Set<String> projectChildren = new TreeSet<>();
      for (Tracked t : ledger.values()) {
        if (t.active && t.path != null && visible(names, t.scope)) {
          domains.merge(t.path.substring(0, t.path.indexOf("://")), 1, Integer::sum);
          if (t.path.startsWith("project://")) {
            String rest = t.path.substring("project://".length());
            projectChildren.add(rest.contains("/")
                ? "project://" + rest.substring(0, rest.indexOf('/') + 1) : t.scope + " " + t.path);
          }
        }
      }
      Map<String, Integer> actual = new java.util.TreeMap<>();
      engine.domains(reader).forEach(d -> actual.put(d.domain(), d.entries()));
      assertThat(actual).as(ctx(who + " domains")).isEqualTo(domains);
      assertThat(engine.browse(reader, "project://")).as(ctx(who + " browse"))
          .allSatisfy(n -> assertThat(n.prefix() || vis(names, n.scope())).isTrue())
          .extracting(n -> n.prefix() ? n.path() : n.scope() + " " + n.path())
          .containsExactlyInAnyOrderElementsOf(projectChildren);
    }

    boolean vis(List<String> names, @Nullable String scope) {
      return scope != null && visible(names, scope);
    }

    void checkReader(List<String> names) {
      Grants reader = Grants.of(names);
      String who = "reader " + names;
      if (names.stream().anyMatch(g -> tooShallow(boundary, g))) {
        assertThatThrownBy(() -> engine.read(reader, TOPICS)).as(ctx(who)).isInstanceOf(InvalidGrantException.class);
        assertThatThrownBy(() -> engine.scan(reader)).as(ctx(who)).isInstanceOf(InvalidGrantException.class);
        assertThatThrownBy(() -> engine.domains(reader)).as(ctx(who)).isInstanceOf(InvalidGrantException.class);
        assertThatThrownBy(() -> engine.browse(reader, "project://")).as(ctx(who))
            .isInstanceOf(InvalidGrantException.class);
        checks++;
        return;
      }
      Set<String> vis = reader.visibleScopes();
      assertThat(vis).as(ctx(who + " visibleScopes")).isEqualTo(selfAndAncestors(names));

      Set<String> expectActive = new HashSet<>();
      Set<String> expectVersions = new HashSet<>();
      Set<String> expectTopics = new TreeSet<>();
      Map<String, Integer> counts = new LinkedHashMap<>();
      for (Tracked t : ledger.values()) {
        if (visible(names, t.scope)) {
          if (t.active) {
            expectActive.add(t.entryId);
          }
          for (Citation c : t.citations) {
            expectVersions.add(c.versionId());
          }
          for (String topic : t.topics) {
            String key = t.scope + ":" + topic;
            expectTopics.add(key);
            counts.merge(key, t.active ? 1 : 0, Integer::sum);
          }
        }
      }

      List<MemoryEntry> read = engine.read(reader, TOPICS, ReadOptions.limit(ReadOptions.MAX_LIMIT));
      assertThat(read).as(ctx(who + " read")).allSatisfy(e -> assertThat(vis).contains(e.scope()));
      assertThat(read).as(ctx(who + " read")).extracting(MemoryEntry::entryId)
          .containsExactlyInAnyOrderElementsOf(expectActive);

      List<MemoryEntry> listed = engine.list(reader, ListOptions.builder().includeSuperseded(true).build());
      assertThat(listed).as(ctx(who + " list(includeSuperseded)")).allSatisfy(e -> assertThat(vis).contains(e.scope()));
      assertThat(listed).as(ctx(who + " list(includeSuperseded)")).extracting(MemoryEntry::versionId)
          .containsExactlyInAnyOrderElementsOf(expectVersions);
      assertThat(engine.list(reader)).as(ctx(who + " list")).extracting(MemoryEntry::entryId)
          .containsExactlyInAnyOrderElementsOf(expectActive);

      List<TopicSummary> scan = engine.scan(reader);
      assertThat(scan).as(ctx(who + " scan")).allSatisfy(s -> assertThat(vis).contains(s.scope()));
      assertThat(scan).as(ctx(who + " scan")).extracting(s -> s.scope() + ":" + s.topic())
          .containsExactlyInAnyOrderElementsOf(expectTopics);
      for (TopicSummary s : scan) {
        assertThat(s.count()).as(ctx(who + " scan count of " + s.scope() + ":" + s.topic()))
            .isEqualTo(counts.get(s.scope() + ":" + s.topic()));
      }

      if (fullText) {
        checkSearch(reader, who, vis, expectActive, expectVersions);
      }
      checkPaths(reader, who, names);

      if (sources) {
        Set<String> expectSources = new HashSet<>();
        captured.forEach((id, scope) -> {
          if (visible(names, scope)) {
            expectSources.add(scope + "#" + id);
          }
        });
        assertThat(engine.sources(reader, dev.engram.SourceQuery.builder().limit(dev.engram.SourceQuery.MAX_LIMIT).build()))
            .as(ctx(who + " sources")).extracting(x -> x.scope() + "#" + x.id())
            .filteredOn(key -> key.startsWith(top + "/") || key.startsWith(top + "#"))
            .containsExactlyInAnyOrderElementsOf(expectSources);
        for (String scope : captured.values()) {
          if (!vis.contains(scope)) {
            assertThatThrownBy(() -> engine.sources(reader, dev.engram.SourceQuery.builder().scope(scope).build()))
                .as(ctx(who + " sources of " + scope)).isInstanceOf(NotFoundException.class);
          }
        }
      }

      for (Tracked t : ledger.values()) {
        String what = who + " on entry in " + t.scope;
        if (visible(names, t.scope)) {
          assertThat(engine.get(reader, t.entryId).versionId()).as(ctx(what)).isEqualTo(t.currentVersionId);
          List<MemoryEvent> history = engine.history(reader, t.entryId);
          assertThat(history).as(ctx(what + " history")).isNotEmpty()
              .allSatisfy(e -> {
                assertThat(e.scope()).isEqualTo(t.scope);
                assertThat(e.entryId()).isEqualTo(t.entryId);
              });
          for (Citation c : t.citations) {
            assertThat(engine.get(reader, c).versionId()).as(ctx(what + " citation")).isEqualTo(c.versionId());
          }
        } else {
          assertThatThrownBy(() -> engine.get(reader, t.entryId)).as(ctx(what)).isInstanceOf(NotFoundException.class);
          assertThatThrownBy(() -> engine.history(reader, t.entryId)).as(ctx(what + " history"))
              .isInstanceOf(NotFoundException.class);
          Citation c = t.citations.get(random.nextInt(t.citations.size()));
          assertThatThrownBy(() -> engine.get(reader, c)).as(ctx(what + " citation"))
              .isInstanceOf(NotFoundException.class);
        }
      }
      if (!erased.isEmpty()) {
        Citation c = erased.get(random.nextInt(erased.size()));
        assertThatThrownBy(() -> engine.get(reader, c)).as(ctx(who + " erased citation"))
            .isInstanceOf(NotFoundException.class);
      }
      for (String id : erasedIds) {
        assertThatThrownBy(() -> engine.history(reader, id)).as(ctx(who + " erased history"))
            .isInstanceOf(NotFoundException.class);
      }

      Grants auditor = auditor();
      for (String scope : universe) {
        if (vis.contains(scope)) {
          assertThat(engine.revision(reader, scope)).as(ctx(who + " revision of " + scope))
              .isEqualTo(auditorEngine.revision(auditor, scope));
        } else {
          assertThatThrownBy(() -> engine.revision(reader, scope)).as(ctx(who + " revision of " + scope))
              .isInstanceOf(NotFoundException.class);
          if (random.nextInt(4) == 0) {
            assertThatThrownBy(() -> engine.changes(reader, scope, 0)).as(ctx(who + " changes of " + scope))
                .isInstanceOf(NotFoundException.class);
          }
        }
      }
      checks++;
    }
  }
}
