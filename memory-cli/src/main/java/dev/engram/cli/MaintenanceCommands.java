/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.CurateReport;
import dev.engram.DirtyTopic;
import dev.engram.FlushOptions;
import dev.engram.FlushReport;
import dev.engram.MaintenanceOptions;
import dev.engram.MaintenanceReport;
import dev.engram.MaintenanceRunner;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code engram curate} and {@code engram flush}: one maintenance run under the grants, as an application's
 * scheduled runner does it, claims included, so the command never works on what a running application holds.
 */
final class MaintenanceCommands {
  private MaintenanceCommands() {}

  /** One run of the tasks {@code options} turns on, then the runner is closed. */
  private static @Nullable MaintenanceReport once(Session s, MaintenanceOptions.Builder options,
      MaintenanceReport.Task task) {
    MaintenanceOptions built = options.interval(MaintenanceOptions.MAX_INTERVAL)
        .initialDelay(MaintenanceOptions.MAX_INTERVAL).build();
    try (MaintenanceRunner runner = s.engram().operator().startMaintenance(List.of(s.grants()), built)) {
      if (!runner.tasks().contains(task)) {
        return null;
      }
      return runner.runNow();
    }
  }

  private static String worker() {
    return "engram-cli-" + ProcessHandle.current().pid();
  }

  private static ObjectNode reportJson(MaintenanceReport r) {
    ObjectNode n = Json.MAPPER.createObjectNode();
    n.put("worker", r.workerId());
    n.put("claims", r.claims());
    ArrayNode curated = n.putArray("topicsCurated");
    for (DirtyTopic t : r.topicsCurated()) {
      curated.addObject().put("scope", t.scope()).put("topic", t.topic());
    }
    ArrayNode applied = n.putArray("applied");
    ArrayNode rejected = n.putArray("rejected");
    ArrayNode runs = n.putArray("runIds");
    for (CurateReport c : r.curations()) {
      c.applied().forEach(applied::add);
      c.rejected().forEach(rejected::add);
      if (c.runId() != null) {
        runs.add(c.runId());
      }
    }
    ArrayNode flushed = n.putArray("scopesFlushed");
    r.scopesFlushed().forEach(flushed::add);
    int appended = 0;
    int updated = 0;
    int deduped = 0;
    int skipped = 0;
    for (FlushReport f : r.flushes()) {
      appended += f.appended();
      updated += f.updated();
      deduped += f.deduped();
      skipped += f.skipped();
    }
    n.put("windows", r.windowsFlushed());
    n.put("appended", appended);
    n.put("updated", updated);
    n.put("deduped", deduped);
    n.put("skipped", skipped);
    ArrayNode topicsElsewhere = n.putArray("topicsClaimedElsewhere");
    for (DirtyTopic t : r.topicsClaimedElsewhere()) {
      topicsElsewhere.addObject().put("scope", t.scope()).put("topic", t.topic());
    }
    ArrayNode scopesElsewhere = n.putArray("scopesClaimedElsewhere");
    r.scopesClaimedElsewhere().forEach(scopesElsewhere::add);
    ArrayNode failures = n.putArray("failures");
    for (MaintenanceReport.Failure f : r.failures()) {
      ObjectNode o = failures.addObject().put("task", f.task().name().toLowerCase(Locale.ROOT));
      o.put("scope", f.scope());
      o.put("code", f.code() == null ? null : f.code().name());
      o.put("message", f.message());
    }
    return n;
  }

  private static void printFailures(PrintWriter out, MaintenanceReport r) {
    for (MaintenanceReport.Failure f : r.failures()) {
      out.println("failed: " + f.task().name().toLowerCase(Locale.ROOT) + (f.scope() == null ? "" : " of " + f.scope())
          + (f.code() == null ? "" : " (" + f.code() + ")") + ": " + f.message());
    }
  }

  private static String plural(int n, String one, String many) {
    return n + " " + (n == 1 ? one : many);
  }

