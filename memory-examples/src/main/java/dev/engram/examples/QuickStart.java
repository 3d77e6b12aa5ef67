/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.examples;

import dev.engram.ContextRequest;
import dev.engram.Engram;
import dev.engram.Grants;
import dev.engram.ListOptions;
import dev.engram.MemoryEntry;
import dev.engram.MemoryEvent;
import dev.engram.PreparedContext;
import dev.engram.SearchHit;
import dev.engram.SearchResult;
import dev.engram.TopicSummary;
import dev.engram.WriteOptions;
import dev.engram.WriteResult;
import dev.engram.embeddings.local.MiniLmEmbedder;
import dev.engram.reasoner.DeterministicReasoner;
import dev.engram.spi.Embedder;
import dev.engram.spi.MemoryStore;
import dev.engram.store.inmemory.InMemoryMemoryStore;
import dev.engram.store.sqlite.SqliteMemoryStore;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

/**
 * A walk through the core calls: write, dedupe, read, scan, correct, history, retire, the audit
 * listing, a hybrid search and a PreparedContext. Runs with the deterministic reasoner and the offline
 * MiniLM embedder: no server, no API key. With a file argument the memory lives in that SQLite file
 * and survives restarts; without one it lives in memory.
 */
public final class QuickStart {
  private QuickStart() {}

  public static void main(String[] args) {
    if (args.length > 1) {
      System.err.println("usage: QuickStart [memory.db]");
      System.exit(2);
    }
    MemoryStore store = args.length == 1 ? new SqliteMemoryStore(Path.of(args[0])) : new InMemoryMemoryStore();
    if (args.length == 1) {
      System.out.println("== memory file " + Path.of(args[0]).toAbsolutePath());
    }
    run(store, new MiniLmEmbedder(), System.out);
  }

  /** Runs the walk-through on {@code store}, printing to {@code out}. */
  public static void run(MemoryStore store, Embedder embedder, PrintStream out) {
    try (Engram engram = Engram.builder().store(store).reasoner(new DeterministicReasoner()).embedder(embedder).build()) {
      Grants grants = Grants.of("app/user/u_123");
      List<MemoryEntry> earlier = engram.list(grants);
      if (!earlier.isEmpty()) {
        out.println("== remembered from an earlier run: " + earlier.size() + " active entries");
        engram.deleteScope(grants, "app/user/u_123", true);
        out.println("   (erased them to start the walk-through afresh)");
      }

      out.println("== write");
      WriteResult w = engram.write(grants, "Prefers metric units.",
          WriteOptions.builder().topicsHint("preferences").type(dev.engram.EntryType.PREFERENCE).build());
      out.println(w.outcome() + "  " + show(w.entry()));
      engram.write(grants, "Training for a marathon in April.", WriteOptions.builder().topicsHint("goals").build());
      engram.write(grants, "Owns dumbbells and a bench.",
          WriteOptions.builder().topicsHint("equipment", "core").priority(1).build());

      out.println("== write the same thing again (canonical dedupe: no new revision)");
      WriteResult again = engram.write(grants, "  Prefers   metric units. ",
          WriteOptions.builder().topicsHint("preferences").build());
      out.println(again.outcome() + "  revision still " + again.revision());

      out.println("== read preferences + goals");
      for (MemoryEntry e : engram.read(grants, List.of("preferences", "goals"))) {
        out.println("  " + show(e));
      }

      out.println("== scan");
      for (TopicSummary t : engram.scan(grants)) {
        out.println("  " + t.scope() + " / " + t.topic() + ": " + t.count() + " active"
            + (t.hasUncuratedWrites() ? ", uncurated writes" : ""));
      }

      out.println("== correct (new version; the old one is superseded, never edited)");
      MemoryEntry fixed = engram.correct(grants, w.entry().entryId(), "Prefers imperial units.");
      out.println("  " + show(fixed) + " (previous " + fixed.previousVersionId() + ")");

      out.println("== history");
      for (MemoryEvent ev : engram.history(grants, fixed.entryId())) {
        out.println("  r" + ev.revision() + " " + ev.kind() + ": "
            + (ev.before() == null ? "-" : ev.before().content()) + " -> "
            + (ev.after() == null ? "-" : ev.after().content()));
      }

      out.println("== retire");
      MemoryEntry retired = engram.retire(grants, fixed.citation(), "moved to Europe");
      out.println("  " + show(retired));
      out.println("  active preferences now: " + engram.read(grants, "preferences").size());

      out.println("== list with superseded (the audit view)");
      for (MemoryEntry e : engram.list(grants, ListOptions.builder().includeSuperseded(true).build())) {
        out.println("  " + show(e));
      }
      out.println("== scope revision: " + engram.revision(grants, "app/user/u_123"));

      out.println("== hybrid search (full text + MiniLM vectors, fused by reciprocal rank fusion)");
      for (String query : List.of("what gym equipment is available at home?", "Which weights do I own for home workouts?")) {
        SearchResult found = engram.search(grants, query);
        out.println("  \"" + query + "\" (" + found.used() + ")");
        for (SearchHit hit : found.hits()) {
          out.println("    " + hit.matchedBy() + " " + hit.entry().content());
        }
      }

      out.println("== prepared context (bounded, cited, labelled untrusted)");
      PreparedContext ctx = engram.prepareContext(grants, ContextRequest.of("plan my next training week", 1024));
      out.println("  " + ctx.status() + ", " + ctx.contentBytes() + " of 1024 bytes, " + ctx.citations().size() + " citations");
      out.print(ctx.content() == null ? "" : ctx.content().indent(4));
    }
  }

  private static String show(MemoryEntry e) {
    return "[" + e.status() + " v" + e.version() + " r" + e.createdInRevision() + " " + e.topics() + "] "
        + e.content();
  }
}
