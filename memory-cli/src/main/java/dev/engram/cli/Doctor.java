/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.cli;

import dev.engram.DirtyTopic;
import dev.engram.EntryStatus;
import dev.engram.MemoryEntry;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.StoreCapability;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeMap;

/** The checks behind {@code engram doctor}: schema, database integrity, version chains, vectors, curation. */
final class Doctor {
  /** How bad a finding is; any {@link #FAIL} makes doctor exit 1. */
  enum Level { OK, INFO, WARN, FAIL }

  /**
   * One finding.
   *
   * @param check which check
   * @param level how bad
   * @param summary one line
   * @param details further lines (problems found, dirty topics)
   */
  record Finding(String check, Level level, String summary, List<String> details) {
    Finding {
      details = List.copyOf(details);
    }
  }

  private static final int MAX_DETAILS = 20;

  private Doctor() {}

  /** The scopes doctor examines: the whole store when the database lists them, else the visible ones. */
  static List<String> scopes(Session s) {
    List<String> all = s.inspector().allScopes();
    if (!all.isEmpty() || !s.hasGrants()) {
      return all;
    }
    return Overview.visibleScopes(s);
  }

  static List<Finding> run(Session s) {
    List<Finding> out = new ArrayList<>();
    StoreInspector inspector = s.inspector();
    OptionalInt version = inspector.schemaVersion();
    if (inspector == StoreInspector.NONE) {
      out.add(new Finding("schema", Level.INFO, "in-memory store: no schema", List.of()));
    } else if (version.isPresent()) {
      out.add(new Finding("schema", Level.OK, "schema version " + version.getAsInt(), List.of()));
    } else {
      out.add(new Finding("schema", Level.FAIL, "no schema version recorded", List.of()));
    }
    StoreInspector.IntegrityCheck integrity = inspector.integrity();
    out.add(inspector == StoreInspector.NONE
        ? new Finding("integrity", Level.INFO, "no database to check", List.of())
        : integrity.problems().isEmpty()
        ? new Finding("integrity", Level.OK, "database check passed: " + integrity.method(), List.of())
        : new Finding("integrity", Level.FAIL, integrity.problems().size() + " problem(s) from " + integrity.method(),
            limit(integrity.problems())));
    List<String> scopes = scopes(s);
    List<String> chainProblems = chains(s.store(), scopes);
    out.add(chainProblems.isEmpty()
        ? new Finding("versions", Level.OK, "version chains consistent in " + scopes.size() + " scope(s)", List.of())
        : new Finding("versions", Level.FAIL, chainProblems.size() + " problem(s) in version chains",
            limit(chainProblems)));
    out.addAll(vectors(s, scopes));
    List<DirtyTopic> dirty = s.engram().operator().listDirtyTopics(1000);
    List<String> lines = new ArrayList<>();
    for (DirtyTopic d : dirty) {
      lines.add(d.scope() + " / " + d.topic() + ": written at revision " + d.lastWriteRevision()
          + ", curated at " + d.lastCuratedRevision());
    }
    out.add(new Finding("curation", dirty.isEmpty() ? Level.OK : Level.INFO,
        dirty.isEmpty() ? "no topic waits for curation" : dirty.size() + " topic(s) with uncurated writes",
        limit(lines)));
    return out;
  }

