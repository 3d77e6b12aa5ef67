/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.EntryStatus;
import dev.engram.spi.StoreCapability;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;

/** Reports about the store: {@code stats} and {@code doctor}. */
final class ReportCommands {
  private ReportCommands() {}

  @Command(name = "stats", description = "Counts per scope: revision, versions by status, topics, vectors."
      + " Store-wide without --grant.")
  static final class StatsCommand extends BaseCommand {
    @Override
    boolean needsGrants() {
      return false;
    }

    @Override
    int run(Session s) {
      List<String> scopes = s.hasGrants() ? Overview.visibleScopes(s) : s.inspector().allScopes();
      List<Overview.ScopeRow> rows = Overview.rows(s.store(), scopes);
      List<String> profiles = s.store().capabilities().contains(StoreCapability.VECTOR_STORAGE)
          ? s.store().vectorProfiles() : List.of();
      int active = 0;
      int superseded = 0;
      int retired = 0;
      int topics = 0;
      int dirty = 0;
      for (Overview.ScopeRow r : rows) {
        active += r.count(EntryStatus.ACTIVE);
        superseded += r.count(EntryStatus.SUPERSEDED);
        retired += r.count(EntryStatus.RETIRED);
        topics += r.topics();
        dirty += r.dirtyTopics();
      }
      if (json()) {
        ObjectNode n = Json.MAPPER.createObjectNode();
        n.put("store", s.describe());
        n.put("scopes", rows.size());
        n.put("active", active);
        n.put("superseded", superseded);
        n.put("retired", retired);
        n.put("topics", topics);
        n.put("dirtyTopics", dirty);
        ObjectNode vectors = n.putObject("vectorsMissing");
        for (String p : profiles) {
          int missing = 0;
          for (String scope : scopes) {
            missing += s.store().countActiveWithoutVectors(scope, p);
          }
          vectors.put(p, missing);
        }
        ArrayNode per = n.putArray("perScope");
        for (Overview.ScopeRow r : rows) {
          ObjectNode o = per.addObject();
          o.put("scope", r.scope());
          o.put("revision", r.revision());
          o.put("active", r.count(EntryStatus.ACTIVE));
          o.put("superseded", r.count(EntryStatus.SUPERSEDED));
          o.put("retired", r.count(EntryStatus.RETIRED));
          o.put("topics", r.topics());
          o.put("dirtyTopics", r.dirtyTopics());
        }
        printJson(n);
        return EngramCli.OK;
      }
      out().println(s.describe() + ": " + rows.size() + " scope(s), " + active + " active, " + superseded
          + " superseded, " + retired + " retired, " + topics + " topic(s), " + dirty + " dirty");
      for (String p : profiles) {
        int missing = 0;
        for (String scope : scopes) {
          missing += s.store().countActiveWithoutVectors(scope, p);
        }
        out().println("vectors " + p + ": " + (active - missing) + " of " + active + " active versions");
      }
      if (!rows.isEmpty()) {
        out().println();
        Table t = Table.of("SCOPE", "REVISION", "ACTIVE", "SUPERSEDED", "RETIRED", "TOPICS", "DIRTY");
        for (Overview.ScopeRow r : rows) {
          t.row(r.scope(), r.revision(), r.count(EntryStatus.ACTIVE), r.count(EntryStatus.SUPERSEDED),
              r.count(EntryStatus.RETIRED), r.topics(), r.dirtyTopics());
        }
        t.print(out());
      }
      out().flush();
      return EngramCli.OK;
    }
  }

  @Command(name = "doctor", description = "Check the store: schema version, integrity, version chains,"
      + " vectors per embedding profile, topics awaiting curation. Exits 1 when a check fails.")
  static final class DoctorCommand extends BaseCommand {
    @Override
    boolean needsGrants() {
      return false;
    }

    @Override
    int run(Session s) {
      List<Doctor.Finding> findings = Doctor.run(s);
      boolean failed = findings.stream().anyMatch(f -> f.level() == Doctor.Level.FAIL);
      if (json()) {
        ObjectNode n = Json.MAPPER.createObjectNode();
        n.put("store", s.describe());
        n.put("healthy", !failed);
        ArrayNode a = n.putArray("checks");
        for (Doctor.Finding f : findings) {
          ObjectNode o = a.addObject();
          o.put("check", f.check());
          o.put("level", f.level().name().toLowerCase(Locale.ROOT));
          o.put("summary", f.summary());
          ArrayNode d = o.putArray("details");
          f.details().forEach(d::add);
        }
        printJson(n);
      } else {
        out().println(s.describe());
        for (Doctor.Finding f : findings) {
          out().println(String.format(Locale.ROOT, "%-4s  %-9s  %s", f.level(), f.check(), Table.printable(f.summary())));
          for (String d : f.details()) {
            out().println("                 " + Table.printable(d));
          }
        }
        out().println(failed ? "problems found" : "healthy");
        out().flush();
      }
      return failed ? EngramCli.FAILED : EngramCli.OK;
    }
  }
}
