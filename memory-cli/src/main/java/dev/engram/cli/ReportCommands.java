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
import picocli.CommandLine.Option;

/** Reports about the store: {@code stats}, {@code usage} and {@code doctor}. */
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

  @Command(name = "usage", description = "Model usage per scope and day (UTC): the reasoner's model calls,"
      + " input and output tokens and failed calls, for the granted scopes and every scope below them.")
  static final class UsageCommand extends BaseCommand {
    @Option(names = "--from", paramLabel = "DAY", description = "the first day (UTC, yyyy-mm-dd), included")
    @org.jspecify.annotations.Nullable String from;

    @Option(names = "--to", paramLabel = "DAY", description = "the last day (UTC, yyyy-mm-dd), included")
    @org.jspecify.annotations.Nullable String to;

    @Option(names = "--exact", description = "only the granted scopes themselves, not the scopes below them")
    boolean exact;

    private static java.time.LocalDate day(String option, String value) {
      try {
        return java.time.LocalDate.parse(value);
      } catch (java.time.format.DateTimeParseException e) {
        throw new UsageException(option + " is '" + value + "'; expected a day as yyyy-mm-dd");
      }
    }

    @Override
    int run(Session s) {
      dev.engram.ModelUsageQuery.Builder q = dev.engram.ModelUsageQuery.builder().descendants(!exact);
      if (from != null) {
        q.from(day("--from", from));
      }
      if (to != null) {
        q.to(day("--to", to));
      }
      List<dev.engram.ModelUsageRow> rows = s.engram().operator().modelUsage(s.grants(), q.build());
      long calls = 0;
      long in = 0;
      long out = 0;
      long failures = 0;
      for (dev.engram.ModelUsageRow r : rows) {
        calls += r.calls();
        in += r.inputTokens();
        out += r.outputTokens();
        failures += r.failures();
      }
      if (json()) {
        ObjectNode n = Json.MAPPER.createObjectNode();
        n.put("store", s.describe());
        ObjectNode total = n.putObject("total");
        total.put("calls", calls);
        total.put("inputTokens", in);
        total.put("outputTokens", out);
        total.put("failures", failures);
        ArrayNode a = n.putArray("rows");
        for (dev.engram.ModelUsageRow r : rows) {
          ObjectNode o = a.addObject();
          o.put("scope", r.scope());
          o.put("day", r.day().toString());
          o.put("provider", r.provider());
          o.put("model", r.model());
          o.put("job", r.job());
          o.put("calls", r.calls());
          o.put("inputTokens", r.inputTokens());
          o.put("outputTokens", r.outputTokens());
          o.put("failures", r.failures());
        }
        printJson(n);
        return EngramCli.OK;
      }
      if (rows.isEmpty()) {
        out().println("no model usage recorded for " + s.grants().namespaces() + (exact ? "" : " or below")
            + (from == null && to == null ? "" : " from " + (from == null ? "the start" : from) + " to "
                + (to == null ? "today" : to)));
        out().flush();
        return EngramCli.OK;
      }
      out().println(String.format(Locale.ROOT, "%d model call(s), %d input and %d output tokens, %d failed",
          calls, in, out, failures));
      out().println();
      Table t = Table.of("SCOPE", "DAY", "PROVIDER", "MODEL", "JOB", "CALLS", "INPUT", "OUTPUT", "FAILED");
      for (dev.engram.ModelUsageRow r : rows) {
        t.row(r.scope(), r.day(), r.provider(), r.model(), r.job(), r.calls(), r.inputTokens(), r.outputTokens(),
            r.failures());
      }
      t.print(out());
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
