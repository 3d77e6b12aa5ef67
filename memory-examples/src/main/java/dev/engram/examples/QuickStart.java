/*
 * Copyright 2026 The Engram developers
 * SPDX-License-Identifier: Apache-2.0
 */
package dev.engram.examples;

import dev.engram.ContextRequest;
import dev.engram.DeleteScopeOptions;
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
import dev.engram.embeddings.e5.E5SmallEmbedder;
import dev.engram.CurateReport;
import dev.engram.reasoner.DeterministicReasoner;
import dev.engram.reasoner.llm.LlmReasoner;
import dev.engram.spi.Embedder;
import dev.engram.spi.MemoryStore;
import dev.engram.spi.Reasoner;
import dev.engram.store.inmemory.InMemoryMemoryStore;
import dev.engram.store.sqlite.SqliteMemoryStore;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A walk through the core calls: write, dedupe, read, scan, correct, history, retire, the audit
 * listing, a hybrid search, a PreparedContext and a curation pass. Runs with the deterministic
 * reasoner and the offline e5-small-v2 embedder by default: no server, no API key. With a file argument
 * the memory lives in that SQLite file and survives restarts; without one it lives in memory.
 *
 * <p>{@code --reasoner llm} files and curates with {@link LlmReasoner#fromEnvironment()} instead: set
 * {@code OPENAI_API_KEY}, or {@code ANTHROPIC_API_KEY}, or point {@code OPENAI_BASE_URL} at any
 * OpenAI-compatible server (Ollama {@code http://127.0.0.1:11434/v1}, vLLM {@code
 * http://127.0.0.1:8000/v1}, LM Studio {@code http://127.0.0.1:1234/v1}) and {@code ENGRAM_LLM_MODEL}
 * at one of its models.
 */
public final class QuickStart {
  private QuickStart() {}

  /**
   * Runs the walk-through and prints it; exits with status 2 and a usage line on unknown arguments.
   *
   * @param args {@code [--reasoner deterministic|llm] [memory.db]}
   */
  public static void main(String[] args) {
    List<String> rest = new ArrayList<>(List.of(args));
    String reasonerName = "deterministic";
    int at = rest.indexOf("--reasoner");
    if (at >= 0) {
      if (at + 1 >= rest.size()) {
        usage();
      }
      reasonerName = rest.get(at + 1);
      rest.subList(at, at + 2).clear();
    }
    if (rest.size() > 1 || !(reasonerName.equals("deterministic") || reasonerName.equals("llm"))) {
      usage();
    }
    Reasoner reasoner = reasonerName.equals("llm") ? LlmReasoner.fromEnvironment() : new DeterministicReasoner();
    MemoryStore store = rest.size() == 1 ? new SqliteMemoryStore(Path.of(rest.get(0))) : new InMemoryMemoryStore();
    if (rest.size() == 1) {
      System.out.println("== memory file " + Path.of(rest.get(0)).toAbsolutePath());
    }
    System.out.println("== reasoner " + reasoner);
    run(store, new E5SmallEmbedder(), reasoner, System.out);
  }

  private static void usage() {
    System.err.println("usage: QuickStart [--reasoner deterministic|llm] [memory.db]");
    System.exit(2);
  }

  /**
   * Runs the walk-through on {@code store} with the deterministic reasoner, printing to {@code out}.
   *
   * @param store the store; the walk-through's engine owns it and closes it at the end
   * @param embedder the embedder for the vector channel
   * @param out where the walk-through is printed
   */
  public static void run(MemoryStore store, Embedder embedder, PrintStream out) {
    run(store, embedder, new DeterministicReasoner(), out);
  }

  /**
   * Runs the walk-through on {@code store} with {@code reasoner}, printing to {@code out}. Entries left in
   * {@code app/user/u_123} by an earlier run are erased first.
   *
   * @param store the store; the walk-through's engine owns it and closes it at the end
   * @param embedder the embedder for the vector channel
   * @param reasoner the reasoner that files and curates
   * @param out where the walk-through is printed
   */
  public static void run(MemoryStore store, Embedder embedder, Reasoner reasoner, PrintStream out) {
    try (Engram engram = Engram.builder().store(store).reasoner(reasoner).embedder(embedder).build()) {
      Grants grants = Grants.of("app/user/u_123");
      List<MemoryEntry> earlier = engram.list(grants);
      if (!earlier.isEmpty()) {
        out.println("== remembered from an earlier run: " + earlier.size() + " active entries");
        engram.deleteScope(grants, "app/user/u_123", DeleteScopeOptions.withDescendants());
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

      out.println("== hybrid search (full text + the embedder's vectors, their scores fused)");
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

      out.println("== curate");
      CurateReport report = engram.curate(grants);
      if (!report.reasonerCurates()) {
        out.println("  this reasoner has no curate step; topics stay dirty");
      } else {
        out.println("  " + report.topicsCurated().size() + " topics curated, " + report.applied().size()
            + " ops applied, " + report.rejected().size() + " rejected");
        for (String op : report.applied()) {
          out.println("    " + op);
        }
      }
    }
  }

  private static String show(MemoryEntry e) {
    return "[" + e.status() + " v" + e.version() + " r" + e.createdInRevision() + " " + e.topics() + "] "
        + e.content();
  }
}