  @Command(name = "curate", description = "Curate the dirty topics of the granted scopes once through the reasoner,"
      + " skipping topics another worker has claimed.")
  static final class Curate extends BaseCommand {
    @Override
    int run(Session s) {
      MaintenanceReport r = once(s, MaintenanceOptions.builder().flush(false).workerId(worker()),
          MaintenanceReport.Task.CURATE);
      if (r == null) {
        if (json()) {
          ObjectNode n = Json.MAPPER.createObjectNode();
          n.put("reasonerCurates", false);
          n.putArray("topicsCurated");
          printJson(n);
        } else {
          out().println("nothing curated: the reasoner has no curate step, so dirty topics stay dirty");
          out().flush();
        }
        return EngramCli.OK;
      }
      if (json()) {
        ObjectNode n = reportJson(r);
        n.put("reasonerCurates", true);
        printJson(n);
      } else {
        PrintWriter out = out();
        List<DirtyTopic> curated = r.topicsCurated();
        int applied = 0;
        int rejected = 0;
        for (CurateReport c : r.curations()) {
          applied += c.applied().size();
          rejected += c.rejected().size();
        }
        out.println("curated " + plural(curated.size(), "topic", "topics") + ": " + plural(applied, "operation",
            "operations") + " applied, " + rejected + " rejected");
        for (DirtyTopic t : curated) {
          out.println("  " + t.scope() + " " + t.topic());
        }
        for (CurateReport c : r.curations()) {
          if (c.runId() != null) {
            out.println("run " + c.runId() + " (undo with the application's undoCuration)");
          }
        }
        for (DirtyTopic t : r.topicsClaimedElsewhere()) {
          out.println("skipped " + t.scope() + " " + t.topic() + ": claimed by another worker");
        }
        printFailures(out, r);
        out.flush();
      }
      return r.failed() ? EngramCli.FAILED : EngramCli.OK;
    }
  }

  @Command(name = "flush", description = "Extract the captured sources of the granted scopes (and those below them)"
      + " into memories once, skipping scopes another worker has claimed.")
  static final class Flush extends BaseCommand {
    @Option(names = "--window", paramLabel = "N", description = "records per reasoner call (1..256, default 32)")
    int window = FlushOptions.DEFAULT_WINDOW_RECORDS;

    @Option(names = "--max-windows", paramLabel = "N", description = "windows per scope at most (default 10000)")
    int maxWindows = FlushOptions.DEFAULT_MAX_WINDOWS;

    @Override
    int run(Session s) {
      FlushOptions flush;
      try {
        flush = FlushOptions.builder().windowRecords(window).maxWindows(maxWindows).build();
      } catch (dev.engram.InvalidInputException e) {
        throw new UsageException((e.getMessage().contains("windowRecords") ? "--window" : "--max-windows") + ": "
            + e.getMessage());
      }
      MaintenanceReport r = once(s, MaintenanceOptions.builder().curate(false).flushOptions(flush).workerId(worker()),
          MaintenanceReport.Task.FLUSH);
      if (r == null) {
        throw new dev.engram.CapabilityNotSupportedException(
            "flush needs a store with captured sources (" + s.describe() + " keeps none)");
      }
      if (json()) {
        printJson(reportJson(r));
      } else {
        PrintWriter out = out();
        int appended = 0;
        int updated = 0;
        int deduped = 0;
        for (FlushReport f : r.flushes()) {
          appended += f.appended();
          updated += f.updated();
          deduped += f.deduped();
        }
        out.println("flushed " + plural(r.windowsFlushed(), "window", "windows") + " in "
            + plural(r.scopesFlushed().size(), "scope", "scopes") + ": " + appended + " appended, " + updated
            + " updated, " + deduped + " deduped");
        for (String scope : r.scopesFlushed()) {
          out.println("  " + scope);
        }
        for (String scope : r.scopesClaimedElsewhere()) {
          out.println("skipped " + scope + ": claimed by another worker");
        }
        printFailures(out, r);
        out.flush();
      }
      return r.failed() ? EngramCli.FAILED : EngramCli.OK;
    }
  }
}
