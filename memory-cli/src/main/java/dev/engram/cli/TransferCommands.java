/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.engram.ImportMode;
import dev.engram.ImportOptions;
import dev.engram.TransferReport;
import dev.engram.spi.StoreSpec;
import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.jspecify.annotations.Nullable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** Moving memory between stores: the library's lossless JSON Lines export and validated import. */
final class TransferCommands {
  private TransferCommands() {}

  static void report(BaseCommand c, PrintWriter to, String verb, TransferReport r) {
    if (c.json()) {
      ObjectNode n = Json.MAPPER.createObjectNode();
      n.put("dryRun", r.dryRun());
      n.set("scopes", Json.MAPPER.valueToTree(r.scopes()));
      n.put("versions", r.versions());
      n.put("events", r.events());
      n.put("revisions", r.revisions());
      n.put("topics", r.topics());
      n.put("sources", r.sources());
      n.put("replaced", r.replaced());
      to.println(n.toPrettyString());
    } else {
      to.println(verb + " " + r.scopes().size() + " scope" + (r.scopes().size() == 1 ? "" : "s") + ": "
          + r.versions() + " versions, " + r.events() + " events, " + r.revisions() + " revisions, "
          + r.topics() + " topics, " + r.sources() + " sources" + (r.scopes().isEmpty() ? "" : " (" + String.join(", ", r.scopes()) + ")")
          + (r.replaced() > 0 ? (r.dryRun() ? "; would replace " : "; replaced ") + r.replaced() + " active " + (r.replaced() == 1 ? "entry" : "entries") : ""));
    }
    to.flush();
  }

  @Command(name = "export", description = "Export the visible memory as JSON Lines (to FILE, or stdout).")
  static final class Export extends BaseCommand {
    @Parameters(paramLabel = "FILE", arity = "0..1", description = "where to write; stdout when absent")
    @Nullable Path file;

    @Override
    int run(Session s) throws IOException {
      if (file == null) {
        Writer w = new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8));
        TransferReport r = s.engram().operator().export(s.grants(), w);
        w.flush();
        // stdout holds the export; the summary goes to stderr
        report(this, err(), "exported", r);
        return EngramCli.OK;
      }
      Path abs = file.toAbsolutePath();
      Path tmp = Files.createTempFile(abs.getParent(), abs.getFileName().toString(), ".part");
      try {
        TransferReport r;
        try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
          r = s.engram().operator().export(s.grants(), w);
        }
        Files.move(tmp, abs, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        report(this, out(), "exported", r);
        return EngramCli.OK;
      } finally {
        Files.deleteIfExists(tmp);
      }
    }
  }

  @Command(name = "import", description = "Import a JSON Lines export; everything is validated before anything is"
      + " written. Into empty scopes, or with --replace --yes as a restore that replaces each scope of the export.")
  static final class Import extends BaseCommand {
    @Parameters(paramLabel = "FILE", description = "an export written by `engram export` or Engram.export")
    Path file;

    @Option(names = "--dry-run", description = "validate only; write nothing")
    boolean dryRun;

    @Option(names = "--replace", description = "restore: replace what the store holds for each scope of the export"
        + " (erased and written anew in one transaction per scope); needs --yes")
    boolean replace;

    @Option(names = "--yes", description = "confirm --replace: the replaced memory is erased and cannot be recovered")
    boolean yes;

    @Override
    boolean creates() {
      return !dryRun;
    }

    /** A dry run into a file that does not exist yet validates against an empty store and creates nothing. */
    @Override
    StoreSpec adjust(StoreSpec spec) {
      return dryRun && spec.scheme().equals("sqlite") && !Files.exists(Path.of(spec.location()))
          ? StoreSpec.parse("memory") : spec;
    }

    @Override
    void before() {
      if (replace && !yes && !dryRun) {
        throw new UsageException("import --replace erases what the store holds for every scope of " + file
            + " (entries, history, sources) and writes the export in its place; that cannot be undone. Add --yes to"
            + " confirm, or --dry-run to see what it would replace");
      }
      if (!Files.isRegularFile(file)) {
        throw new UsageException("no file to import at " + file);
      }
    }

    @Override
    int run(Session s) throws IOException {
      try (BufferedReader in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
        TransferReport r = s.engram().operator().importFrom(s.grants(), in, ImportOptions.builder()
            .mode(replace ? ImportMode.REPLACE : ImportMode.INTO_EMPTY).dryRun(dryRun).build());
        report(this, out(), dryRun ? (replace ? "would restore" : "would import") : (replace ? "restored" : "imported"), r);
      }
      return EngramCli.OK;
    }
  }
}
