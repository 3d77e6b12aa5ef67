/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.examples;

import dev.engram.Engram;
import dev.engram.Grants;
import dev.engram.ImportOptions;
import dev.engram.TransferReport;
import dev.engram.reasoner.DeterministicReasoner;
import dev.engram.spi.MemoryStore;
import dev.engram.store.postgres.PostgresMemoryStore;
import dev.engram.store.sqlite.SqliteMemoryStore;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * Moves memory from one machine to a cluster: exports everything the grants see from a SQLite file as
 * JSON Lines, validates it against the grants and the target (dry run), then imports it into
 * PostgreSQL.
 *
 * <pre>
 * MoveMemory memory.db jdbc:postgresql://host/db?user=u&amp;password=p export.jsonl app/user/u_123 [more grants]
 * </pre>
 */
public final class MoveMemory {
  private MoveMemory() {}

  /**
   * Moves the memory of the grants from a SQLite file to PostgreSQL; exits with status 2 and a usage line
   * when fewer than four arguments are given.
   *
   * @param args the SQLite file, the PostgreSQL JDBC URL, the export file to write, then one or more grants
   */
  public static void main(String[] args) {
    if (args.length < 4) {
      System.err.println("usage: MoveMemory <sqlite file> <postgres jdbc url> <export.jsonl> <grant> [grant...]");
      System.exit(2);
    }
    Grants grants = Grants.of(Arrays.asList(args).subList(3, args.length));
    try (MemoryStore from = new SqliteMemoryStore(Path.of(args[0]));
        MemoryStore to = new PostgresMemoryStore(args[1])) {
      TransferReport report = move(from, to, Path.of(args[2]), grants);
      System.out.println("moved " + report.versions() + " versions, " + report.events() + " events, "
          + report.revisions() + " revisions, " + report.topics() + " topics and " + report.sources()
          + " captured sources of " + report.scopes());
    }
  }

  /**
   * Exports {@code grants}' memory from {@code from} into {@code file}, then imports the file into {@code
   * to}: first as a dry run that validates everything, then for real.
   *
   * @param from the store to read
   * @param to the store to fill
   * @param file where the JSON Lines export is written (replaced when it exists)
   * @param grants the grants whose visible scopes move
   * @return what the import wrote
   * @throws java.io.UncheckedIOException when the file cannot be written or read
   * @throws dev.engram.MemoryException when the export or the import refuses the memory (nothing is imported
   *     then)
   */
  public static TransferReport move(MemoryStore from, MemoryStore to, Path file, Grants grants) {
    Engram source = Engram.builder().store(from).reasoner(new DeterministicReasoner()).build();
    Engram target = Engram.builder().store(to).reasoner(new DeterministicReasoner()).build();
    try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      source.operator().export(grants, out);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    for (ImportOptions mode : List.of(ImportOptions.validateOnly(), ImportOptions.defaults())) {
      try (var in = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
        TransferReport report = target.operator().importFrom(grants, in, mode);
        if (!mode.dryRun()) {
          return report;
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    throw new IllegalStateException("unreachable");
  }
}