  private static List<Finding> vectors(Session s, List<String> scopes) {
    MemoryStore store = s.store();
    if (!store.capabilities().contains(StoreCapability.VECTOR_STORAGE)) {
      return List.of(new Finding("vectors", Level.INFO, "the store keeps no vectors", List.of()));
    }
    List<String> profiles = s.store().vectorProfiles();
    if (profiles.isEmpty()) {
      return List.of(new Finding("vectors", Level.INFO, "no vectors stored: search runs on full text", List.of()));
    }
    int active = 0;
    for (String scope : scopes) {
      active += store.versionsIn(List.of(scope), EnumSet.of(EntryStatus.ACTIVE)).size();
    }
    List<Finding> out = new ArrayList<>();
    for (String profile : profiles) {
      Map<String, Integer> missing = new TreeMap<>();
      for (String scope : scopes) {
        int n = store.countActiveWithoutVectors(scope, profile);
        if (n > 0) {
          missing.put(scope, n);
        }
      }
      int total = missing.values().stream().mapToInt(Integer::intValue).sum();
      if (total == 0) {
        out.add(new Finding("vectors", Level.OK, profile + ": all " + active + " active versions have vectors",
            List.of()));
      } else {
        List<String> lines = new ArrayList<>();
        missing.forEach((scope, n) -> lines.add(scope + ": " + n + " without vectors"));
        out.add(new Finding("vectors", Level.WARN, profile + ": " + total + " of " + active
            + " active versions lack vectors (reindex with an embedder of this profile)", limit(lines)));
      }
    }
    return out;
  }

  /**
   * Chain rules every store keeps: at most one current version per entry (none once merged into
   * another), versions numbered 1..n and linked, active paths unique per scope.
   */
  static List<String> chains(MemoryStore store, List<String> scopes) {
    List<String> problems = new ArrayList<>();
    Map<String, List<MemoryEntry>> byEntry = new TreeMap<>();
    Map<String, Set<String>> activePaths = new HashMap<>();
    for (String scope : scopes) {
      long head = store.headRevision(scope);
      for (MemoryEntry v : store.versionsIn(List.of(scope), EnumSet.allOf(EntryStatus.class))) {
        byEntry.computeIfAbsent(v.entryId(), k -> new ArrayList<>()).add(v);
        if (v.createdInRevision() > head) {
          problems.add("version " + v.versionId() + " was created in revision " + v.createdInRevision()
              + " but " + scope + " is at revision " + head);
        }
        if (v.isActive() && v.path() != null
            && !activePaths.computeIfAbsent(scope, k -> new HashSet<>()).add(v.path())) {
          problems.add("path " + v.path() + " is held by more than one active entry in " + scope);
        }
      }
    }
    for (Map.Entry<String, List<MemoryEntry>> e : byEntry.entrySet()) {
      List<MemoryEntry> versions = new ArrayList<>(e.getValue());
      versions.sort(java.util.Comparator.comparingInt(MemoryEntry::version));
      int current = 0;
      for (int i = 0; i < versions.size(); i++) {
        MemoryEntry v = versions.get(i);
        if (v.version() != i + 1) {
          problems.add("entry " + e.getKey() + ": version " + (i + 1) + " is missing (found " + v.version() + ")");
          break;
        }
        String expectedPrevious = i == 0 ? null : versions.get(i - 1).versionId();
        if (!java.util.Objects.equals(v.previousVersionId(), expectedPrevious)) {
          problems.add("entry " + e.getKey() + ": version " + v.version() + " does not link to version " + i);
        }
        if (v.status() == EntryStatus.SUPERSEDED) {
          if (v.supersededBy() == null) {
            problems.add("entry " + e.getKey() + ": superseded version " + v.version() + " names no successor");
          }
        } else {
          current++;
        }
      }
      MemoryEntry last = versions.get(versions.size() - 1);
      if (current > 1) {
        problems.add("entry " + e.getKey() + " has " + current + " current (active or retired) versions");
      } else if (current == 0 && (last.supersededBy() == null || store.version(last.supersededBy()).isEmpty())) {
        // a merged entry ends superseded by a version of the entry it was merged into
        problems.add("entry " + e.getKey() + " has no current version and names no existing successor");
      }
    }
    return problems;
  }

  private static List<String> limit(List<String> lines) {
    if (lines.size() <= MAX_DETAILS) {
      return lines;
    }
    List<String> out = new ArrayList<>(lines.subList(0, MAX_DETAILS));
    out.add("… and " + (lines.size() - MAX_DETAILS) + " more");
    return out;
  }
}
